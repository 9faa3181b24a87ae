#!/bin/bash
# Builds a QEMU guest that has DRM/KMS and fbdev (bochs-drm), for the kiosk tests (docs/kiosk.md, "DRM/KMS and fbdev in a virtual machine"):
#   tools/vm/build-guest.sh LAMINA_BINARY [OUT_DIR]
# OUT_DIR (default .build/vm/guest) gets:
#   vmlinuz       Debian's newest linux-image-6.1.0-*-amd64 kernel
#   base.cpio.zst busybox, the DRM modules, Mesa's EGL/GBM/kms_swrast with their libraries, /init
#   lamina.cpio.zst the lamina binary (debug info stripped) with its ldd closure
#   initrd.img    the two concatenated (the kernel unpacks concatenated archives in order)
# The kernel package and the base archive are cached under .build/vm (ignored by git), so only the lamina layer
# is rebuilt when the binary changes. The guest's /init runs /test/run.sh when the harness adds one (a third
# archive, see run-kiosk-test.py) and powers off.
set -euo pipefail
# modinfo lives in /sbin, which is not on a plain user's PATH on Debian.
export PATH="$PATH:/usr/sbin:/sbin"

lamina=$(realpath "${1:?usage: build-guest.sh LAMINA_BINARY [OUT_DIR]}")
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${2:-$root/.build/vm/guest}
cache=$root/.build/vm
mkdir -p "$out" "$cache/kernel"
[ -x "$lamina" ] || { echo "build-guest: $lamina is not an executable" >&2; exit 1; }
for tool in busybox cpio zstd dpkg-deb apt-get modinfo ldd; do
    command -v "$tool" >/dev/null || { echo "build-guest: $tool is missing (tools/setup.sh installs it)" >&2; exit 1; }
done

# The kernel: the newest 6.1 package apt knows, downloaded once.
if ! ls "$cache"/kernel/linux-image-*.deb >/dev/null 2>&1; then
    find_kernel() {
        apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64$' | cut -d' ' -f1 | sort -V | tail -1
    }
    package=$(find_kernel)
    if [ -z "$package" ] && [ "$(id -u)" = 0 ]; then
        # A machine whose package lists were cleared (container images often are): read them once.
        apt-get update -qq >/dev/null 2>&1 || true
        package=$(find_kernel)
    fi
    [ -n "$package" ] || { echo "build-guest: apt knows no linux-image-6.1.0-*-amd64 (run apt-get update)" >&2; exit 1; }
    (cd "$cache/kernel" && apt-get download "$package" 2>&1 | grep -v '^W: Download is performed unsandboxed' || true)
fi
deb=$(ls "$cache"/kernel/linux-image-*.deb | sort -V | tail -1)
kroot=$cache/kernel/root
if [ ! -d "$kroot/boot" ] || [ "$deb" -nt "$kroot/boot" ]; then
    rm -rf "$kroot"
    dpkg-deb -x "$deb" "$kroot"
    touch "$kroot/boot"
fi
cp "$kroot"/boot/vmlinuz-* "$out/vmlinuz"

# Copies files into a staging root at the same paths, with the shared libraries ldd lists for each.
copy_with_libraries() {
    local stage=$1; shift
    local file lib
    for file in "$@"; do
        mkdir -p "$stage$(dirname "$file")"
        cp -L "$file" "$stage$file"
        for lib in $(ldd "$file" 2>/dev/null | grep -o '/[^ ]*' | sort -u); do
            [ -e "$stage$lib" ] && continue
            mkdir -p "$stage$(dirname "$lib")"
            cp -L "$lib" "$stage$lib"
        done
    done
}

# The base archive: rebuilt when this script or the kernel changes.
base=$cache/base.cpio.zst
if [ ! -s "$base" ] || [ "$0" -nt "$base" ] || [ "$deb" -nt "$base" ] \
        || [ "$root/tools/vm/guest-init.sh" -nt "$base" ]; then
    stage=$(mktemp -d "$cache/base-stage.XXXXXX")
    trap 'rm -rf "$stage"' EXIT
    mkdir -p "$stage"/{bin,dev,proc,sys,tmp,run,etc,lib/modules,test}
    cp "$(command -v busybox)" "$stage/bin/busybox"
    # ldd fails on a static executable, which the guest needs (it has no libc of its own for busybox).
    if ldd "$stage/bin/busybox" >/dev/null 2>&1; then
        echo "build-guest: busybox is not static (install busybox-static)" >&2
        exit 1
    fi

    # The modules and the ones they need, loaded in dependency order (modinfo's depends field; no modules.dep in
    # the package). Compressed modules are unpacked here, the guest's busybox insmod takes plain .ko files.
    modules_dir=$(ls -d "$kroot"/lib/modules/*)
    declare -A loaded=()
    order=()
    add_module() {
        local name=$1 path dep
        [ -n "${loaded[$name]:-}" ] && return
        path=$(find "$modules_dir" -name "$name.ko" -o -name "$name.ko.xz" -o -name "$name.ko.zst" | head -1)
        [ -n "$path" ] || { echo "build-guest: module $name not in $modules_dir" >&2; exit 1; }
        for dep in $(modinfo -F depends "$path" | tr ',' ' '); do add_module "$dep"; done
        loaded[$name]=1
        case $path in
            *.xz) xz -dc "$path" > "$stage/lib/modules/$name.ko" ;;
            *.zst) zstd -qdc "$path" > "$stage/lib/modules/$name.ko" ;;
            *) cp "$path" "$stage/lib/modules/$name.ko" ;;
        esac
        order+=("$name")
    }
    for module in drm drm_kms_helper ttm drm_ttm_helper drm_vram_helper bochs; do add_module "$module"; done
    printf '%s\n' "${order[@]}" > "$stage/etc/modules.order"

    # Mesa: glvnd's libEGL with Mesa's vendor library, GBM, and the one megadriver file under the names Mesa looks
    # for on bochs-drm (kms_swrast) and surfaceless (swrast); its ldd closure brings LLVM for llvmpipe.
    libdir=/usr/lib/x86_64-linux-gnu
    copy_with_libraries "$stage" "$libdir"/libEGL.so.1 "$libdir"/libEGL_mesa.so.0 "$libdir"/libgbm.so.1 \
        "$libdir"/libGLESv2.so.2 "$libdir"/libglapi.so.0 "$libdir"/dri/kms_swrast_dri.so
    ln -f "$stage$libdir/dri/kms_swrast_dri.so" "$stage$libdir/dri/swrast_dri.so"
    mkdir -p "$stage/usr/share/glvnd/egl_vendor.d"
    cp /usr/share/glvnd/egl_vendor.d/50_mesa.json "$stage/usr/share/glvnd/egl_vendor.d/"
    # Text layers need fontconfig and a font; a kiosk scene without text does not, but the CLI may ask.
    if [ -d /etc/fonts ]; then cp -r /etc/fonts "$stage/etc/"; fi
    for font in /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf; do
        [ -f "$font" ] && { mkdir -p "$stage$(dirname "$font")"; cp "$font" "$stage$font"; }
    done

    cp "$root/tools/vm/guest-init.sh" "$stage/init"
    chmod +x "$stage/init"
    (cd "$stage" && find . -print0 | cpio --null -o -H newc --quiet | zstd -q -T0 -3 > "$base.tmp")
    mv "$base.tmp" "$base"
    rm -rf "$stage"
    trap - EXIT
fi

# The lamina layer: the binary without debug info (a debug build is mostly DWARF) and its libraries.
stage=$(mktemp -d "$cache/lamina-stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin"
copy_with_libraries "$stage" "$lamina"
mv "$stage$lamina" "$stage/bin/lamina"
strip --strip-debug "$stage/bin/lamina" 2>/dev/null || true
(cd "$stage" && find . -print0 | cpio --null -o -H newc --quiet | zstd -q -T0 -1 > "$out/lamina.cpio.zst")
cat "$base" "$out/lamina.cpio.zst" > "$out/initrd.img"
echo "build-guest: $out/vmlinuz, $out/initrd.img ($(du -m "$out/initrd.img" | cut -f1) MB)"
