#!/usr/bin/env bash
# Validates every shader of Shaders/ offline with glslangValidator (Debian's glslang-tools), in every variant the
# renderer compiles (texture.frag with BILINEAR, with TRILINEAR and with NEAREST (quad.vert too), each with and without SPANS;
# solid.frag with and without SPANS; the shape variants (SPANS SHAPES, with and without CONTINUOUS); blur.frag with and without DOWNSAMPLE; blend.frag per blend mode), so a GLSL error fails CI
# even on a machine whose driver would accept it.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The shaders as the renderer gets them: `#include "NAME.glsl"` lines replaced by Shaders/NAME.glsl, as
# tools/generate-shaders.py embeds them.
python3 - "$work" <<'PY'
import pathlib, sys
work = pathlib.Path(sys.argv[1])
for path in sorted(pathlib.Path("Shaders").iterdir()):
    if path.suffix not in (".vert", ".frag"):
        continue
    out = []
    for line in path.read_text().split("\n"):
        if line.startswith('#include "') and line.endswith('"'):
            out.append((path.parent / line[len('#include "'):-1]).read_text().rstrip("\n"))
        else:
            out.append(line)
    (work / path.name).write_text("\n".join(out))
PY
check() { glslangValidator "$1" >/dev/null || { glslangValidator "$1"; exit 1; }; }
for shader in "$work"/*.vert "$work"/*.frag; do check "$shader"; done
# Variants: the #defines go right after the #version line, as GLESProgram inserts them.
variant() {
    local source=$1 name=$2
    shift 2
    local defines=""
    for define in "$@"; do defines="$defines#define $define 1\n"; done
    sed "1a $defines" "$work/$source" > "$work/variant-$name"
    check "$work/variant-$name"
}
variant texture.frag bilinear.frag BILINEAR
variant texture.frag trilinear.frag TRILINEAR
variant texture.frag nearest.frag NEAREST
variant quad.vert quad-nearest.vert NEAREST
variant texture.frag spans.frag NEAREST SPANS
variant texture.frag bilinear-spans.frag BILINEAR SPANS
variant texture.frag trilinear-spans.frag TRILINEAR SPANS
variant solid.frag solid-spans.frag SPANS
# The shape programs (GLESProgram.Kind.*Shape, *Continuous): quad.vert reads the shape table with SHAPES.
variant quad.vert quad-shapes.vert SPANS SHAPES
variant quad.vert quad-nearest-shapes.vert NEAREST SPANS SHAPES
for extra in "" CONTINUOUS; do
    variant solid.frag "solid-shapes$extra.frag" SPANS SHAPES $extra
    variant texture.frag "shapes$extra.frag" NEAREST SPANS SHAPES $extra
    variant texture.frag "bilinear-shapes$extra.frag" BILINEAR SPANS SHAPES $extra
    variant texture.frag "trilinear-shapes$extra.frag" TRILINEAR SPANS SHAPES $extra
done
variant blur.frag downsample.frag DOWNSAMPLE
# blend.frag once per blend mode, as GLESRenderer+Blend.swift compiles it (glslang does not know
# GL_EXT_shader_framebuffer_fetch, so the FRAMEBUFFER_FETCH variants are checked by the driver, in the tests).
for mode in multiply screen overlay darken lighten colorDodge colorBurn softLight hardLight difference exclusion hue saturation color luminosity sourceAtop sourceIn sourceOut destinationOver destinationIn destinationOut destinationAtop xor plusLighter plusDarker; do
    variant blend.frag "blend-$mode.frag" "MODE_$mode"
done
