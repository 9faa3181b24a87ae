#!/usr/bin/env python3
"""Writes the five Lottie benchmark samples (512 x 512, 60 fps) to examples/lottie/ (or --out DIR).

    python3 tools/lottie-samples.py            # rewrites examples/lottie/{spinner,gradients,precomps,crowd,morph}.json
    python3 tools/lottie-samples.py --check    # exit 1 when a committed file differs from what it would write

Deterministic: no clock, no random module (a SplitMix64 of its own), numbers rounded to 3 decimals, keys in a fixed
order. Each sample stresses one kind of work (docs/benchmarks.md, "Lottie"):
- spinner:   strokes with trim paths (parallel and sequential), round caps, rotation (2 s)
- gradients: linear and radial gradient fills with a highlight and opacity stops, layer masks add + subtract (3 s)
- precomps:  nested precomps with time stretch and start times, track mattes (alpha, luma), parenting (4 s)
- crowd:     150 small shape layers (ellipses, rects, stars, polygons) on spatial-bezier paths, eased keys (3 s)
- morph:     path keyframes (shape morphs), a repeater, rounded corners, animated dashes (3 s)
"""

import argparse
import json
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIZE = 512
FR = 60
KAPPA = 0.5522847498


# ---------------------------------------------------------------------------------------------------------------
# helpers


class SplitMix64:
    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFFFFFFFFFF

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return z ^ (z >> 31)

    def uniform(self, lo, hi):
        return lo + (hi - lo) * (self.next() >> 11) / float(1 << 53)

    def choice(self, seq):
        return seq[self.next() % len(seq)]


def rnd(x):
    if isinstance(x, float):
        r = round(x, 3)
        return 0 if r == 0 else (int(r) if r == int(r) else r)
    if isinstance(x, list):
        return [rnd(v) for v in x]
    if isinstance(x, dict):
        return {k: rnd(v) for k, v in x.items()}
    return x


def static(v):
    return {"a": 0, "k": v}


EASE_OUT = {"x": [0.33], "y": [0]}      # the "o" handle of an ease in-out keyframe
EASE_IN = {"x": [0.67], "y": [1]}       # the "i" handle
LINEAR_O = {"x": [0], "y": [0]}
LINEAR_I = {"x": [1], "y": [1]}


def anim(keys, ease=True, hold_last=True):
    """keys: [(frame, value)]; values are scalars or lists (scalars are wrapped). Eased in-out unless ease=False."""
    out = []
    for n, (t, v) in enumerate(keys):
        k = {"t": t, "s": v if isinstance(v, list) else [v]}
        if n < len(keys) - 1:
            k["o"] = dict(EASE_OUT if ease else LINEAR_O)
            k["i"] = dict(EASE_IN if ease else LINEAR_I)
        out.append(k)
    return {"a": 1, "k": out}


def transform(p=(0, 0), a=(0, 0), s=(100, 100), r=0, o=100, layer=True):
    def val(v, wrap):
        if isinstance(v, dict):
            return v
        return static(list(v) if wrap else v)

    t = {"a": val(a, True), "p": val(p, True), "s": val(s, True), "r": val(r, False), "o": val(o, False)}
    if not layer:
        t = {"ty": "tr", **t, "sk": static(0), "sa": static(0)}
    return t


def layer(ind, ty, nm, op, ks, **extra):
    base = {"ddd": 0, "ind": ind, "ty": ty, "nm": nm, "sr": 1, "ks": ks, "ao": 0, "ip": 0, "op": op, "st": 0,
            "bm": 0}
    base.update(extra)
    return base


def shape_layer(ind, nm, op, ks, shapes, **extra):
    return layer(ind, 4, nm, op, ks, shapes=shapes, **extra)


def group(nm, items, tr=None):
    return {"ty": "gr", "nm": nm, "it": items + [tr or transform(layer=False)]}


def ellipse(p, s):
    return {"ty": "el", "nm": "ellipse", "d": 1, "p": p if isinstance(p, dict) else static(list(p)),
            "s": s if isinstance(s, dict) else static(list(s))}


def rect(p, s, r=0):
    return {"ty": "rc", "nm": "rect", "d": 1, "p": p if isinstance(p, dict) else static(list(p)),
            "s": s if isinstance(s, dict) else static(list(s)), "r": r if isinstance(r, dict) else static(r)}


def star(p, outer, inner, points, rot=0, polygon=False, outer_round=0, inner_round=0):
    d = {"ty": "sr", "nm": "polygon" if polygon else "star", "d": 1, "sy": 2 if polygon else 1,
         "p": static(list(p)), "or": static(outer), "os": static(outer_round), "pt": static(points),
         "r": rot if isinstance(rot, dict) else static(rot)}
    if not polygon:
        d["ir"] = static(inner)
        d["is"] = static(inner_round)
    return d


def path(shape):
    return {"ty": "sh", "nm": "path", "d": 1, "ks": shape if "a" in shape else static(shape)}


def fill(rgb, o=100, rule=1):
    return {"ty": "fl", "nm": "fill", "c": static(list(rgb) + [1]), "o": o if isinstance(o, dict) else static(o),
            "r": rule}


def stroke(rgb, w, o=100, cap=2, join=2, dashes=None):
    d = {"ty": "st", "nm": "stroke", "c": static(list(rgb) + [1]), "o": static(o),
         "w": w if isinstance(w, dict) else static(w), "lc": cap, "lj": join, "ml": 4}
    if dashes:
        d["d"] = dashes
    return d


def trim(s, e, o=0, mode=1):
    def val(v):
        return v if isinstance(v, dict) else static(v)
    return {"ty": "tm", "nm": "trim", "s": val(s), "e": val(e), "o": val(o), "m": mode}


def gradient_stops(colours, alphas=None):
    """colours: [(offset, r, g, b)], alphas: [(offset, a)] -> the Lottie 'g' object."""
    k = []
    for c in colours:
        k.extend(c)
    for a in alphas or []:
        k.extend(a)
    return {"p": len(colours), "k": static(k)}


def circle_path(cx, cy, r, n=4):
    """A closed circle of n cubic segments (n vertices)."""
    v, i, o = [], [], []
    h = 4.0 / 3.0 * math.tan(math.pi / (2 * n)) * r
    for k in range(n):
        a = -math.pi / 2 + 2 * math.pi * k / n
        x, y = cx + r * math.cos(a), cy + r * math.sin(a)
        tx, ty = -math.sin(a), math.cos(a)
        v.append([x, y])
        o.append([tx * h, ty * h])
        i.append([-tx * h, -ty * h])
    return {"c": True, "v": v, "i": i, "o": o}


def polygon_path(points, smooth=0.0):
    """A closed path through points; smooth > 0 gives Catmull-Rom-like tangents of that share."""
    n = len(points)
    v, i, o = [], [], []
    for k in range(n):
        p0, p1, p2 = points[k - 1], points[k], points[(k + 1) % n]
        tx, ty = (p2[0] - p0[0]) * smooth / 2, (p2[1] - p0[1]) * smooth / 2
        v.append(list(p1))
        o.append([tx, ty])
        i.append([-tx, -ty])
    return {"c": True, "v": v, "i": i, "o": o}


def comp(nm, op, layers, assets=None, markers=None):
    d = {"v": "5.7.4", "fr": FR, "ip": 0, "op": op, "w": SIZE, "h": SIZE, "nm": nm, "ddd": 0,
         "assets": assets or [], "layers": layers}
    if markers is not None:
        d["markers"] = markers
    return d


# ---------------------------------------------------------------------------------------------------------------
# (a) spinner


def spinner():
    op = 120
    c = SIZE / 2
    rings = []
    colours = [(0.95, 0.33, 0.27), (0.98, 0.74, 0.18), (0.2, 0.66, 0.92)]
    for n, (radius, width) in enumerate([(190, 26), (145, 20), (100, 14)]):
        lag = n * 8
        tr = trim(anim([(0 + lag, 0), (60 + lag, 70), (op, 100)]),
                  anim([(0, 10), (50 + lag, 100), (op, 100)]),
                  anim([(0, 0), (op, 360 * (1 + n))], ease=False), mode=1)
        rings.append(group(f"ring {n}", [ellipse((0, 0), (2 * radius, 2 * radius)),
                                          stroke(colours[n], width, cap=2), tr]))
    arcs = shape_layer(1, "arcs", op, transform(p=(c, c), r=anim([(0, 0), (op, 360)], ease=False)), rings)
    # twelve ticks: open two-point paths stroked with round caps, one sequential trim over all of them
    ticks = []
    for k in range(12):
        a = 2 * math.pi * k / 12
        x0, y0 = 40 * math.cos(a), 40 * math.sin(a)
        x1, y1 = 70 * math.cos(a), 70 * math.sin(a)
        ticks.append(path({"c": False, "v": [[x0, y0], [x1, y1]], "i": [[0, 0], [0, 0]], "o": [[0, 0], [0, 0]]}))
    tick_group = group("ticks", ticks + [stroke((0.9, 0.9, 0.95), 9, cap=2),
                                         trim(0, anim([(0, 0), (op // 2, 100), (op, 0)]), 0, mode=2)])
    centre = shape_layer(2, "ticks", op, transform(p=(c, c), r=anim([(0, 0), (op, -180)])), [tick_group])
    bg = shape_layer(3, "backdrop", op, transform(), [group("bg", [rect((c, c), (SIZE, SIZE)),
                                                                   fill((0.1, 0.11, 0.16))])])
    return comp("spinner", op, [arcs, centre, bg])


# ---------------------------------------------------------------------------------------------------------------
# (b) gradients


def gradients():
    op = 180
    c = SIZE / 2
    sky = {"ty": "gf", "nm": "linear", "o": static(100), "r": 1, "t": 1,
           "s": anim([(0, [0, 0]), (op // 2, [SIZE, 0]), (op, [0, 0])]),
           "e": anim([(0, [SIZE, SIZE]), (op // 2, [0, SIZE]), (op, [SIZE, SIZE])]),
           "g": gradient_stops([(0, 0.13, 0.09, 0.35), (0.5, 0.85, 0.29, 0.47), (1, 0.99, 0.75, 0.33)])}
    bg = shape_layer(4, "sky", op, transform(), [group("sky", [rect((c, c), (SIZE, SIZE)), sky])])
    # a radial orb with a moving highlight and transparent rim (opacity stops). Every opacity stop has a colour
    # stop at its offset and the other way round: rlottie takes the opacity only at the colour stops' offsets, so
    # with stops elsewhere it draws another picture than ThorVG and lottie-web
    orb_fill = {"ty": "gf", "nm": "radial", "o": static(100), "r": 1, "t": 2,
                "s": static([0, 0]), "e": static([150, 0]),
                "h": anim([(0, 0), (op // 2, 60), (op, 0)]), "a": anim([(0, 0), (op, 360)], ease=False),
                "g": gradient_stops([(0, 1, 1, 1), (0.35, 0.4, 0.85, 1), (0.7, 0.16, 0.44, 0.75),
                                     (1, 0.05, 0.2, 0.6)],
                                    [(0, 1), (0.35, 1), (0.7, 1), (1, 0)])}
    orb = shape_layer(3, "orb", op, transform(p=anim([(0, [170, 200]), (op // 2, [340, 300]), (op, [170, 200])])),
                      [group("orb", [ellipse((0, 0), (300, 300)), orb_fill])])
    # a panel with a linear gradient seen through two masks: add a rounded rectangle, subtract a moving circle
    panel_fill = {"ty": "gf", "nm": "panel", "o": static(90), "r": 1, "t": 1,
                  "s": static([56, 0]), "e": static([456, 0]),
                  "g": gradient_stops([(0, 0.1, 0.9, 0.6), (0.5, 0.1, 0.65, 0.75), (1, 0.1, 0.4, 0.9)],
                                      [(0, 0.3), (0.5, 1), (1, 0.3)])}
    rr = rounded_rect_path(56, 276, 456, 476, 36)
    hole = anim([(0, circle_path(120, 376, 60)), (op // 2, circle_path(392, 376, 80)), (op, circle_path(120, 376, 60))])
    masks = [{"inv": False, "mode": "a", "pt": static(rr), "o": static(100), "x": static(0), "nm": "panel"},
             {"inv": False, "mode": "s", "pt": hole, "o": static(100), "x": static(0), "nm": "hole"}]
    panel = shape_layer(2, "panel", op, transform(), [group("panel", [rect((c, c), (SIZE, SIZE)),
                                                                             panel_fill])],
                        hasMask=True, masksProperties=masks)
    # a ring of radial gradient discs fading in and out (layer opacity); one colour whose opacity falls to 0:
    # rlottie and ThorVG blend colour and opacity differently between stops that change both
    discs = []
    for k in range(6):
        a = 2 * math.pi * k / 6
        g = {"ty": "gf", "nm": "disc", "o": static(100), "r": 1, "t": 2, "s": static([0, 0]),
             "e": static([40, 0]), "h": static(0), "a": static(0),
             "g": gradient_stops([(0, 1, 0.9, 0.55), (1, 1, 0.9, 0.55)], [(0, 1), (1, 0)])}
        discs.append(group(f"disc {k}", [ellipse((0, 0), (80, 80)), g],
                           transform(p=(110 * math.cos(a), 110 * math.sin(a)), layer=False)))
    ring = shape_layer(1, "discs", op, transform(p=(c, 150), r=anim([(0, 0), (op, 120)]),
                                                 o=anim([(0, 20), (op // 2, 100), (op, 20)])), discs)
    return comp("gradients", op, [ring, panel, orb, bg])


def rounded_rect_path(x0, y0, x1, y1, r):
    k = r * KAPPA
    v = [[x0 + r, y0], [x1 - r, y0], [x1, y0 + r], [x1, y1 - r], [x1 - r, y1], [x0 + r, y1], [x0, y1 - r],
         [x0, y0 + r]]
    i = [[-k, 0], [0, 0], [0, -k], [0, 0], [k, 0], [0, 0], [0, k], [0, 0]]
    o = [[0, 0], [k, 0], [0, 0], [0, k], [0, 0], [-k, 0], [0, 0], [0, -k]]
    return {"c": True, "v": v, "i": i, "o": o}


# ---------------------------------------------------------------------------------------------------------------
# (c) precomps


def precomps():
    op = 240
    # innermost: a 200 x 200 badge, a turning square and a pulsing dot (60 frames, looped by its users' stretch)
    badge_layers = [
        shape_layer(1, "dot", 120, transform(p=(100, 100), s=anim([(0, [60, 60]), (30, [110, 110]), (60, [60, 60]),
                                                                   (90, [110, 110]), (120, [60, 60])])),
                    [group("dot", [ellipse((0, 0), (70, 70)), fill((1, 0.85, 0.3))])]),
        shape_layer(2, "square", 120, transform(p=(100, 100), r=anim([(0, 0), (120, 180)])),
                    [group("sq", [rect((0, 0), (150, 150), 18), fill((0.25, 0.3, 0.75)),
                                  stroke((1, 1, 1), 6)])]),
    ]
    # middle: four badges with different time stretch and start times, parented to a turning null
    mid_layers = [layer(1, 3, "hub", op, transform(p=(256, 256), a=(0, 0),
                                                   r=anim([(0, 0), (op, 90)])))]
    for k, (sr, st) in enumerate([(0.5, 0), (1, 15), (2, -30), (1.5, 40)]):
        a = math.pi / 4 + k * math.pi / 2
        mid_layers.append(layer(2 + k, 0, f"badge {k}", op,
                                transform(p=(120 * math.cos(a), 120 * math.sin(a)), a=(100, 100),
                                          s=(70, 70)),
                                refId="badge", w=200, h=200, sr=sr, st=st, parent=1))
    # root: the middle precomp stretched, an alpha matte over a striped band, a luma matte over a solid
    stripes = [group(f"stripe {k}", [rect((-256 + 32 * k + 16, 0), (16, 512)),
                                     fill((0.95, 0.35 + 0.02 * k, 0.3))]) for k in range(16)]
    alpha_src = shape_layer(1, "alpha matte", op, transform(p=(256, 256)),
                            [group("m", [ellipse((0, 0), anim([(0, [60, 60]), (op // 2, [500, 500]),
                                                               (op, [60, 60])])), fill((1, 1, 1))])], td=1)
    striped = shape_layer(2, "stripes", op, transform(p=(256, 256), r=anim([(0, -20), (op, 20)])), stripes, tt=1)
    luma_ramp = {"ty": "gf", "nm": "ramp", "o": static(100), "r": 1, "t": 1,
                 "s": anim([(0, [-256, 0]), (op, [0, 0])]), "e": anim([(0, [0, 0]), (op, [256, 0])]),
                 "g": gradient_stops([(0, 0, 0, 0), (1, 1, 1, 1)])}
    luma_src = shape_layer(3, "luma matte", op, transform(p=(256, 440)),
                           [group("ramp", [rect((0, 0), (512, 120)), luma_ramp])], td=1)
    band = layer(4, 1, "band", op, transform(p=(256, 440), a=(256, 60)), sc="#2fbf71", sw=512, sh=120, tt=3)
    middle = layer(5, 0, "badges", op, transform(p=(256, 256), a=(256, 256)), refId="middle", w=512, h=512,
                   sr=1.25, st=0)
    backdrop = layer(6, 1, "backdrop", op, transform(p=(256, 256), a=(256, 256)), sc="#161a2b", sw=512, sh=512)
    assets = [{"id": "badge", "nm": "badge", "fr": FR, "layers": badge_layers},
              {"id": "middle", "nm": "middle", "fr": FR, "layers": mid_layers}]
    return comp("precomps", op, [alpha_src, striped, luma_src, band, middle, backdrop], assets=assets,
                markers=[{"tm": 0, "cm": "start", "dr": 120}, {"tm": 120, "cm": "second half", "dr": 120}])


# ---------------------------------------------------------------------------------------------------------------
# (d) crowd


def crowd():
    op = 180
    rng = SplitMix64(0x1A31A)
    layers = []
    palette = [(0.93, 0.33, 0.31), (0.99, 0.73, 0.2), (0.3, 0.75, 0.45), (0.24, 0.55, 0.9), (0.62, 0.4, 0.85),
               (0.95, 0.55, 0.75)]
    for k in range(150):
        kind = ("ellipse", "rect", "star", "polygon")[k % 4]
        sz = rng.uniform(12, 30)
        col = rng.choice(palette)
        if kind == "ellipse":
            geo = ellipse((0, 0), (sz, sz * rng.uniform(0.6, 1.0)))
        elif kind == "rect":
            geo = rect((0, 0), (sz, sz * 0.7), rng.uniform(0, 5))
        elif kind == "star":
            geo = star((0, 0), sz * 0.6, sz * 0.3, 5)
        else:
            geo = star((0, 0), sz * 0.55, 0, 6, polygon=True)
        # three to four keyframes on a spatial bezier path (to/ti tangents), eased
        nk = 3 + (k % 2)
        times = [round(op * n / (nk - 1)) for n in range(nk)]
        pts = [[rng.uniform(20, 492), rng.uniform(20, 492)] for _ in range(nk - 1)]
        pts.append(list(pts[0]))
        keys = []
        for n, t in enumerate(times):
            kf = {"t": t, "s": pts[n]}
            if n < nk - 1:
                dx, dy = pts[n + 1][0] - pts[n][0], pts[n + 1][1] - pts[n][1]
                bend = rng.uniform(-0.6, 0.6)
                kf["o"] = {"x": rng.uniform(0.1, 0.5), "y": 0}
                kf["i"] = {"x": rng.uniform(0.5, 0.9), "y": 1}
                kf["to"] = [dx / 3 - dy * bend, dy / 3 + dx * bend]
                kf["ti"] = [-dx / 3 - dy * bend, -dy / 3 + dx * bend]
            keys.append(kf)
        turn = rng.uniform(-360, 360)
        # translucency on the fill, not the layer: rlottie draws every layer with opacity below 100 through a
        # buffer of the whole output, which costs it about 0.8 ms a layer here (docs/benchmarks.md, "Lottie")
        ks = transform(p={"a": 1, "k": keys}, r=anim([(0, 0), (op, turn)]))
        items = [geo, fill(col, o=round(rng.uniform(70, 100)))]
        if k % 5 == 0:
            items.append(stroke((1, 1, 1), 2))
        layers.append(shape_layer(k + 1, f"{kind} {k}", op, ks, [group(kind, items)]))
    layers.append(layer(151, 1, "backdrop", op, transform(p=(256, 256), a=(256, 256)), sc="#f4f1ea", sw=512,
                        sh=512))
    return comp("crowd", op, layers)


# ---------------------------------------------------------------------------------------------------------------
# (e) morph


def morph():
    op = 180
    n = 8
    circle = circle_path(0, 0, 150, n)
    starry = polygon_path([[(150 if k % 2 == 0 else 70) * math.cos(-math.pi / 2 + 2 * math.pi * k / n),
                            (150 if k % 2 == 0 else 70) * math.sin(-math.pi / 2 + 2 * math.pi * k / n)]
                           for k in range(n)], smooth=0.0)
    squarish = polygon_path([[150 * max(-1, min(1, 1.4 * math.cos(-math.pi / 2 + 2 * math.pi * k / n))),
                              150 * max(-1, min(1, 1.4 * math.sin(-math.pi / 2 + 2 * math.pi * k / n)))]
                             for k in range(n)], smooth=0.25)
    blob = {"a": 1, "k": [
        {"t": 0, "s": [circle], "o": dict(EASE_OUT), "i": dict(EASE_IN)},
        {"t": 60, "s": [starry], "o": dict(EASE_OUT), "i": dict(EASE_IN)},
        {"t": 120, "s": [squarish], "o": dict(EASE_OUT), "i": dict(EASE_IN)},
        {"t": 180, "s": [circle]}]}
    dashes = [{"n": "d", "nm": "dash", "v": static(24)}, {"n": "g", "nm": "gap", "v": static(14)},
              {"n": "o", "nm": "offset", "v": anim([(0, 0), (op, 152)], ease=False)}]
    shape = shape_layer(1, "morph", op, transform(p=(256, 256), r=anim([(0, 0), (op, 45)])),
                        [group("blob", [path(blob), fill((0.98, 0.45, 0.35)),
                                        stroke((1, 1, 1), 8, cap=2, join=2, dashes=dashes)])])
    # a repeater of a rounded rectangle, twelve copies round the middle, fading
    petal = group("petal", [rect((0, -200), (26, 70), 13), fill((0.35, 0.8, 0.95))])
    rep = {"ty": "rp", "nm": "repeater", "c": static(12), "o": static(0), "m": 1,
           "tr": {"ty": "tr", "p": static([0, 0]), "a": static([0, 0]), "s": static([100, 100]),
                  "r": static(30), "so": static(100), "eo": static(20)}}
    petals = shape_layer(2, "petals", op, transform(p=(256, 256), r=anim([(0, 0), (op, -60)])), [petal, rep])
    # a star with rounded corners
    rstar = shape_layer(6, "rounded star", op, transform(p=(256, 256), s=anim([(0, [60, 60]), (90, [85, 85]),
                                                                               (180, [60, 60])])),
                        [group("star", [star((0, 0), 60, 28, 5), {"ty": "rd", "nm": "round", "r": static(10)},
                                        fill((1, 0.85, 0.3))])])
    # (a ring, not dashed: rlottie and ThorVG lay dashes out on an ellipse differently, rlottie's pattern mirrored
    # about the top, so a dashed ring would make rlottie a poor reference for the conformance checker)
    ring = shape_layer(4, "ring", op, transform(p=(256, 256)),
                       [group("ring", [ellipse((0, 0), (460, 460)),
                                       stroke((0.55, 0.5, 0.95), anim([(0, 3), (90, 9), (180, 3)]), cap=2)])])
    bg = layer(5, 1, "backdrop", op, transform(p=(256, 256), a=(256, 256)), sc="#1d2433", sw=512, sh=512)
    return comp("morph", op, [rstar, shape, petals, ring, bg])


SAMPLES = {"spinner": spinner, "gradients": gradients, "precomps": precomps, "crowd": crowd, "morph": morph}


def render_json(doc):
    return json.dumps(rnd(doc), separators=(",", ":")) + "\n"


def main(argv):
    p = argparse.ArgumentParser(prog="lottie-samples.py",
                                description="Write the five 512 x 512, 60 fps Lottie benchmark samples.")
    p.add_argument("--out", default=os.path.join(ROOT, "examples", "lottie"),
                   help="output folder (default examples/lottie)")
    p.add_argument("--check", action="store_true",
                   help="write nothing; exit 1 when a file in the folder differs from what would be written")
    args = p.parse_args(argv)
    os.makedirs(args.out, exist_ok=True) if not args.check else None
    stale = []
    for name, make in SAMPLES.items():
        text = render_json(make())
        dest = os.path.join(args.out, name + ".json")
        if args.check:
            try:
                with open(dest) as f:
                    if f.read() != text:
                        stale.append(dest)
            except OSError:
                stale.append(dest)
            continue
        with open(dest, "w") as f:
            f.write(text)
        doc = json.loads(text)
        print(f"{dest}: {doc['w']} x {doc['h']}, {doc['op'] - doc['ip']} frames at {doc['fr']} fps, "
              f"{len(text)} bytes")
    if stale:
        print("differs from the generator: " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
