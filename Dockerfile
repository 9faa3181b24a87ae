# The image the Kubernetes Jobs of docs/scale.md and docs/export.md name: the lamina CLI on Debian bookworm with
# its libraries and Mesa (EGL, GLES on llvmpipe), so `--backend gles` works without a GPU and `--backend cpu`
# everywhere. Build from the repository's root:
#
#   docker build -t registry.example.com/lamina:latest .
#
# The CLI is built in the first stage with the Swift toolchain image (its Swift libraries linked in statically),
# and only the binary goes into the second. Tests/LaminaCLITests/SchedulerTests.swift checks this file: known
# instructions, every package one that Debian has, and every library the binary needs installed.
ARG SWIFT_IMAGE=swift:6.3-bookworm

FROM ${SWIFT_IMAGE} AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        pkg-config libpng-dev libturbojpeg0-dev zlib1g-dev libpixman-1-dev libcairo2-dev libpango1.0-dev \
        libegl-dev libgles-dev libgbm-dev libdrm-dev libx11-dev libxext-dev libxpresent-dev libwayland-dev duktape-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN swift build -c release --product lamina --static-swift-stdlib \
    && install -D -m 0755 .build/release/lamina /out/lamina

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        libpng16-16 libturbojpeg0 zlib1g libpixman-1-0 libcairo2 libpango-1.0-0 libpangocairo-1.0-0 \
        libpangoft2-1.0-0 libfontconfig1 libharfbuzz0b libglib2.0-0 libegl1 libgles2 libgbm1 libdrm2 \
        libx11-6 libxext6 libxpresent1 libwayland-client0 libwayland-egl1 libegl-mesa0 libgl1-mesa-dri libstdc++6 \
        fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --create-home --uid 1000 lamina
COPY --from=build /out/lamina /usr/local/bin/lamina
USER 1000
WORKDIR /data
ENTRYPOINT ["lamina"]
CMD ["--help"]
