#!/usr/bin/env bash
# tools/gpu-bundle.sh: packs the release `lamina` (and, with --tests, the debug test binary and its resources) with
# every shared library they load, except glibc's, into one .tar.xz, so that tools/gpu-check.sh can run on a GPU
# machine that has no Swift toolchain, no Debian packages and no network. See docs/gpu.md, "The GPU check".
set -euo pipefail

usage() {
    cat <<'EOF'
usage: tools/gpu-bundle.sh [--tests] [--no-strip] [OUTPUT.tar.xz]

Packs .build/release/lamina, the Swift runtime and every other library it loads (ldd), glvnd's libEGL and
libGLESv2 (a GPU's driver supplies the vendor library), the fonts fontconfig finds here and an env.sh that sets
the library and font paths, into OUTPUT (default .gpu/lamina-bundle.tar.xz). On the GPU machine:

    tools/gpu-check.sh --bundle .gpu/lamina-bundle.tar.xz

options:
  --tests     also pack the debug test binary (.build/debug/LaminaPackageTests.xctest, stripped of debug
              information) and its resource bundles, so gpu-check.sh runs the GLES tests there
  --no-strip  keep the binaries' symbols and debug information
  -h, --help  this text

Build first: `swift build -c release --product lamina`, and for --tests `swift build --build-tests`.
EOF
}

tests=0
strip=1
output=""
while [ $# -gt 0 ]; do
    case "$1" in
        -h|--help) usage; exit 0 ;;
        --tests) tests=1 ;;
        --no-strip) strip=0 ;;
        -*) echo "gpu-bundle: unknown option $1 (see --help)" >&2; exit 2 ;;
        *) [ -z "$output" ] || { echo "gpu-bundle: one output only" >&2; exit 2; }; output="$1" ;;
    esac
    shift
done
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
output="${output:-.gpu/lamina-bundle.tar.xz}"
lamina=.build/release/lamina
xctest=.build/debug/LaminaPackageTests.xctest
[ -x "$lamina" ] || { echo "gpu-bundle: no $lamina: swift build -c release --product lamina" >&2; exit 1; }
if [ "$tests" = 1 ] && [ ! -x "$xctest" ]; then
    echo "gpu-bundle: no $xctest: swift build --build-tests" >&2
    exit 1
fi

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
bundle="$stage/lamina-bundle"
mkdir -p "$bundle/bin" "$bundle/lib" "$bundle/lib-fallback" "$bundle/fonts"

binaries=("$lamina")
cp "$lamina" "$bundle/bin/"
if [ "$tests" = 1 ]; then
    binaries+=("$xctest")
    cp "$xctest" "$bundle/bin/"
    # Bundle.module looks for the resource bundles beside the executable.
    for resources in .build/debug/*.resources; do
        [ -d "$resources" ] && cp -r "$resources" "$bundle/bin/"
    done
fi
if [ "$strip" = 1 ]; then
    for binary in "$bundle"/bin/*; do
        [ -f "$binary" ] && strip --strip-debug "$binary"
    done
fi

# Every library the binaries load, but glibc's own (the GPU machine's glibc must be as new as this one's or newer).
# libstdc++ and libgcc_s go to lib-fallback, used only where the machine has none: a driver's libraries may need
# the machine's newer libstdc++.
glibc='^(linux-vdso|ld-linux|libc|libm|libpthread|libdl|librt|libutil|libresolv)\.so'
for binary in "${binaries[@]}"; do
    ldd "$binary" | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }'
done | sort -u | while read -r name path; do
    if [[ "$name" =~ $glibc ]]; then continue; fi
    case "$name" in
        libstdc++.so.*|libgcc_s.so.*) cp -L "$path" "$bundle/lib-fallback/$name" ;;
        *) cp -L "$path" "$bundle/lib/$name" ;;
    esac
done
# glvnd's front ends: the driver's vendor library (libEGL_nvidia, Mesa's libEGL_mesa) is the machine's own.
for name in libEGL.so.1 libGLESv2.so.2 libGLdispatch.so.0; do
    if [ ! -f "$bundle/lib/$name" ]; then
        path="$(ldconfig -p | awk -v n="$name" '$1 == n && /x86-64/ { print $NF; exit }')"
        [ -n "$path" ] && cp -L "$path" "$bundle/lib/$name"
    fi
done
if [ "$strip" = 1 ]; then
    strip --strip-unneeded "$bundle"/lib/*.so* "$bundle"/lib-fallback/*.so* 2>/dev/null || true
fi

# The fonts this machine's fontconfig knows, so that text renders with the faces the tests expect.
fc-list --format '%{file}\n' 2>/dev/null | sort -u | while read -r font; do
    [ -f "$font" ] && cp "$font" "$bundle/fonts/"
done
cat > "$bundle/fonts/fonts.conf" <<'EOF'
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <dir prefix="relative">.</dir>
  <cachedir>/tmp/lamina-bundle-fontconfig</cachedir>
  <alias><family>sans-serif</family><prefer><family>DejaVu Sans</family></prefer></alias>
  <alias><family>serif</family><prefer><family>DejaVu Serif</family></prefer></alias>
  <alias><family>monospace</family><prefer><family>DejaVu Sans Mono</family></prefer></alias>
</fontconfig>
EOF

cat > "$bundle/env.sh" <<'EOF'
# Sourced by tools/gpu-check.sh --bundle: the bundle's libraries and fonts, and an NVIDIA driver's EGL vendor
# library where the driver is mounted outside the loader's paths.
bundle_root="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
LD_LIBRARY_PATH="$bundle_root/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if ! ldconfig -p 2>/dev/null | grep -q 'libstdc++\.so\.6 '; then LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$bundle_root/lib-fallback"; fi
for dir in /usr/local/nvidia/lib64 /usr/local/nvidia/lib; do
    if [ -d "$dir" ]; then LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$dir"; fi
done
export LD_LIBRARY_PATH
if [ -z "${__EGL_VENDOR_LIBRARY_FILENAMES:-}" ] && [ -z "${__EGL_VENDOR_LIBRARY_DIRS:-}" ]; then
    for json in /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json /usr/share/glvnd/egl_vendor.d/10_nvidia.json; do
        if [ -f "$json" ]; then export __EGL_VENDOR_LIBRARY_FILENAMES="$json"; break; fi
    done
fi
export FONTCONFIG_FILE="$bundle_root/fonts/fonts.conf"
EOF

# Where the sources were: tests that read them by #filePath look there.
echo "$root" > "$bundle/build-root"
git rev-parse --short HEAD > "$bundle/commit" 2>/dev/null || true
if [ -n "$(git status --porcelain -- Sources Shaders Package.swift 2>/dev/null)" ]; then echo "$(cat "$bundle/commit")+changes" > "$bundle/commit"; fi

mkdir -p "$(dirname "$output")"
tar -C "$stage" -cf - lamina-bundle | xz -T0 -6 > "$output"
echo "gpu-bundle: $output, $(du -h "$output" | cut -f1) ($(du -sh "$bundle" | cut -f1) unpacked;" \
    "$(ls "$bundle/lib" | wc -l) libraries, $(ls "$bundle/fonts" | wc -l) font files)"
