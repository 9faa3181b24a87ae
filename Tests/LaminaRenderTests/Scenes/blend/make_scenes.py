#!/usr/bin/env python3
"""Writes the blend-mode reference scenes and their probes: every compositingFilter name over known backdrops,
with the expected pixels worked out here from W3C "Compositing and Blending Level 1" (and Lamina's rule that a
group leaves the pixels beneath unchanged where it has none, docs/semantics.md "Blend modes"), not taken from a
renderer. Run it from this folder after changing it."""
import json
import math

MODES = ["normalBlendMode", "multiplyBlendMode", "screenBlendMode", "overlayBlendMode", "darkenBlendMode",
         "lightenBlendMode", "colorDodgeBlendMode", "colorBurnBlendMode", "softLightBlendMode", "hardLightBlendMode",
         "differenceBlendMode", "exclusionBlendMode", "hueBlendMode", "saturationBlendMode", "colorBlendMode",
         "luminosityBlendMode", "sourceAtop", "sourceIn", "sourceOut", "destinationOver", "destinationIn",
         "destinationOut", "destinationAtop", "xor", "plusLighter", "plusDarker"]

B1 = "#CC4D33"      # opaque backdrop
B2 = "#3399E680"    # half-transparent backdrop
S = "#66B380CC"     # the blended layer's colour


def rgba(hex_colour):
    h = hex_colour.lstrip("#")
    values = [int(h[i:i + 2], 16) for i in range(0, len(h), 2)]
    return values + [255] if len(values) == 3 else values


def premultiplied(hex_colour):
    """Premultiplied bytes as the renderers quantise a straight colour: round(c x a x 255)."""
    r, g, b, a = rgba(hex_colour)
    return [round(c * a / 255) for c in (r, g, b)] + [a]


def lum(c):
    return 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2]


def clip_color(c):
    l, n, x = lum(c), min(c), max(c)
    if n < 0:
        c = [l + (v - l) * l / (l - n) for v in c]
    if x > 1:
        c = [l + (v - l) * (1 - l) / (x - l) for v in c]
    return c


def set_lum(c, l):
    d = l - lum(c)
    return clip_color([v + d for v in c])


def sat(c):
    return max(c) - min(c)


def set_sat(c, s):
    n, x = min(c), max(c)
    return [(v - n) * s / (x - n) for v in c] if x > n else [0.0, 0.0, 0.0]


def hard_light(b, s):
    return b * 2 * s if s <= 0.5 else b + (2 * s - 1) - b * (2 * s - 1)


def soft_light(b, s):
    if s <= 0.5:
        return b - (1 - 2 * s) * b * (1 - b)
    d = ((16 * b - 12) * b + 4) * b if b <= 0.25 else math.sqrt(b)
    return b + (2 * s - 1) * (d - b)


SEPARABLE = {
    "multiplyBlendMode": lambda b, s: b * s,
    "screenBlendMode": lambda b, s: b + s - b * s,
    "overlayBlendMode": lambda b, s: hard_light(s, b),
    "darkenBlendMode": min,
    "lightenBlendMode": max,
    "colorDodgeBlendMode": lambda b, s: 0 if b == 0 else 1 if s >= 1 else min(1, b / (1 - s)),
    "colorBurnBlendMode": lambda b, s: 1 if b >= 1 else 0 if s <= 0 else 1 - min(1, (1 - b) / s),
    "softLightBlendMode": soft_light,
    "hardLightBlendMode": hard_light,
    "differenceBlendMode": lambda b, s: abs(b - s),
    "exclusionBlendMode": lambda b, s: b + s - 2 * b * s,
}
NON_SEPARABLE = {
    "hueBlendMode": lambda b, s: set_lum(set_sat(s, sat(b)), lum(b)),
    "saturationBlendMode": lambda b, s: set_lum(set_sat(b, sat(s)), lum(b)),
    "colorBlendMode": lambda b, s: set_lum(s, lum(b)),
    "luminosityBlendMode": lambda b, s: set_lum(b, lum(s)),
}
PORTER_DUFF = {
    "sourceAtop": lambda s, d, sa, da: s * da + d * (1 - sa),
    "sourceIn": lambda s, d, sa, da: s * da,
    "sourceOut": lambda s, d, sa, da: s * (1 - da),
    "destinationOver": lambda s, d, sa, da: d + s * (1 - da),
    "destinationIn": lambda s, d, sa, da: d * sa,
    "destinationOut": lambda s, d, sa, da: d * (1 - sa),
    "destinationAtop": lambda s, d, sa, da: d * sa + s * (1 - da),
    "xor": lambda s, d, sa, da: s * (1 - da) + d * (1 - sa),
    "plusLighter": lambda s, d, sa, da: min(1, s + d),
    "plusDarker": lambda s, d, sa, da: max(0, 1 - ((1 - s) + (1 - d))),
}


def composite(mode, s, d):
    """The mode on premultiplied bytes s (source) and d (backdrop): premultiplied floats 0...1."""
    s = [v / 255 for v in s]
    d = [v / 255 for v in d]
    sa, da = s[3], d[3]
    if sa == 0:
        return d
    if mode in PORTER_DUFF:
        return [PORTER_DUFF[mode](s[i], d[i], sa, da) for i in range(4)]
    cs = [v / sa for v in s[:3]]
    cb = [v / da for v in d[:3]] if da > 0 else [0.0, 0.0, 0.0]
    if mode == "normalBlendMode":
        mixed = cs
    elif mode in SEPARABLE:
        mixed = [SEPARABLE[mode](cb[i], cs[i]) for i in range(3)]
    else:
        mixed = NON_SEPARABLE[mode](cb, cs)
    mixed = [min(max(v, 0), 1) for v in mixed]
    out = [s[i] * (1 - da) + d[i] * (1 - sa) + sa * da * mixed[i] for i in range(3)]
    return out + [sa + da - sa * da]


def straight(p):
    """Premultiplied floats to straight bytes, as an output PNG holds them (premultiplied bytes first)."""
    q = [round(min(max(v, 0), 1) * 255) for v in p]
    if q[3] == 0:
        return [0, 0, 0, 0]
    return [min(255, round(c * 255 / q[3])) for c in q[:3]] + [q[3]]


def tolerance(p):
    # 2 of 255 in premultiplied bytes (rounding of either renderer), magnified by undoing a small alpha.
    a = round(min(max(p[3], 0), 1) * 255)
    return 2 if a >= 250 else 3 + math.ceil(2 * 255 / max(a, 1)) if a > 0 else 0


def probe(at, p, what):
    return {"at": at, "rgba": straight(p), "tol": tolerance(p), "what": what}


TRANSPARENT = [0, 0, 0, 0]


def cell(mode, x, y):
    """One mode's cell, 50 x 40 points at (x, y): B1 under x 0...20, B2 under x 20...35, nothing under 35...50; the
    blended layer spans x 5...50, y 10...30 and paints two children with a gap (x 15...25) where it has no pixels."""
    layers = [
        {"name": f"{mode} backdrop 1", "frame": [x, y, 20, 40], "backgroundColor": B1},
        {"name": f"{mode} backdrop 2", "frame": [x + 20, y, 15, 40], "backgroundColor": B2},
        {"name": mode, "frame": [x + 5, y + 10, 45, 20], "compositingFilter": mode, "sublayers": [
            {"frame": [0, 0, 10, 20], "backgroundColor": S},
            {"frame": [20, 0, 25, 20], "backgroundColor": S},
        ]},
    ]
    s, b1, b2 = premultiplied(S), premultiplied(B1), premultiplied(B2)
    unit = lambda c: [v / 255 for v in c]
    probes = [
        probe([x + 10, y + 20], composite(mode, s, b1), f"{mode} over the opaque backdrop"),
        probe([x + 30, y + 20], composite(mode, s, b2), f"{mode} over the half-transparent backdrop"),
        probe([x + 42, y + 20], composite(mode, s, TRANSPARENT), f"{mode} over nothing"),
        probe([x + 17, y + 20], unit(b1), f"{mode}: the opaque backdrop where the group has no pixels"),
        probe([x + 22, y + 20], unit(b2), f"{mode}: the half-transparent backdrop where the group has no pixels"),
        probe([x + 10, y + 5], unit(b1), f"{mode}: the backdrop outside the group"),
    ]
    return layers, probes


def modes_scene():
    layers, probes = [], []
    for index, mode in enumerate(MODES):
        l, p = cell(mode, (index % 5) * 50, (index // 5) * 40)
        layers += l
        probes += p
    scene = {"size": [250, 240], "layers": layers}
    return scene, {"scene": "modes.json", "issue": "25", "scales": [1, 2], "probes": probes}


def groups_scene():
    """Blended layers inside enclosing groups: a group-opacity parent and a masked parent each hold an opaque
    backdrop sublayer and a multiply (or destinationOut) sublayer; what lies outside the parent does not count as
    beneath (the blend stops at the parent's group), and the parent then composites source-over."""
    outside = "#2040F0"
    inner = "#F0C040"
    top = "#80FF40"
    layers = [
        {"name": "outside backdrop", "frame": [0, 0, 200, 60], "backgroundColor": outside},
        {"name": "group-opacity parent", "frame": [10, 10, 80, 40], "opacity": 0.5, "sublayers": [
            {"name": "inner backdrop", "frame": [0, 0, 40, 40], "backgroundColor": inner},
            {"name": "multiply", "frame": [20, 0, 60, 40], "backgroundColor": top,
             "compositingFilter": "multiplyBlendMode"},
        ]},
        {"name": "masked parent", "frame": [110, 10, 80, 40], "mask": {"frame": [0, 0, 80, 40],
                                                                         "backgroundColor": "#000000"},
         "sublayers": [
             {"name": "inner backdrop", "frame": [0, 0, 40, 40], "backgroundColor": inner},
             {"name": "destinationOut", "frame": [20, 0, 60, 40], "backgroundColor": top,
              "compositingFilter": "destinationOut"},
         ]},
    ]
    o, i, t = premultiplied(outside), premultiplied(inner), premultiplied(top)
    half = 128  # opacity 0.5 as a byte

    def faded(p):
        return [round(v * 255 * half / 255) / 255 for v in p]

    def over(p, d):
        d = [v / 255 for v in d]
        return [p[k] + d[k] * (1 - p[3]) for k in range(4)]

    def q(p):
        return [round(min(max(v, 0), 1) * 255) / 255 for v in p]

    multiplied = q(composite("multiplyBlendMode", t, i))  # over the inner backdrop
    alone = q(composite("multiplyBlendMode", t, TRANSPARENT))  # over nothing inside the group
    cut = q(composite("destinationOut", t, i))
    probes = [
        probe([30, 30], over(faded(multiplied), o), "multiply over its sibling, inside a group-opacity parent"),
        probe([70, 30], over(faded(alone), o),
              "multiply where no sibling lies: nothing beneath inside the parent's group, not the outside backdrop"),
        probe([20, 30], over(faded([v / 255 for v in i]), o), "the sibling alone, faded"),
        probe([140, 30], over(cut, o), "destinationOut cuts its sibling inside a masked parent"),
        probe([170, 30], over([v / 255 for v in TRANSPARENT], o),
              "destinationOut over nothing inside the masked parent leaves the outside backdrop"),
        probe([120, 30], [v / 255 for v in i], "the masked parent's sibling outside the blended layer"),
    ]
    scene = {"size": [200, 60], "layers": layers}
    return scene, {"scene": "groups.json", "issue": "25", "scales": [1, 2], "probes": probes}


for name, (scene, probes) in {"modes": modes_scene(), "groups": groups_scene()}.items():
    with open(f"{name}.json", "w") as f:
        json.dump(scene, f, indent=1)
    with open(f"{name}.probes.json", "w") as f:
        json.dump(probes, f, indent=1)
