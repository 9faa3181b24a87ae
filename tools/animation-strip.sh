#!/usr/bin/env bash
# Renders the README's strip of frames: examples/animation.json exported at 3 frames a second (lamina export), the
# frames then laid side by side by a scene of their own (lamina render), into docs/animation-strip.png.
set -euo pipefail
cd "$(dirname "$0")/.."
lamina=${LAMINA:-.build/release/lamina}
[ -x "$lamina" ] || swift build -c release --product lamina
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$lamina" export examples/animation.json -o "$work/f-%02d.png" --fps 3 --duration 2 --no-sidecar
frames=$(ls "$work"/f-*.png | wc -l)
python3 - "$work" "$frames" > "$work/strip.json" <<'PY'
import json, sys
work, count = sys.argv[1], int(sys.argv[2])
w, h, gap = 240, 120, 8
images = {f"f{i}": f"f-{i:02d}.png" for i in range(count)}
layers = [{"frame": [gap + i * (w + gap), gap, w, h], "contents": f"f{i}", "cornerRadius": 4,
           "masksToBounds": True} for i in range(count)]
print(json.dumps({"size": [gap + count * (w + gap), h + 2 * gap], "backgroundColor": "#FFFFFF",
                  "images": images, "layers": layers}))
PY
"$lamina" render "$work/strip.json" -o docs/animation-strip.png
