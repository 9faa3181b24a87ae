#!/usr/bin/env python3
"""Writes the two scene files of docs/benchmarks.md, "Turned quads with antialiased edges": 1,000 sprites of 64 x 64
points at random places and turns on a 1920 x 1080 output, every other one the reference scenes' quad60x40.png and
the others a solid colour; turned-aa-1k.json with allowsEdgeAntialiasing on every sprite, turned-sharp-1k.json
without it. Usage: tools/turned-sprite-scenes.py OUTDIR, then
.build/debug/lamina bench --backend gles --scene OUTDIR/turned-aa-1k.json --scene OUTDIR/turned-sharp-1k.json"""
import json
import os
import random
import shutil
import sys

out = sys.argv[1] if len(sys.argv) > 1 else "."
os.makedirs(out, exist_ok=True)
here = os.path.dirname(os.path.abspath(__file__))
shutil.copy(os.path.join(here, "..", "Tests", "LaminaRenderTests", "Scenes", "gravity", "quad60x40.png"), out)
for smooth in (True, False):
    r = random.Random(7)
    layers = []
    for i in range(1000):
        x, y = r.randrange(0, 1920 - 64), r.randrange(0, 1080 - 64)
        layer = {"frame": [x, y, 64, 64], "transform": [{"rotate": r.uniform(-180, 180)}]}
        if i % 2 == 0:
            layer["contents"] = "quad60x40.png"
        else:
            layer["backgroundColor"] = "#%02X%02X%02XFF" % (r.randrange(256), r.randrange(256), r.randrange(256))
        if smooth:
            layer["allowsEdgeAntialiasing"] = True
        layers.append(layer)
    name = "turned-%s-1k.json" % ("aa" if smooth else "sharp")
    with open(os.path.join(out, name), "w") as f:
        json.dump({"size": [1920, 1080], "backgroundColor": "#202830", "layers": layers}, f)
