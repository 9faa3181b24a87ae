#!/usr/bin/env python3
"""Parity of two PNG renders as ImageDifference.meetsParity measures it (docs/semantics.md, "Parity"): on the
premultiplied channels the renderers write, at most 2 per channel on 99.9% of the pixels and at most 8 on every
pixel. A PNG holds straight RGBA, so each pixel is premultiplied again (c * a / 255, rounded), which gives back
the renderer's values. `lamina diff` compares straight RGBA, where a one-step difference at alpha 2 reads as 85.

    tools/parity.py CPU.png GLES.png    # prints "max M, N of P pixels over 2"; exit 0 within parity, 1 outside

Needs Pillow and NumPy.
"""
import sys

import numpy
from PIL import Image


def premultiplied(path):
    rgba = numpy.asarray(Image.open(path).convert("RGBA"), dtype=numpy.int32)
    alpha = rgba[..., 3:4]
    colour = (rgba[..., :3] * alpha + 127) // 255
    return numpy.concatenate([colour, alpha], axis=-1)


def main():
    a, b = premultiplied(sys.argv[1]), premultiplied(sys.argv[2])
    if a.shape != b.shape:
        print("sizes differ: %s vs %s" % (a.shape[:2], b.shape[:2]))
        sys.exit(1)
    difference = numpy.abs(a - b).max(axis=-1)
    worst, over, total = int(difference.max()), int((difference > 2).sum()), difference.size
    print("max %d, %d of %d pixels over 2" % (worst, over, total))
    sys.exit(0 if worst <= 8 and over * 1000 <= total else 1)


if __name__ == "__main__":
    main()
