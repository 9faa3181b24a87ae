#!/usr/bin/env bash
# Validates every shader of Shaders/ offline with glslangValidator (Debian's glslang-tools), in every variant the
# renderer compiles (texture.frag with BILINEAR, with TRILINEAR and with neither; blur.frag with and without DOWNSAMPLE), so a GLSL error fails CI even on a machine whose
# driver would accept it.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for shader in Shaders/*.vert Shaders/*.frag; do
    glslangValidator "$shader" >/dev/null || { glslangValidator "$shader"; exit 1; }
done
# Variants: the #define goes right after the #version line, as GLESProgram inserts it.
sed '1a #define BILINEAR 1' Shaders/texture.frag > "$work/texture-bilinear.frag"
glslangValidator "$work/texture-bilinear.frag" >/dev/null || { glslangValidator "$work/texture-bilinear.frag"; exit 1; }
sed '1a #define TRILINEAR 1' Shaders/texture.frag > "$work/texture-trilinear.frag"
glslangValidator "$work/texture-trilinear.frag" >/dev/null || { glslangValidator "$work/texture-trilinear.frag"; exit 1; }
sed '1a #define DOWNSAMPLE 1' Shaders/blur.frag > "$work/blur-downsample.frag"
glslangValidator "$work/blur-downsample.frag" >/dev/null || { glslangValidator "$work/blur-downsample.frag"; exit 1; }
