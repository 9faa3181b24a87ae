#!/usr/bin/env bash
# Validates every shader of Shaders/ offline with glslangValidator (Debian's glslang-tools), in every variant the
# renderer compiles (texture.frag with BILINEAR, with TRILINEAR, with NEAREST (quad.vert too) and NEAREST COPY, each with and without SPANS;
# solid.frag with and without SPANS; the shape variants (SHAPES with no feature, each of SPANS, CONTINUOUS, HOLES, PROJECTIVE and JACOBIAN, and all five); blur.frag with and without DOWNSAMPLE; blend.frag per blend mode), so a GLSL error fails CI
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
variant texture.frag copy.frag NEAREST COPY
variant texture.frag copy-spans.frag NEAREST COPY SPANS
variant quad.vert quad-nearest.vert NEAREST
variant texture.frag spans.frag NEAREST SPANS
variant texture.frag bilinear-spans.frag BILINEAR SPANS
variant texture.frag trilinear-spans.frag TRILINEAR SPANS
variant solid.frag solid-spans.frag SPANS
# PIXEL_MAP (GLESRenderer.Options.evaluatesTextureMapsPerPixel, on for GPUs): the filtered programs take the map flat.
variant quad.vert quad-pixel-map.vert BILINEAR PIXEL_MAP
variant texture.frag bilinear-pixel-map.frag BILINEAR PIXEL_MAP
variant texture.frag trilinear-pixel-map.frag TRILINEAR PIXEL_MAP
variant texture.frag bilinear-spans-pixel-map.frag BILINEAR SPANS PIXEL_MAP
variant quad.vert quad-shapes-pixel-map.vert TRILINEAR SPANS SHAPES PIXEL_MAP PROJECTIVE
# The shape programs (GLESProgram.Kind.shape): quad.vert reads the shape table with SHAPES; the fragment shaders
# compile the parts of the formula a batch needs (GLESProgram.ShapeFeatures), each an #ifdef of its own, so every
# feature alone, none and all of them are checked.
variant quad.vert quad-shapes.vert SPANS SHAPES
variant quad.vert quad-nearest-shapes.vert NEAREST SPANS SHAPES
variant quad.vert quad-shapes-only.vert SHAPES
variant quad.vert quad-shapes-all.vert NEAREST SPANS SHAPES CONTINUOUS HOLES PROJECTIVE JACOBIAN
for extra in "" SPANS CONTINUOUS HOLES PROJECTIVE JACOBIAN "SPANS CONTINUOUS HOLES PROJECTIVE JACOBIAN"; do
    name=${extra// /-}
    variant solid.frag "solid-shapes-$name.frag" SHAPES $extra
    variant texture.frag "shapes-$name.frag" NEAREST SHAPES $extra
    variant texture.frag "copy-shapes-$name.frag" NEAREST COPY SHAPES $extra
    variant texture.frag "bilinear-shapes-$name.frag" BILINEAR SHAPES $extra
    variant texture.frag "trilinear-shapes-$name.frag" TRILINEAR SHAPES $extra
    variant texture.frag "bilinear-shapes-pixel-map-$name.frag" BILINEAR SHAPES PIXEL_MAP $extra
done
variant blur.frag downsample.frag DOWNSAMPLE
# blend.frag once per blend mode, as GLESRenderer+Blend.swift compiles it (glslang does not know
# GL_EXT_shader_framebuffer_fetch, so the FRAMEBUFFER_FETCH variants are checked by the driver, in the tests).
for mode in multiply screen overlay darken lighten colorDodge colorBurn softLight hardLight difference exclusion hue saturation color luminosity sourceAtop sourceIn sourceOut destinationOver destinationIn destinationOut destinationAtop xor plusLighter plusDarker; do
    variant blend.frag "blend-$mode.frag" "MODE_$mode"
done
