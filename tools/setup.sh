#!/usr/bin/env bash
# Installs the Debian packages Lamina builds and runs against, if any is missing.
# Idempotent and quiet: prints nothing when everything is already there.
set -euo pipefail

packages=(
    pkg-config
    libpng-dev           # CPNG
    libturbojpeg0-dev    # CJPEG (libjpeg-turbo's TurboJPEG API)
    zlib1g-dev           # CZlib: inflating zip (dotLottie) archives
    libpixman-1-dev      # CPixman: the CPU renderer
    libcairo2-dev        # CCairo: custom drawing
    libpango1.0-dev      # CPango: text layers and drawn text (Pango, HarfBuzz shaping, fontconfig)
    libegl-dev libgles-dev libgbm-dev  # CEGL, CGBM: the GLES side
    libdrm-dev           # CDRM: DRM/KMS and fbdev outputs
    libx11-dev libxext-dev libxpresent-dev  # CX11: the X11 output (Xlib, MIT-SHM, Present for the pacing)
    libwayland-dev       # CWayland: the Wayland output (wayland-client, wayland-egl)
    duktape-dev          # CDuktape: Lottie expressions (the amalgamation in /usr/share/duktape is compiled, docs/expressions.md)
    wayland-protocols libwayland-bin  # xdg-shell.xml and wayland-scanner, for tools/generate-wayland.sh
    weston xvfb xdotool  # the Wayland output's tests: weston's kiosk shell on its X11 backend, on Xvfb
    sway grim            # the Wayland resize and close tests: sway's headless backend driven with swaymsg, grim's captures
    libegl-mesa0 libgl1-mesa-dri       # Mesa's EGL driver and llvmpipe, for GLES without a GPU
    fonts-dejavu-core fonts-dejavu-extra  # text in the demo; the text tests name DejaVu Sans/Serif (Latin, Hebrew, Arabic)
    fonts-wqy-microhei   # a CJK font: fontconfig's fallback for CJK text, and the text tests' reference
    fonts-lohit-deva     # a Devanagari font: complex-script fallback in the text tests
    glslang-tools        # offline shader validation in CI
    qemu-system-x86 busybox-static zstd cpio kmod python3  # the kiosk VM test (tools/vm, docs/kiosk.md, "DRM/KMS and fbdev in a virtual machine")
    slurm-wlm munge python3-venv  # the scheduler tests: a one-node Slurm cluster (tools/slurm-cluster.sh), Dask's venv (docs/scale.md, "Tools and CI")
)

missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done
# Where the scheduler tests are required (CI), their Python tools too: made once from PyPI, reused after.
scheduler_venv() {
    [ "${LAMINA_REQUIRE_SCHEDULERS:-}" = 1 ] || return 0
    "$(dirname "$0")/scheduler-venv.sh" >/dev/null
}
((${#missing[@]} == 0)) && { scheduler_venv; exit 0; }

echo "lamina: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || { echo "lamina: run as root or install sudo to install: ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >/dev/null
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
scheduler_venv
