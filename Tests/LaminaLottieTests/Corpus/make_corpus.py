#!/usr/bin/env python3
"""Writes Lamina's Lottie test corpus: one tiny Lottie file per feature, the probe pixels each must show
(probes.json), and malformed files with the errors they must raise (errors/, errors.json).

Deterministic: run `python3 make_corpus.py` in this folder and the outputs are rewritten byte for byte.
Needs only the Python standard library. Expected values are worked out here from the Lottie semantics
(lottie-web / the Lottie spec at lottie.github.io), never read back from a renderer; check_rlottie.py
then holds them against rlottie and ThorVG.

Conventions (see README.md): probe x, y are output pixel indices at the check's scale (the pixel covers
[x, x+1) x [y, y+1), so its centre is x+0.5, y+0.5); `rgba` is straight (un-premultiplied) RGBA 0-255 of the
transparent output; `alpha` alone is used where the colour is undefined (alpha 0); `tolerance` is the largest
allowed difference in any checked channel.
"""
import base64
import json
import math
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = {}      # name -> JSON object
CHECKS = []     # probes.json entries
ERRORS = []     # errors.json entries
EXTRA = {}      # other files (relative path -> bytes)

RED, GREEN, BLUE, WHITE, BLACK = [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1], [0, 0, 0]
RED8, GREEN8, BLUE8, WHITE8 = [255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 255, 255]


# ---------------------------------------------------------------- Lottie building blocks

def st(v):
    """A static property."""
    return {"a": 0, "k": v}


LIN_O = {"x": [0], "y": [0]}
LIN_I = {"x": [1], "y": [1]}


def kf(t, s, o=None, i=None, h=None, **extra):
    k = {"t": t, "s": s if isinstance(s, list) else [s]}
    if h:
        k["h"] = 1
    else:
        k["o"] = o or LIN_O
        k["i"] = i or LIN_I
    k.update(extra)
    return k


def last(t, s):
    return {"t": t, "s": s if isinstance(s, list) else [s]}


def an(*kfs):
    return {"a": 1, "k": list(kfs)}


def ks(a=(0, 0), p=(0, 0), s=(100, 100), r=0, o=100, **extra):
    d = {"a": v(a), "p": v(p), "s": v(s), "r": v(r), "o": v(o)}
    for key, val in extra.items():
        d[key] = v(val)
    return d


def v(x):
    """Wrap a value as a static property unless it already is a property."""
    if isinstance(x, dict):
        return x
    if isinstance(x, tuple):
        x = list(x)
    return st(x)


def layer_common(ty, ind, nm, ip=0, op=30, kss=None, **extra):
    d = {"ddd": 0, "ind": ind, "ty": ty, "nm": nm, "sr": 1, "ks": kss or ks(), "ao": 0,
         "ip": ip, "op": op, "st": 0, "bm": 0}
    d.update(extra)
    return d


def shape_layer(ind, shapes, nm=None, **kw):
    d = layer_common(4, ind, nm or f"shape {ind}", **kw)
    d["shapes"] = shapes
    return d


def solid_layer(ind, colour_hex, w, h, nm=None, **kw):
    d = layer_common(1, ind, nm or f"solid {ind}", **kw)
    d.update({"sc": colour_hex, "sw": w, "sh": h})
    return d


def null_layer(ind, nm=None, **kw):
    return layer_common(3, ind, nm or f"null {ind}", **kw)


def comp(layers, w=64, h=64, op=30, fr=30, assets=None, nm="corpus", **extra):
    d = {"v": "5.7.4", "fr": fr, "ip": 0, "op": op, "w": w, "h": h, "nm": nm, "ddd": 0,
         "assets": assets or [], "layers": layers}
    d.update(extra)
    return d


def rect(p, s, r=0, d=1):
    return {"ty": "rc", "nm": "rect", "d": d, "p": v(p), "s": v(s), "r": v(r)}


def ellipse(p, s, d=1):
    return {"ty": "el", "nm": "ellipse", "d": d, "p": v(p), "s": v(s)}


def star(p, pt, outer, inner=None, r=0, os_=0, is_=0, sy=1):
    d = {"ty": "sr", "nm": "star", "d": 1, "sy": sy, "p": v(p), "pt": v(pt), "or": v(outer), "os": v(os_),
         "r": v(r)}
    if sy == 1:
        d["ir"] = v(inner)
        d["is"] = v(is_)
    return d


def path(vs, ins=None, outs=None, closed=True):
    n = len(vs)
    return {"ty": "sh", "nm": "path", "d": 1,
            "ks": st({"i": ins or [[0, 0]] * n, "o": outs or [[0, 0]] * n, "v": vs, "c": closed})}


def rect_path(x0, y0, x1, y1):
    """A clockwise rectangle as a path (screen coordinates, y down)."""
    return {"i": [[0, 0]] * 4, "o": [[0, 0]] * 4, "v": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]], "c": True}


def fill(c, o=100, r=1):
    return {"ty": "fl", "nm": "fill", "c": v(list(c) + [1]), "o": v(o), "r": r}


def stroke(c, w, o=100, lc=2, lj=2, ml=4, dashes=None):
    d = {"ty": "st", "nm": "stroke", "c": v(list(c) + [1]), "o": v(o), "w": v(w), "lc": lc, "lj": lj, "ml": ml}
    if dashes:
        d["d"] = dashes
    return d


def gstops(stops, alphas=None):
    """Gradient `g`: colour stops [(offset, [r,g,b])] then optional opacity stops [(offset, a)]."""
    k = []
    for off, c in stops:
        k += [off] + list(c)
    if alphas:
        for off, a in alphas:
            k += [off, a]
    return {"p": len(stops), "k": st(k)}


def gfill(t, s, e, stops, alphas=None, h=None, a=None, o=100, r=1):
    d = {"ty": "gf", "nm": "gradient fill", "t": t, "s": v(s), "e": v(e), "g": gstops(stops, alphas),
         "o": v(o), "r": r}
    if h is not None:
        d["h"] = v(h)
        d["a"] = v(a or 0)
    return d


def gstroke(t, s, e, stops, w, lc=1, lj=2, ml=4, o=100):
    return {"ty": "gs", "nm": "gradient stroke", "t": t, "s": v(s), "e": v(e), "g": gstops(stops), "o": v(o),
            "w": v(w), "lc": lc, "lj": lj, "ml": ml}


def tr(a=(0, 0), p=(0, 0), s=(100, 100), r=0, o=100, **extra):
    d = {"ty": "tr", "nm": "transform", "a": v(a), "p": v(p), "s": v(s), "r": v(r), "o": v(o)}
    for key, val in extra.items():
        d[key] = v(val)
    return d


def group(items, t=None, nm="group"):
    return {"ty": "gr", "nm": nm, "it": list(items) + [t or tr()]}


def mask(pt, mode="a", inv=False, o=100, x=0):
    return {"inv": inv, "mode": mode, "pt": st(pt), "o": st(o), "x": st(x), "nm": f"mask {mode}"}


def effect(ty, nm, values):
    """An effect with its parameter list [(ty, name, value)]."""
    ef = []
    for i, (pty, pnm, val) in enumerate(values):
        ef.append({"ty": pty, "nm": pnm, "mn": f"ADBE {nm} {i + 1:04d}", "ix": i + 1, "v": st(val)})
    return {"ty": ty, "nm": nm, "np": len(values) + 1, "mn": f"ADBE {nm}", "ix": 1, "en": 1, "ef": ef}


# ---------------------------------------------------------------- probes

def P(x, y, rgba, why, tol=8):
    return {"x": x, "y": y, "rgba": list(rgba), "tolerance": tol, "why": why}


def A(x, y, why, alpha=0, tol=8):
    return {"x": x, "y": y, "alpha": alpha, "tolerance": tol, "why": why}


def add(name, doc, checks, rlottie=True, thorvg=True, note=""):
    """Register a file and its checks. checks: list of (frame, probes) or dicts with more keys."""
    FILES[name] = doc
    for c in checks:
        if isinstance(c, tuple):
            c = {"frame": c[0], "probes": c[1]}
        entry = {"file": name, "frame": c["frame"], "scale": c.get("scale", 1), "probes": c["probes"]}
        for key in ("values", "markers"):
            if key in c:
                entry[key] = c[key]
        entry["rlottie"] = c.get("rlottie", rlottie)
        entry["thorvg"] = c.get("thorvg", thorvg)
        entry["note"] = c.get("note", note)
        CHECKS.append(entry)


def c8(x):
    """A 0-1 channel as 0-255, rounded."""
    return int(math.floor(x * 255 + 0.5))


def lerp_rgb(c0, c1, t):
    t = min(1.0, max(0.0, t))
    return [c8(a + (b - a) * t) for a, b in zip(c0, c1)] + [255]


# ---------------------------------------------------------------- geometry (for probe margins)

def poly_margin(pt, poly):
    """Signed distance from pt to the polygon's edge: > 0 inside (even-odd), < 0 outside."""
    x, y = pt
    inside = False
    dmin = 1e9
    n = len(poly)
    for i in range(n):
        (x0, y0), (x1, y1) = poly[i], poly[(i + 1) % n]
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
        dx, dy = x1 - x0, y1 - y0
        L = dx * dx + dy * dy
        t = max(0, min(1, ((x - x0) * dx + (y - y0) * dy) / L)) if L else 0
        dmin = min(dmin, math.hypot(x - x0 - t * dx, y - y0 - t * dy))
    return dmin if inside else -dmin


def require(pt_px, poly, inside, minimum=1.5):
    """Assert a probe pixel's centre is well inside / outside a polygon (so the expectation is robust)."""
    m = poly_margin((pt_px[0] + 0.5, pt_px[1] + 0.5), poly)
    if inside and m < minimum or not inside and m > -minimum:
        raise SystemExit(f"probe {pt_px} margin {m:.2f} too small ({'in' if inside else 'out'})")


def mat_mul(m, n):
    """3x3 affine matrices as (a, b, c, d, e, f): x' = a x + c y + e, y' = b x + d y + f; m then n."""
    a, b, c, d, e, f = m
    A_, B_, C_, D_, E_, F_ = n
    return (a * A_ + b * C_, a * B_ + b * D_, c * A_ + d * C_, c * B_ + d * D_, e * A_ + f * C_ + E_,
            e * B_ + f * D_ + F_)


def apply(m, pt):
    a, b, c, d, e, f = m
    return (a * pt[0] + c * pt[1] + e, b * pt[0] + d * pt[1] + f)


def lottie_transform(a=(0, 0), p=(0, 0), s=(100, 100), r=0, sk=0, sa=0):
    """The layer/group transform as lottie-web composes it: anchor, scale, skew, rotation, position."""
    m = (1, 0, 0, 1, -a[0], -a[1])
    m = mat_mul(m, (s[0] / 100, 0, 0, s[1] / 100, 0, 0))
    if sk:
        ax, ang = -math.radians(sk), math.radians(sa)
        cs, sn = math.cos(ang), math.sin(ang)
        m = mat_mul(m, (cs, sn, -sn, cs, 0, 0))
        m = mat_mul(m, (1, 0, math.tan(ax), 1, 0, 0))
        m = mat_mul(m, (cs, -sn, sn, cs, 0, 0))
    if r:
        rr = math.radians(r)
        m = mat_mul(m, (math.cos(rr), math.sin(rr), -math.sin(rr), math.cos(rr), 0, 0))
    return mat_mul(m, (1, 0, 0, 1, p[0], p[1]))


def box(x0, y0, x1, y1):
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def cubic_bezier_ease(x1, y1, x2, y2, x):
    """y of the CSS-style easing curve (0,0),(x1,y1),(x2,y2),(1,1) at x, by bisection."""
    lo, hi = 0.0, 1.0
    for _ in range(100):
        u = (lo + hi) / 2
        bx = 3 * (1 - u) ** 2 * u * x1 + 3 * (1 - u) * u * u * x2 + u ** 3
        if bx < x:
            lo = u
        else:
            hi = u
    u = (lo + hi) / 2
    return 3 * (1 - u) ** 2 * u * y1 + 3 * (1 - u) * u * u * y2 + u ** 3


# ---------------------------------------------------------------- PNG (zlib, no dependencies)

def png(w, h, pixel):
    raw = b"".join(b"\x00" + b"".join(bytes(pixel(x, y)) for x in range(w)) for y in range(h))

    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xffffffff)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def quadrants(x, y):
    """32 x 32 test image: red, green / blue, white quadrants, opaque."""
    if y < 16:
        return (255, 0, 0, 255) if x < 16 else (0, 255, 0, 255)
    return (0, 0, 255, 255) if x < 16 else (255, 255, 255, 255)


QUAD_PNG = png(32, 32, quadrants)


# ================================================================ layers

def layers_files():
    add("solid-layer.json",
        comp([solid_layer(1, "#ff0000", 32, 32, kss=ks(p=(16, 16)))]),
        [(0, [P(32, 32, RED8, "inside the 32 x 32 solid placed at (16, 16)"),
              P(18, 18, RED8, "2.5 px inside the solid's top-left corner"),
              A(8, 8, "outside the solid: the output is transparent where nothing is drawn"),
              A(50, 32, "2.5 px right of the solid's right edge (x = 48)")])])

    add("shape-rect.json",
        comp([shape_layer(1, [rect((32, 32), (32, 24)), fill(RED)])]),
        [(0, [P(32, 32, RED8, "centre of the 32 x 24 rectangle centred at (32, 32)"),
              P(17, 21, RED8, "inside near the top-left corner (16, 20)"),
              A(32, 17, "2.5 px above the top edge (y = 20)"),
              A(13, 32, "2.5 px left of the left edge (x = 16)")]),
         {"frame": 0, "scale": 2, "probes": [
             P(64, 64, RED8, "scale 2: the centre (32, 32) is at (64, 64)"),
             P(34, 42, RED8, "scale 2: inside the corner (16, 20) -> (32, 40)"),
             A(64, 37, "scale 2: 2.5 px above the top edge at y = 40"),
             A(29, 64, "scale 2: 2.5 px left of the left edge at x = 32")]}])

    add("null-layer.json",
        comp([shape_layer(2, [rect((0, 0), (16, 16)), fill(RED)], parent=1),
              null_layer(1, kss=ks(p=(20, 44), o=0))]),
        [(0, [P(20, 44, RED8, "the child's rectangle is centred on its null parent's position (20, 44)"),
              P(15, 39, RED8, "inside the child's 16 x 16 rectangle: the parent's opacity 0 is not inherited"),
              A(44, 20, "a null layer draws nothing itself"),
              A(32, 32, "nothing drawn between")])],
        note="Parenting passes the transform only, never opacity (After Effects, lottie-web).")

    # image layer: embedded data URL
    img_asset = {"id": "image_0", "w": 32, "h": 32, "u": "", "e": 1,
                 "p": "data:image/png;base64," + base64.b64encode(QUAD_PNG).decode()}
    img_layer = layer_common(2, 1, "image", kss=ks(p=(16, 16)))
    img_layer["refId"] = "image_0"
    quad_probes = [P(24, 24, RED8, "top-left quadrant of the 32 x 32 image placed at (16, 16)"),
                   P(40, 24, GREEN8, "top-right quadrant"),
                   P(24, 40, BLUE8, "bottom-left quadrant"),
                   P(40, 40, WHITE8, "bottom-right quadrant"),
                   A(8, 8, "outside the image"), A(56, 56, "outside the image")]
    add("image-embedded.json", comp([img_layer], assets=[img_asset]), [(0, quad_probes)],
        note="The image is a data-URL PNG (e: 1) written by make_corpus.py.")

    ext_asset = {"id": "image_0", "w": 32, "h": 32, "u": "images/", "p": "quadrants.png", "e": 0}
    EXTRA["images/quadrants.png"] = QUAD_PNG
    add("image-external.json", comp([dict(img_layer)], assets=[ext_asset]), [(0, quad_probes)],
        note="The image is a file beside the animation: u 'images/' + p 'quadrants.png'.")

    scaled = dict(img_layer)
    scaled["ks"] = ks(a=(16, 16), p=(32, 32), s=(150, 150))
    add("image-scaled.json", comp([scaled], assets=[img_asset]),
        [(0, [P(20, 20, RED8, "the image scaled 1.5x about its centre covers 8..56; (20, 20) is top-left"),
              P(44, 20, GREEN8, "top-right quadrant"), P(20, 44, BLUE8, "bottom-left quadrant"),
              P(44, 44, WHITE8, "bottom-right quadrant"),
              A(5, 32, "2.5 px left of the scaled image (x = 8)"), A(32, 59, "2.5 px below it (y = 56)")])])

    # precomps
    inner = [shape_layer(1, [rect((16, 16), (16, 16)), fill(GREEN)], op=60)]
    pre = layer_common(0, 1, "precomp", kss=ks(a=(16, 16), p=(32, 32)))
    pre.update({"refId": "comp_0", "w": 32, "h": 32})
    add("precomp-layer.json", comp([pre], assets=[{"id": "comp_0", "layers": inner}]),
        [(0, [P(32, 32, GREEN8, "the precomp's rectangle (8..24 inside it) lands on 24..40"),
              P(26, 38, GREEN8, "inside the rectangle"),
              A(20, 20, "inside the precomp's bounds but outside its rectangle"),
              A(44, 32, "outside the rectangle")])])

    inner_big = [shape_layer(1, [rect((24, 24), (48, 48)), fill(BLUE)], op=60)]
    pre = layer_common(0, 1, "precomp", kss=ks(p=(16, 16)))
    pre.update({"refId": "comp_0", "w": 32, "h": 32})
    add("precomp-clip.json", comp([pre], assets=[{"id": "comp_0", "layers": inner_big}]),
        [(0, [P(32, 32, BLUE8, "inside the precomp's 32 x 32 bounds at 16..48"),
              P(46, 46, BLUE8, "1.5 px inside the bounds' bottom-right corner"),
              A(56, 30, "the inner rectangle reaches x = 64 but the precomp clips at x = 48"),
              A(30, 56, "clipped below y = 48"), A(8, 8, "outside")])],
        note="A precomp layer clips its content to its w x h (lottie-web, lottie-ios).")

    # a moving 8 x 8 square inside a precomp: x = 8 + 48 * f / 20 at inner frame f (0..20)
    mover = [shape_layer(1, [rect((0, 0), (8, 8)), fill(RED)], op=100,
                         kss=ks(p=an(kf(0, [8, 32]), last(20, [56, 32]))))]

    def mover_x(f):
        f = min(20, max(0, f))
        return 8 + 48 * f / 20

    def precomp(**kw):
        p = layer_common(0, 1, "precomp", kss=ks(p=(32, 32), a=(32, 32)))
        p.update({"refId": "comp_0", "w": 64, "h": 64})
        p.update(kw)
        return p

    mover_assets = [{"id": "comp_0", "layers": mover}]
    add("precomp-start-time.json", comp([precomp(st=5)], assets=mover_assets),
        [(2, [A(8, 32, "outer frame 2 is inner frame -3, before the inner layer's ip 0: nothing drawn")]),
         (5, [P(8, 32, RED8, "outer frame 5 is inner frame 0 (st 5): the square at x = 8")]),
         (10, [P(20, 32, RED8, f"outer frame 10 is inner frame 5: x = {mover_x(5):g}"),
               A(32, 32, "where the square would be at inner frame 10")])],
        note="Inner time = outer time - st (lottie-web: the layer's frame is num - st).")
    add("precomp-stretch.json", comp([precomp(sr=2)], assets=mover_assets),
        [(10, [P(20, 32, RED8, f"sr 2: outer frame 10 is inner frame 5, x = {mover_x(5):g}"),
               A(32, 32, "the square is not at inner frame 10's x = 32")]),
         (20, [P(32, 32, RED8, f"outer frame 20 is inner frame 10: x = {mover_x(10):g}"),
               A(20, 32, "no longer at x = 20")])],
        note="Inner time = (outer time - st) / sr.")
    tm = an(kf(0, [0.5]), last(20, [0]))
    add("precomp-time-remap.json", comp([precomp(tm=tm)], assets=mover_assets),
        [(0, [P(44, 32, RED8, "tm(0) = 0.5 s = inner frame 15: x = 44"), A(8, 32, "not at inner frame 0")]),
         (10, [P(26, 32, RED8, "tm(10) = 0.25 s = inner frame 7.5: x = 26"),
               A(44, 32, "no longer at inner frame 15")],),
         (25, [P(8, 32, RED8, "tm holds its last value 0 after frame 20: inner frame 0, x = 8")])],
        note="tm is in seconds of the precomp (inner frame = tm * fr), evaluated at the layer's time.")

    nested_inner = precomp(st=5)
    nested_inner["refId"] = "comp_inner"
    add("precomp-nested.json",
        comp([precomp(st=5)], assets=[{"id": "comp_0", "layers": [nested_inner]},
                                      {"id": "comp_inner", "layers": mover}]),
        [(20, [P(32, 32, RED8, "two precomps with st 5 each: outer frame 20 is frame 15, then 10 inside: x = 32"),
               A(20, 32, "not at inner frame 5 (one offset only)")]),
         (10, [P(8, 32, RED8, "outer frame 10 is innermost frame 0: x = 8")]),
         (8, [A(8, 32, "outer frame 8 is innermost frame -2, before its layer's ip 0")])],
        note="Start times add up through nested precomps.")
    add("layer-start-time.json",
        comp([shape_layer(1, [rect((0, 0), (8, 8)), fill(RED)], st=5,
                          kss=ks(p=an(kf(0, [16, 32]), last(10, [48, 32]))))]),
        [(5, [P(32, 32, RED8, "st 5 does not move a shape layer's own keys: frame 5 is key time 5, x = 32")]),
         (10, [P(48, 32, RED8, "frame 10 is the last key"),
               A(32, 32, "where the square would be if st delayed the keys")]),
         (2, [P(22, 32, RED8, "frame 2: x = 16 + 32 x 0.2 = 22.4; ip 0 is in composition frames too")])],
        note="Keyframe times are in the containing composition's frames: lottie-web subtracts st from both the "
             "time and the key times, so it cancels; st only moves a precomp's content. Real exports rely on it "
             "(lottie-ios's pr_1734 sample: st -52, ip 321, rotation keys 322..354).")

    # in/out points and hidden layers
    add("layer-in-out.json",
        comp([shape_layer(1, [rect((32, 32), (24, 24)), fill(RED)], ip=5, op=15)]),
        [(4, [A(32, 32, "frame 4 is before the layer's ip 5")]),
         (5, [P(32, 32, RED8, "ip 5: the layer is visible from frame 5")]),
         (14, [P(32, 32, RED8, "frame 14 is before op 15")]),
         {"frame": 15, "probes": [A(32, 32, "op 15 is exclusive: gone at frame 15")], "rlottie": False,
          "note": "rlottie still draws a layer on its op frame; lottie-web's out point is exclusive"},
         (25, [A(32, 32, "after op")])])

    add("layer-hidden.json",
        comp([shape_layer(1, [rect((32, 32), (40, 40)), fill(RED)], hd=True),
              shape_layer(2, [rect((32, 32), (24, 24)), fill(GREEN)])]),
        [(0, [P(32, 32, GREEN8, "the red layer above is hidden (hd): the green one shows"),
              A(10, 10, "the hidden red layer would cover (10, 10)")])])

    add("shape-hidden-item.json",
        comp([shape_layer(1, [dict(rect((32, 32), (40, 40)), hd=True), rect((32, 32), (16, 16)),
                              fill(RED)])]),
        [(0, [P(32, 32, RED8, "the visible 16 x 16 rectangle"),
              A(16, 16, "inside the hidden (hd) 40 x 40 rectangle only")])])

    # parenting
    add("parent-rotation.json",
        comp([shape_layer(2, [rect((0, 0), (8, 8)), fill(RED)], parent=1, kss=ks(p=(24, 0))),
              shape_layer(1, [rect((0, 0), (8, 8)), fill(BLUE)], kss=ks(p=(16, 16), r=90))]),
        [(0, [P(16, 16, BLUE8, "the parent's own square at its position (16, 16)"),
              P(16, 40, RED8, "the child's offset (24, 0) turned 90 deg clockwise by the parent: (0, 24)"),
              A(40, 16, "where the child would be without the parent's rotation")])])

    add("parent-chain.json",
        comp([shape_layer(3, [rect((0, 0), (4, 4)), fill(RED)], parent=2, kss=ks(p=(8, 8))),
              null_layer(2, parent=1, kss=ks(p=(16, 0), s=(200, 200))),
              null_layer(1, kss=ks(p=(8, 8)))]),
        [(0, [P(40, 24, RED8, "(8, 8) x 2 + (16, 0) + (8, 8) = (40, 24): the centre of the child"),
              P(37, 21, RED8, "the 4 x 4 square doubled by the middle null: 36..44 x 20..28"),
              A(46, 24, "2.5 px right of the doubled square"),
              A(24, 16, "where the square would be without the chain's scale")])])

    # transforms
    add("transform-anchor.json",
        comp([shape_layer(1, [rect((16, 16), (16, 16)), fill(RED)], kss=ks(a=(16, 16), p=(48, 48)))]),
        [(0, [P(48, 48, RED8, "the anchor (16, 16), the rectangle's centre, is placed at p = (48, 48)"),
              A(16, 16, "where the rectangle would be without anchor and position")])])

    add("transform-position.json",
        comp([shape_layer(1, [rect((0, 0), (8, 8)), fill(RED)], kss=ks(p=an(kf(0, [16, 32]), last(10, [48, 32]))))]),
        [(0, [P(16, 32, RED8, "frame 0: at the first key (16, 32)")]),
         {"frame": 2.5, "probes": [P(24, 32, RED8, "linear: 16 + 32 x 0.25 = 24 at frame 2.5"),
                                    A(16, 32, "no longer at 16: the square spans 20..28")],
          "values": [{"path": "layers[0].ks.p", "value": [24, 32], "why": "linear interpolation, t = 0.25"}],
          "rlottie": False, "note": "fractional frame: rlottie renders whole frames only"},
         (10, [P(48, 32, RED8, "frame 10: the last key (48, 32)")]),
         (20, [P(48, 32, RED8, "after the last key the value holds")])])

    add("transform-split-position.json",
        comp([shape_layer(1, [rect((0, 0), (8, 8)), fill(RED)],
                          kss=ks(p={"s": True, "x": an(kf(0, [16]), last(10, [48])), "y": st(40)}))]),
        [(5, [P(32, 40, RED8, "split position: x animates 16 -> 48 (32 at frame 5), y stays 40"),
              A(32, 32, "y is 40, not 32")]),
         (10, [P(48, 40, RED8, "x reaches 48")])])

    add("transform-scale.json",
        comp([shape_layer(1, [rect((0, 0), (16, 16)), fill(RED)], kss=ks(p=(32, 32), s=(200, 50)))]),
        [(0, [P(18, 32, RED8, "16 x 16 scaled 200 % x 50 % is 32 x 8: x 16..48"),
              P(45, 33, RED8, "inside near the right end"),
              A(32, 25, "2.5 px above the squashed rectangle (y 28..36)"),
              A(13, 32, "2.5 px left of x = 16")])])

    add("transform-rotation.json",
        comp([shape_layer(1, [rect((0, 0), (40, 8)), fill(RED)], kss=ks(p=(32, 32), r=90))]),
        [(0, [P(32, 16, RED8, "a 40 x 8 bar turned 90 deg is vertical: y 12..52"),
              P(32, 48, RED8, "lower end of the vertical bar"),
              A(16, 32, "where the horizontal bar would be")])])

    add("transform-opacity.json",
        comp([shape_layer(1, [rect((32, 32), (32, 32)), fill(RED)], kss=ks(o=50))]),
        [(0, [P(32, 32, [255, 0, 0, 128], "opacity 50 %: alpha 127.5"), A(8, 8, "outside")])])

    add("keyframe-linear-opacity.json",
        comp([shape_layer(1, [rect((32, 32), (32, 32)), fill(RED)], kss=ks(o=an(kf(0, [0]), last(10, [100]))))]),
        [(0, [A(32, 32, "opacity 0 at frame 0")]),
         {"frame": 2.5, "probes": [P(32, 32, [255, 0, 0, 64], "opacity 25 % at frame 2.5: alpha 63.75")],
          "values": [{"path": "layers[0].ks.o", "value": 25, "why": "0 + 100 x 2.5 / 10"}],
          "rlottie": False, "note": "fractional frame: rlottie renders whole frames only"},
         (5, [P(32, 32, [255, 0, 0, 128], "opacity 50 % at frame 5")]),
         {"frame": 7.25, "probes": [P(32, 32, [255, 0, 0, 185], "opacity 72.5 %: alpha 184.9")],
          "values": [{"path": "layers[0].ks.o", "value": 72.5, "why": "100 x 7.25 / 10"}],
          "rlottie": False, "note": "fractional frame: rlottie renders whole frames only"}])

    # skew: a 20 x 20 square centred at (32, 32)
    sq = box(-10, -10, 10, 10)
    for name, sk, sa, ins, outs in [
            ("transform-skew.json", 30, 0, [(44, 23), (19, 40)], [(23, 23), (44, 40)]),
            ("transform-skew-axis.json", 30, 90, [(23, 19), (40, 44)], [(23, 44), (40, 19)])]:
        m = lottie_transform(p=(32, 32), sk=sk, sa=sa)
        poly = [apply(m, q) for q in sq]
        for q in ins:
            require(q, poly, True)
        for q in outs:
            require(q, poly, False)
        add(name,
            comp([shape_layer(1, [rect((0, 0), (20, 20)), fill(RED)], kss=ks(p=(32, 32), sk=sk, sa=sa))]),
            [(0, [P(32, 32, RED8, "centre of the skewed square")] +
              [P(q[0], q[1], RED8, f"inside the square skewed by sk {sk} along axis sa {sa} "
                 "(lottie-web: skewFromAxis(-sk, sa))") for q in ins] +
              [A(q[0], q[1], "outside the skewed square (inside the unskewed one would differ)") for q in outs])],
            rlottie=False, note="x' = x - y tan(sk) for sa 0; the axis sa turns the shear direction. rlottie "
                                "ignores skew.")

    add("auto-orient.json",
        comp([shape_layer(1, [rect((0, 0), (24, 6)), fill(RED)], ao=1,
                          kss=ks(p=an(kf(0, [10, 54]), last(10, [54, 10]))))]),
        [(5, [P(32, 32, RED8, "the bar's centre at frame 5 is (32, 32)"),
              P(37, 26, RED8, "ao 1: the 24 x 6 bar turns to the motion's direction (-45 deg), up-right"),
              P(26, 37, RED8, "the other end of the diagonal bar"),
              A(37, 37, "across the motion: outside the turned bar"),
              A(40, 32, "a horizontal (not auto-oriented) bar would cover this")])],
        rlottie=False, note="rlottie ignores ao.")


# ================================================================ shapes

def shape_files():
    add("group-transform.json",
        comp([shape_layer(1, [
            group([rect((0, 0), (12, 12)), fill(BLUE)], tr(p=(48, 16), o=50)),
            group([rect((0, 0), (12, 12)), fill(RED)], tr(a=(-6, -6), p=(4, 36), s=(200, 200), r=0)),
            group([group([rect((0, 0), (8, 8)), fill(GREEN)], tr(p=(8, 0)))], tr(p=(40, 48), r=90))])]),
        [(0, [P(48, 16, [0, 0, 255, 128], "the group's transform moves its square to (48, 16); group opacity 50 %"),
              P(24, 56, RED8, "anchor (-6, -6), the square's corner, at (4, 36), scaled 2x: the square spans 4..28 x 36..60"),
              P(6, 38, RED8, "near the scaled square's top-left corner (4, 36)"),
              A(14, 32, "above the scaled square"),
              P(40, 56, GREEN8, "nested groups: (8, 0) turned 90 deg by the outer group is (0, 8): (40, 56)"),
              A(48, 48, "where the inner square would be without the outer rotation"),
              A(32, 32, "nothing drawn here")])])

    add("rect-roundness.json",
        comp([shape_layer(1, [rect((32, 32), (48, 48), r=12), fill(RED)])]),
        [(0, [P(32, 32, RED8, "centre"), P(32, 10, RED8, "2.5 px inside the straight top edge (y = 8)"),
              A(9, 9, "the corner (8, 8) is cut by the radius-12 arc centred (20, 20): 2.9 px outside"),
              A(54, 54, "bottom-right corner cut likewise"),
              P(13, 13, RED8, "on the diagonal 9.2 px from the arc centre: inside the arc")])])

    add("rect-roundness-clamped.json",
        comp([shape_layer(1, [rect((32, 32), (48, 24), r=100), fill(RED)])]),
        [(0, [P(32, 32, RED8, "centre of the 48 x 24 pill"),
              A(9, 21, "roundness 100 is clamped to half the shorter side (12): the corner is cut"),
              P(11, 32, RED8, "the pill's left end reaches x = 8 on the middle line")])])

    add("ellipse.json",
        comp([shape_layer(1, [ellipse((32, 32), (40, 24)), fill(RED)])]),
        [(0, [P(32, 32, RED8, "centre"), P(14, 32, RED8, "2.5 px inside the left end (x = 12)"),
              A(9, 32, "2.5 px outside the left end"),
              P(32, 22, RED8, "2.5 px inside the top (y = 20)"),
              A(50, 22, "outside the 40 x 24 ellipse, inside its bounding box"),
              A(32, 17, "2.5 px above the top")]),
         {"frame": 0, "scale": 2, "probes": [
             P(64, 64, RED8, "scale 2: centre"), A(18, 64, "scale 2: 5 px (output) left of the left end (x = 24)"),
             P(28, 64, RED8, "scale 2: 4.5 px inside the left end")]}])

    # star: 5 points, outer 28, inner 12, first point straight up (angle -90 deg)
    def star_poly(c, n, ro, ri, rot=0):
        pts = []
        for i in range(2 * n):
            ang = math.radians(-90 + rot + i * 180 / n)
            rr = ro if i % 2 == 0 else ri
            pts.append((c[0] + rr * math.cos(ang), c[1] + rr * math.sin(ang)))
        return pts
    poly = star_poly((32, 32), 5, 28, 12)
    ins, outs = [(32, 12), (32, 32), (50, 25)], [(42, 14), (32, 53), (32, 1)]
    for q in ins:
        require(q, poly, True)
    for q in outs:
        require(q, poly, False)
    add("star.json",
        comp([shape_layer(1, [star((32, 32), 5, 28, 12), fill(RED)])]),
        [(0, [P(32, 32, RED8, "centre of the 5-point star")] +
          [P(32, 12, RED8, "inside the top point (first point straight up, radius 28)"),
           P(50, 25, RED8, "inside the upper-right point (at -18 deg)")] +
          [A(q[0], q[1], "outside the star: between points, beyond the inner radius 12") for q in outs[:2]] +
          [A(32, 1, "above the top point (y = 4)")])])

    poly = star_poly((32, 32), 6, 24, 24)[::2]
    for q in [(32, 10), (50, 32)]:
        require(q, poly, True)
    for q in [(55, 32), (32, 5)]:
        require(q, poly, False)
    add("polygon.json",
        comp([shape_layer(1, [star((32, 32), 6, 24, sy=2), fill(RED)])]),
        [(0, [P(32, 32, RED8, "centre of the hexagon"),
              P(32, 10, RED8, "towards the top vertex (radius 24): 21.5 px from the centre"),
              A(55, 32, "the right edge is vertical at x = 52.8 (apothem 20.8): 2.7 px outside"),
              P(50, 32, RED8, "2.3 px inside the vertical right edge"),
              A(32, 5, "above the top vertex (y = 8)")])],
        note="sy 2: a polygon has only outer points; the first is straight up.")

    # polygon roundness: a square (4 points, radius 20, first vertex up) with outer roundness 100
    add("polygon-roundness.json",
        comp([shape_layer(1, [star((32, 32), 4, 20, sy=2, os_=100), fill(RED)])]),
        [(0, [P(32, 32, RED8, "centre"),
              P(43, 21, RED8, "15.6 px towards the upper-right edge midpoint: outside the straight diamond "
                "(apothem 14.1) but inside the rounded one (18.3 there: tangents 2 pi r / 16 long, "
                "perpendicular to the radius)"),
              A(47, 17, "beyond the rounded edge's bulge: 21.2 px out along the diagonal"),
              P(32, 14, RED8, "just inside the top vertex (y = 12): the curve still passes through it")])],
        note="Roundness moves the tangents, not the vertices: the shape bulges out between vertices.")

    add("star-roundness.json",
        comp([shape_layer(1, [star((32, 32), 5, 28, 12, os_=0, is_=100), fill(RED)])]),
        [(0, [P(32, 32, RED8, "centre"), P(32, 12, RED8, "inside the top point (outer roundness 0: sharp)"),
              A(42, 14, "still outside between the points"),
              A(2, 2, "far outside")])],
        note="Inner roundness 100 rounds the notches; probes avoid the rounded curves themselves.")

    # bezier path: a lens from (16, 32) to (48, 32), arcs bulging to y = 20 and y = 44
    lens = path([[16, 32], [48, 32]], ins=[[0, 16], [0, -16]], outs=[[0, -16], [0, 16]])
    add("path-bezier.json",
        comp([shape_layer(1, [lens, fill(RED)])]),
        [(0, [P(32, 32, RED8, "centre of the lens"),
              P(32, 22, RED8, "the upper cubic (16,32) (16,16) (48,16) (48,32) peaks at y = 20"),
              A(32, 17, "above the peak"), P(32, 42, RED8, "the lower cubic bottoms at y = 44"),
              A(32, 47, "below it"), A(10, 32, "left of the lens")])],
        note="Tangents are relative to their vertex; straight segments would enclose nothing.")

    add("path-open-fill.json",
        comp([shape_layer(1, [path([[16, 16], [48, 16], [48, 48]], closed=False), fill(RED)])]),
        [(0, [P(42, 22, RED8, "an open path is filled as if closed: inside the triangle (16,16) (48,16) (48,48)"),
              A(22, 42, "on the other side of the closing edge")])])

    two_squares = [path(rect_path(8, 8, 56, 56)["v"]), path(rect_path(20, 20, 44, 44)["v"])]
    add("fill-rule-nonzero.json",
        comp([shape_layer(1, two_squares + [fill(RED, r=1)])]),
        [(0, [P(32, 32, RED8, "r 1 non-zero: two clockwise squares wind twice in the middle: filled"),
              P(12, 32, RED8, "between the squares")])])
    add("fill-rule-evenodd.json",
        comp([shape_layer(1, two_squares + [fill(RED, r=2)])]),
        [(0, [A(32, 32, "r 2 even-odd: the inner square is a hole"),
              P(12, 32, RED8, "between the squares"), A(4, 4, "outside")])])

    add("fill-opacity-colour.json",
        comp([shape_layer(1, [rect((32, 32), (32, 32)), {"ty": "fl", "nm": "fill",
                                                          "c": st([0.2, 0.4, 0.6, 1]), "o": st(50), "r": 1}])]),
        [(0, [P(32, 32, [51, 102, 153, 128], "fill colour (0.2, 0.4, 0.6) at fill opacity 50 %")])])

    sq_a, sq_b = rect((16, 32), (16, 16)), rect((48, 32), (16, 16))
    add("fill-stroke-order.json",
        comp([shape_layer(1, [group([sq_a, fill(RED), stroke(BLUE, 8)]),
                              group([sq_b, stroke(BLUE, 8), fill(RED)])])]),
        [(0, [P(16, 32, RED8, "inside the left square's fill"),
              P(10, 32, RED8, "left square: the fill is listed above the stroke, so it covers the stroke's "
                "inner half (x 8..12)"),
              P(5, 32, BLUE8, "left square: the stroke's outer half (x 4..8)"),
              P(48, 32, RED8, "inside the right square's fill"),
              P(42, 32, BLUE8, "right square: the stroke is listed above the fill: its inner half (x 40..44) shows"),
              P(37, 32, BLUE8, "right square: the stroke's outer half"),
              A(32, 32, "between the squares")])],
        note="Earlier items in a shape list draw on top of later ones.")


def stroke_files():
    # caps: three horizontal lines x 34..66, width 24, at y = 18, 50, 82 on 100 x 100
    shapes = []
    for y, lc in [(18, 1), (50, 2), (82, 3)]:
        shapes.append(group([path([[34, y], [66, y]], closed=False), stroke(RED, 24, lc=lc)]))
    add("stroke-caps.json", comp([shape_layer(1, shapes)], w=100, h=100),
        [(0, [P(50, 18, RED8, "on the butt-capped line"),
              A(28, 18, "lc 1 butt: nothing beyond the end point x = 34"),
              P(28, 50, RED8, "lc 2 round: the cap reaches 12 px beyond the end"),
              A(23, 39, "lc 2 round: the corner of the square cap's box is outside the round cap (2.8 px)"),
              P(28, 82, RED8, "lc 3 square: the cap reaches 12 px beyond the end"),
              P(23, 71, RED8, "lc 3 square: 1.5 px inside the square cap's corner (22, 70)"),
              A(19, 82, "beyond every cap (x < 22)")])])

    # joins: a right-angle V, vertex (50, 30), legs to (15, 65) and (85, 65), width 30 on 100 x 100
    vee = path([[15, 65], [50, 30], [85, 65]], closed=False)
    for name, lj, ml, probes in [
        ("stroke-join-miter.json", 1, 4, [P(49, 12, RED8, "lj 1 miter: the tip reaches 21.2 px above the vertex (y 8.8)"),
                                          P(49, 17, RED8, "inside the miter"), P(49, 22, RED8, "below every join's edge")]),
        ("stroke-join-round.json", 2, 4, [A(49, 12, "lj 2 round: the join is a radius-15 circle, top y = 15"),
                                          P(49, 17, RED8, "inside the round join"), P(49, 22, RED8, "inside")]),
        ("stroke-join-bevel.json", 3, 4, [A(49, 12, "lj 3 bevel: no tip"),
                                          A(49, 17, "lj 3 bevel: the bevel edge is 10.6 px above the vertex (y 19.4)"),
                                          P(49, 22, RED8, "below the bevel edge")]),
        ("stroke-miter-limit.json", 1, 1.2, [A(49, 12, "ml 1.2 < miter ratio 1/sin(45 deg) = 1.41: bevelled instead"),
                                              A(49, 17, "bevelled: nothing above y 19.4"),
                                              P(49, 22, RED8, "below the bevel edge")])]:
        add(name, comp([shape_layer(1, [vee, stroke(RED, 30, lc=1, lj=lj, ml=ml)])], w=100, h=100),
            [(0, probes + [P(30, 55, RED8, "on the left leg"), A(50, 70, "inside the V, below both legs' strokes")])])

    dashes = [{"n": "d", "nm": "dash", "v": st(8)}, {"n": "g", "nm": "gap", "v": st(8)},
              {"n": "o", "nm": "offset", "v": st(4)}]
    line = path([[4, 32], [60, 32]], closed=False)
    add("stroke-dashes.json", comp([shape_layer(1, [line, stroke(RED, 8, lc=1, dashes=dashes)])]),
        [(0, [A(11, 32, "dash 8 gap 8 offset 4: the first dash ends 4 px in (x 8); gap x 8..16"),
              P(19, 32, RED8, "dash x 16..24"), A(27, 32, "gap x 24..32"), P(35, 32, RED8, "dash x 32..40"),
              A(43, 32, "gap x 40..48"), P(51, 32, RED8, "dash x 48..56"), P(5, 32, RED8, "dash x 4..8"),
              A(32, 25, "above the 8 px wide line")])],
        note="A positive offset moves the pattern's start into the pattern (SVG stroke-dashoffset).")
    dashes = [{"n": "d", "nm": "dash", "v": st(8)}, {"n": "g", "nm": "gap", "v": st(8)},
              {"n": "o", "nm": "offset", "v": an(kf(0, [0]), last(8, [8]))}]
    add("stroke-dashes-animated.json", comp([shape_layer(1, [line, stroke(RED, 8, lc=1, dashes=dashes)])]),
        [(0, [P(7, 32, RED8, "offset 0: dash x 4..12"), A(15, 32, "gap x 12..20"), P(23, 32, RED8, "dash x 20..28")]),
         (8, [A(7, 32, "offset 8 (animated): gap x 4..12"), P(15, 32, RED8, "dash x 12..20"),
              A(23, 32, "gap x 20..28")])])

    add("stroke-opacity-width.json",
        comp([shape_layer(1, [path([[8, 32], [56, 32]], closed=False),
                              stroke(BLUE, an(kf(0, [4]), last(10, [16])), o=50, lc=1)])]),
        [(0, [P(32, 32, [0, 0, 255, 128], "stroke opacity 50 %"), A(32, 27, "width 4 at frame 0: y 30..34")]),
         (10, [P(32, 27, [0, 0, 255, 128], "width 16 at frame 10: y 24..40")])])


def gradient_files():
    full = rect((32, 32), (64, 64))
    add("gradient-linear.json",
        comp([shape_layer(1, [full, gfill(1, (16, 32), (48, 32), [(0, RED), (1, BLUE)])])]),
        [(0, [P(8, 32, RED8, "before the start point: the first stop's colour (pad)"),
              P(32, 32, lerp_rgb(RED, BLUE, 16.5 / 32), "t = (32.5 - 16) / 32 = 0.516", tol=6),
              P(24, 10, lerp_rgb(RED, BLUE, 8.5 / 32), "t = 0.266, independent of y", tol=6),
              P(56, 32, BLUE8, "after the end point: the last stop's colour")])],
        note="Colours interpolate in sRGB, as lottie-web (SVG/canvas) does.")

    add("gradient-linear-stops.json",
        comp([shape_layer(1, [full, gfill(1, (0, 32), (64, 32), [(0, RED), (0.5, GREEN), (1, BLUE)])])]),
        [(0, [P(16, 32, lerp_rgb(RED, GREEN, 16.5 / 32), "between stops 0 (red) and 0.5 (green)", tol=6),
              P(31, 20, lerp_rgb(RED, GREEN, 31.5 / 32), "just before the green stop", tol=6),
              P(48, 32, lerp_rgb(GREEN, BLUE, 16.5 / 32), "between green and blue", tol=6)])])

    def radial_t(px, py, c, r, f):
        """SVG focal radial gradient: the t with px on the circle of centre f + t (c - f), radius t r."""
        dx, dy = px - f[0], py - f[1]
        cx, cy = c[0] - f[0], c[1] - f[1]
        # |d - t c| = t r  ->  (cx^2+cy^2-r^2) t^2 - 2 (d.c) t + |d|^2 = 0
        a = cx * cx + cy * cy - r * r
        b = -2 * (dx * cx + dy * cy)
        cc = dx * dx + dy * dy
        if abs(a) < 1e-12:
            return -cc / b
        disc = b * b - 4 * a * cc
        return max((-b + math.sqrt(disc)) / (2 * a), (-b - math.sqrt(disc)) / (2 * a))

    add("gradient-radial.json",
        comp([shape_layer(1, [full, gfill(2, (32, 32), (56, 32), [(0, RED), (1, BLUE)])])]),
        [(0, [P(32, 32, lerp_rgb(RED, BLUE, math.hypot(0.5, 0.5) / 24), "at the centre: the first stop", tol=6),
              P(44, 32, lerp_rgb(RED, BLUE, math.hypot(12.5, 0.5) / 24), "half the radius 24 out", tol=6),
              P(32, 20, lerp_rgb(RED, BLUE, math.hypot(0.5, 11.5) / 24), "the same distance upwards", tol=6),
              P(2, 2, BLUE8, "beyond the radius: the last stop")])])

    f = (32 + 12, 32)
    add("gradient-radial-highlight.json",
        comp([shape_layer(1, [full, gfill(2, (32, 32), (56, 32), [(0, RED), (1, BLUE)], h=50, a=0)])]),
        [(0, [P(32, 32, lerp_rgb(RED, BLUE, radial_t(32.5, 32.5, (32, 32), 24, f)),
                "h 50, a 0: the focal point sits half the radius towards the end point, at (44, 32); the "
                "centre is a third of the way from it to the circle", tol=8),
              P(44, 32, lerp_rgb(RED, BLUE, radial_t(44.5, 32.5, (32, 32), 24, f)), "at the focal point: the first stop", tol=8),
              P(20, 32, lerp_rgb(RED, BLUE, radial_t(20.5, 32.5, (32, 32), 24, f)), "between the centre and the far edge", tol=8),
              P(62, 62, BLUE8, "beyond the circle")])],
        note="Highlight as lottie-web: focal = s + h% x radius at the angle of (e - s) + a.")

    add("gradient-opacity-stops.json",
        comp([shape_layer(1, [full, gfill(1, (16, 32), (48, 32), [(0, RED), (1, RED)], alphas=[(0, 1), (1, 0)])])]),
        [(0, [P(8, 32, RED8, "before the start: opacity stop 0 is 1"),
              P(32, 32, [255, 0, 0, c8(1 - 16.5 / 32)], "opacity 1 - 0.516", tol=8),
              A(56, 32, "after the end: opacity stop 1 is 0")])],
        note="g.p counts the colour stops; the 4 extra numbers are (offset, alpha) opacity stops.")

    add("gradient-stroke.json",
        comp([shape_layer(1, [path([[8, 32], [56, 32]], closed=False),
                              gstroke(1, (8, 32), (56, 32), [(0, RED), (1, BLUE)], 16)])]),
        [(0, [P(12, 32, lerp_rgb(RED, BLUE, 4.5 / 48), "start of the gradient-stroked line", tol=6),
              P(32, 28, lerp_rgb(RED, BLUE, 24.5 / 48), "the middle, inside the 16 px width", tol=6),
              P(52, 36, lerp_rgb(RED, BLUE, 44.5 / 48), "near the end", tol=6),
              A(32, 21, "2.5 px above the stroke (y 24..40)"), A(4, 32, "before the butt cap")])])

    add("gradient-stroke-radial.json",
        comp([shape_layer(1, [ellipse((32, 32), (40, 40)),
                              gstroke(2, (32, 32), (56, 32), [(0, WHITE), (1, BLACK)], 8)])]),
        [(0, [P(12, 32, lerp_rgb(WHITE, BLACK, 19.5 / 24), "on the ring of radius 20 (width 8): t = r / 24", tol=8),
              P(31, 51, lerp_rgb(WHITE, BLACK, math.hypot(0.5, 19.5) / 24), "bottom of the ring", tol=8),
              A(32, 32, "inside the ring (radius < 16)"), A(3, 3, "outside the ring (radius > 24)")])])


# ================================================================ modifiers: trim, repeater, rounded corners, merge

def modifier_files():
    def trim(s, e, o=0, m=1):
        return {"ty": "tm", "nm": "trim", "s": v(s), "e": v(e), "o": v(o), "m": m}
    line = path([[8, 32], [56, 32]], closed=False)
    red8 = stroke(RED, 8, lc=1)
    add("trim-simple.json", comp([shape_layer(1, [line, trim(25, 75), red8])]),
        [(0, [A(13, 32, "s 25 %: the first 12 px of the 48 px line are trimmed (x < 20)"),
              P(32, 32, RED8, "kept: x 20..44"), A(50, 32, "e 75 %: trimmed after x = 44")])])
    add("trim-offset-wrap.json", comp([shape_layer(1, [line, trim(50, 100, 90), red8])]),
        [(0, [P(11, 32, RED8, "o 90 deg = 25 %: 50..100 % becomes 75..125 %, wrapping to 0..25 % (x 8..20)"),
              P(52, 32, RED8, "and 75..100 % (x 44..56)"), A(32, 32, "the middle (25..75 %) is trimmed away"),
              A(25, 32, "x 20..44 trimmed")])],
        note="lottie-web: offset = o / 360; s + offset > e + offset wraps past 100 %.")
    add("trim-animated.json",
        comp([shape_layer(1, [line, trim(0, an(kf(0, [0]), last(10, [100]))), red8])]),
        [(0, [A(32, 32, "e 0 at frame 0: nothing")]),
         (5, [P(20, 32, RED8, "e 50 % at frame 5: x 8..32"), A(44, 32, "beyond 50 %")]),
         {"frame": 2.5, "probes": [P(14, 32, RED8, "e 25 % at frame 2.5: x 8..20"), A(26, 32, "beyond 25 %")],
          "values": [{"path": "layers[0].shapes[1].e", "value": 25, "why": "linear 0 -> 100 over 10 frames"}],
          "rlottie": False, "note": "fractional frame: rlottie renders whole frames only"}])
    two = [path([[8, 20], [56, 20]], closed=False), path([[8, 44], [56, 44]], closed=False)]
    add("trim-simultaneous.json", comp([shape_layer(1, two + [trim(0, 50, m=1), red8])]),
        [(0, [P(20, 20, RED8, "m 1: each path keeps its own first half"), P(20, 44, RED8, "the second path too"),
              A(44, 20, "second half trimmed"), A(44, 44, "second half trimmed")])])
    add("trim-sequential.json", comp([shape_layer(1, two + [trim(0, 50, m=2), red8])]),
        [(0, [P(20, 20, RED8, "m 2: the paths are one 96 px length; 50 % is all of the first-listed path"),
              P(44, 20, RED8, "the whole first path"),
              A(20, 44, "nothing of the second path"), A(44, 44, "nothing of the second path")])],
        note="Order as lottie-web: the paths in the order listed (it collects them bottom-up, then walks "
             "them backwards).")
    ring = ellipse((32, 32), (40, 40))
    add("trim-closed-ellipse.json",
        comp([shape_layer(1, [ring, trim(0, 25), stroke(RED, 6, lc=1)])]),
        [(0, [P(42, 14, RED8, "an ellipse's path starts at the top and runs clockwise: 0..25 % is the "
                "top-right quarter"),
              A(14, 42, "the bottom-left quarter is trimmed"), A(46, 46, "the bottom-right quarter is trimmed"),
              A(14, 22, "the top-left quarter is trimmed")])],
        note="lottie-web's ellipse path: 4 cubics from the top point (d 1 clockwise).")

    def repeater(c, p=(16, 0), o=0, so=100, eo=100, a=(0, 0), r=0, s=(100, 100)):
        return {"ty": "rp", "nm": "repeater", "c": v(c), "o": v(o), "m": 1,
                "tr": {"ty": "tr", "a": v(a), "p": v(p), "s": v(s), "r": v(r), "so": v(so), "eo": v(eo)}}
    sq = group([rect((12, 32), (8, 8)), fill(RED)])
    add("repeater.json", comp([shape_layer(1, [sq, repeater(3)])]),
        [(0, [P(12, 32, RED8, "copy 0 at the original place"), P(28, 32, RED8, "copy 1: shifted (16, 0)"),
              P(44, 32, RED8, "copy 2: shifted (32, 0)"), A(20, 32, "between copies"),
              A(60, 32, "no fourth copy (c 3)")])])
    add("repeater-offset.json", comp([shape_layer(1, [sq, repeater(3, o=1)])]),
        [(0, [A(12, 32, "o 1: the copies start one step on"), P(28, 32, RED8, "copy at step 1"),
              P(60, 32, RED8, "copy at step 3 (x 56..64)")])])
    add("repeater-opacity.json", comp([shape_layer(1, [sq, repeater(3, so=100, eo=20)])]),
        [(0, [P(12, 32, RED8, "so 100: the first copy opaque"),
              P(28, 32, [255, 0, 0, 153], "the middle copy: 100 + (20 - 100) x 1/2 = 60 %"),
              P(44, 32, [255, 0, 0, 51], "eo 20: the last copy")])],
        rlottie=False, thorvg=False,
        note="lottie-web: copy i of c gets so + (eo - so) x i / (c - 1). rlottie uses i / c (100, 73, 47 %), "
             "ThorVG (i + 1) / c (73, 47, 20 %).")
    add("repeater-rotate.json",
        comp([shape_layer(1, [group([rect((32, 12), (8, 8)), fill(RED)]),
                              repeater(4, p=(0, 0), a=(32, 32), r=90)])]),
        [(0, [P(32, 12, RED8, "copy 0 at the top"), P(52, 32, RED8, "copy 1 turned 90 deg about (32, 32)"),
              P(32, 52, RED8, "copy 2"), P(12, 32, RED8, "copy 3"), A(32, 32, "nothing in the middle"),
              A(48, 16, "nothing between copies")])],
        note="lottie-web: each step turns and scales about the anchor a, then moves by p.")

    add("rounded-corners.json",
        comp([shape_layer(1, [rect((32, 32), (48, 48)), {"ty": "rd", "nm": "round corners", "r": st(16)},
                              fill(RED)])]),
        [(0, [P(32, 32, RED8, "centre"), P(32, 10, RED8, "the straight part of the top edge"),
              A(10, 10, "rd 16 cuts the corner (8, 8): 3.1 px outside a radius-16 round"),
              A(53, 53, "the bottom-right corner likewise"), P(14, 14, RED8, "inside the rounded corner")])])
    add("rounded-corners-path.json",
        comp([shape_layer(1, [path(rect_path(8, 8, 56, 56)["v"]), {"ty": "rd", "nm": "round corners", "r": st(16)},
                              fill(RED)])]),
        [(0, [P(32, 32, RED8, "centre"), P(10, 32, RED8, "the straight part of the left edge"),
              A(10, 10, "the path's corner (8, 8) is rounded away"), A(53, 10, "the top-right corner too"),
              P(14, 14, RED8, "inside the rounded corner")])], rlottie=False,
        note="rlottie rounds only rectangles, not paths.")

    a_sq, b_sq = rect((24, 24), (32, 32)), rect((40, 40), (32, 32))
    regions = {"a": (14, 14), "b": (50, 50), "both": (32, 32)}
    for mode, name, shown, why in [
            (1, "merge", {"a", "b", "both"}, "mm 1 merge: the paths are simply combined (non-zero fill)"),
            (2, "add", {"a", "b", "both"}, "mm 2 add: the union"),
            (3, "subtract", {"a"}, "mm 3 subtract: the first-listed path minus the later one"),
            (4, "intersect", {"both"}, "mm 4 intersect: only the overlap"),
            (5, "exclude", {"a", "b"}, "mm 5 exclude intersections: the union minus the overlap")]:
        probes = []
        for region, (x, y) in regions.items():
            label = {"a": "only the first square", "b": "only the second square", "both": "the overlap"}[region]
            if region in shown:
                probes.append(P(x, y, RED8, f"{label}: drawn ({why})"))
            else:
                probes.append(A(x, y, f"{label}: not drawn ({why})"))
        probes += [A(50, 14, "outside both squares"), A(14, 50, "outside both squares")]
        add(f"merge-{name}.json",
            comp([shape_layer(1, [a_sq, b_sq, {"ty": "mm", "nm": "merge", "mm": mode}, fill(RED)])]),
            [(0, probes)], rlottie=(mode <= 2), thorvg=(mode <= 2),
            note="lottie-web and lottie-ios ignore merge paths; order as lottie-android (path ops: "
                 "first-listed op the rest)" + ("" if mode <= 2 else "; rlottie and ThorVG ignore merge paths"))


# ================================================================ masks, mattes, blend modes

def mask_files():
    def masked(masks, **kw):
        return comp([solid_layer(1, "#ff0000", 64, 64, masksProperties=masks, hasMask=True, **kw)])
    A_ = rect_path(8, 8, 40, 40)       # first mask
    B_ = rect_path(24, 24, 56, 56)     # second mask; overlap 24..40
    reg = {"a": (14, 14), "b": (50, 50), "both": (32, 32), "none": (50, 14)}
    label = {"a": "only mask 1", "b": "only mask 2", "both": "both masks", "none": "neither mask"}

    def probes(alphas, why):
        out = []
        for key, alpha in alphas.items():
            x, y = reg[key]
            if alpha == 0:
                out.append(A(x, y, f"{label[key]}: alpha 0 ({why})"))
            else:
                out.append(P(x, y, [255, 0, 0, alpha], f"{label[key]}: alpha {alpha} ({why})"))
        return out
    add("mask-add.json", masked([mask(rect_path(16, 16, 48, 48))]),
        [(0, [P(32, 32, RED8, "inside the add mask"), A(8, 8, "outside it: the layer is cut away"),
              P(18, 46, RED8, "near the mask's corner (16, 48)"), A(50, 32, "2.5 px right of the mask")])])
    add("mask-subtract-first.json", masked([mask(rect_path(16, 16, 48, 48), mode="s")]),
        [(0, [A(32, 32, "a first subtract mask removes its area from the whole layer"),
              P(8, 8, RED8, "outside the mask: the layer stays")])],
        note="lottie-web: a first mask in mode s or i starts from the full layer.")
    add("mask-add-subtract.json", masked([mask(A_), mask(B_, mode="s")]),
        [(0, probes({"a": 255, "both": 0, "b": 0, "none": 0}, "mask 1 add, mask 2 subtract"))])
    add("mask-intersect.json", masked([mask(A_), mask(B_, mode="i")]),
        [(0, probes({"a": 0, "both": 255, "b": 0, "none": 0}, "mask 1 add, mask 2 intersect"))])
    add("mask-lighten.json", masked([mask(A_, o=50), mask(B_, mode="l", o=50)]),
        [(0, probes({"a": 128, "both": 128, "b": 128, "none": 0},
                    "both at 50 %, mask 2 lighten: the larger coverage where they overlap, not 75 % as add"))],
        rlottie=False, note="After Effects: lighten adds, taking the maximum where masks overlap.")
    add("mask-darken.json", masked([mask(A_, o=100), mask(B_, mode="da", o=50)]),
        [(0, probes({"a": 0, "both": 128, "b": 0, "none": 0},
                    "mask 1 add 100 %, mask 2 darken 50 %: the minimum where they overlap, nothing elsewhere"))],
        rlottie=False, note="After Effects: darken intersects, taking the minimum where masks overlap.")
    add("mask-difference.json", masked([mask(A_), mask(B_, mode="f")]),
        [(0, probes({"a": 255, "both": 0, "b": 255, "none": 0}, "mask 1 add, mask 2 difference"))])
    add("mask-inverted.json", masked([mask(rect_path(16, 16, 48, 48), inv=True)]),
        [(0, [A(32, 32, "inv: the mask's inside is removed"), P(8, 8, RED8, "and its outside kept")])])
    add("mask-opacity.json", masked([mask(rect_path(16, 16, 48, 48), o=50)]),
        [(0, [P(32, 32, [255, 0, 0, 128], "mask opacity 50 %"), A(8, 8, "outside the mask")])])
    add("mask-expansion.json", masked([mask(rect_path(24, 24, 40, 40), x=10)]),
        [(0, [P(16, 32, RED8, "x 10 expands the 24..40 mask to 14..50: 2.5 px inside"),
              P(45, 45, RED8, "inside the expanded corner (50, 50) with a miter or a round corner"),
              A(11, 32, "2.5 px outside the expanded mask")])],
        rlottie=False, note="The mask path grows outwards by x px. rlottie ignores mask expansion.")
    add("mask-animated-path.json",
        comp([solid_layer(1, "#ff0000", 64, 64, hasMask=True, masksProperties=[
            {"inv": False, "mode": "a", "o": st(100), "x": st(0), "nm": "mask",
             "pt": an(kf(0, [rect_path(8, 8, 24, 24)]), last(10, [rect_path(40, 40, 56, 56)]))}])]),
        [(0, [P(16, 16, RED8, "the mask path's first key"), A(48, 48, "not yet there")]),
         (10, [P(48, 48, RED8, "the last key"), A(16, 16, "left the first place")]),
         (5, [P(32, 32, RED8, "halfway: each vertex interpolates, 24..40"), A(16, 16, "no longer"),
              A(48, 48, "not yet")])])

    # track mattes: the matte is the layer above (td 1) unless tp names it
    def content(ind, tt, **kw):
        return solid_layer(ind, "#ff0000", 64, 64, tt=tt, **kw)

    def matte_rect(ind, colour=GREEN, **kw):
        return shape_layer(ind, [rect((32, 32), (32, 32)), fill(colour)], td=1, **kw)
    add("matte-alpha.json", comp([matte_rect(1), content(2, 1)]),
        [(0, [P(32, 32, RED8, "tt 1 alpha matte: the content shows where the matte is opaque; the matte's "
                "own green is never drawn"), A(8, 8, "outside the matte")])])
    add("matte-alpha-inverted.json", comp([matte_rect(1), content(2, 2)]),
        [(0, [A(32, 32, "tt 2 inverted alpha matte: hidden under the matte"), P(8, 8, RED8, "shown outside it")])])
    luma = shape_layer(1, [group([rect((16, 32), (32, 32)), fill(WHITE)]),
                           group([rect((48, 32), (32, 32)), {"ty": "fl", "nm": "grey", "c": st([0.5, 0.5, 0.5, 1]),
                                                              "o": st(100), "r": 1}])], td=1)
    g = c8(0.5)
    add("matte-luma.json", comp([luma, content(2, 3)]),
        [(0, [P(16, 32, RED8, "tt 3 luma matte: white gives full opacity"),
              P(48, 32, [255, 0, 0, g], "50 % grey gives half"),
              A(32, 8, "a transparent matte has luminance 0")])], rlottie=True)
    add("matte-luma-inverted.json", comp([dict(luma), content(2, 4)]),
        [(0, [A(16, 32, "tt 4 inverted luma: white hides"), P(48, 32, [255, 0, 0, 255 - g], "grey gives half"),
              P(32, 8, RED8, "a transparent matte (luminance 0) shows the content fully")])])
    add("matte-tp.json",
        comp([matte_rect(1), shape_layer(2, [rect((6, 6), (12, 12)), fill(BLUE)]), content(3, 1, tp=1)]),
        [(0, [P(32, 32, RED8, "tp 1 names the matte: the content shows inside layer 1's square"),
              P(6, 6, BLUE8, "the layer between is drawn normally"),
              A(56, 56, "outside the named matte")])],
        rlottie=False, note="tp (Bodymovin 5.12): the matte is the layer with ind tp, not the layer above.")
    add("matte-animated.json",
        comp([shape_layer(1, [rect((0, 0), (16, 16)), fill(GREEN)], td=1,
                          kss=ks(p=an(kf(0, [16, 32]), last(10, [48, 32])))), content(2, 1)]),
        [(0, [P(16, 32, RED8, "the matte square at (16, 32)"), A(48, 32, "not yet at 48")]),
         (10, [P(48, 32, RED8, "the matte moved to (48, 32)"), A(16, 32, "no longer at 16")])])


def blend(b, s, mode):
    def sep(fn):
        return [c8(fn(x, y)) for x, y in zip(b, s)]
    def soft(cb, cs):
        if cs <= 0.5:
            return cb - (1 - 2 * cs) * cb * (1 - cb)
        d = ((16 * cb - 12) * cb + 4) * cb if cb <= 0.25 else math.sqrt(cb)
        return cb + (2 * cs - 1) * (d - cb)
    def hard(cb, cs):
        return 2 * cb * cs if cs <= 0.5 else 1 - 2 * (1 - cb) * (1 - cs)
    return {1: sep(lambda cb, cs: cb * cs), 2: sep(lambda cb, cs: cb + cs - cb * cs),
            3: sep(lambda cb, cs: hard(cs, cb)), 4: sep(min), 5: sep(max),
            6: sep(lambda cb, cs: 0 if cb == 0 else 1 if cs >= 1 else min(1, cb / (1 - cs))),
            7: sep(lambda cb, cs: 1 if cb >= 1 else 0 if cs <= 0 else 1 - min(1, (1 - cb) / cs)),
            8: sep(hard), 9: sep(soft), 10: sep(lambda cb, cs: abs(cb - cs)),
            11: sep(lambda cb, cs: cb + cs - 2 * cb * cs)}[mode] + [255]


def blend_files():
    B, S = [0.8, 0.4, 0.2], [0.4, 0.8, 0.6]
    names = {1: "multiply", 2: "screen", 3: "overlay", 4: "darken", 5: "lighten", 6: "color-dodge",
             7: "color-burn", 8: "hard-light", 9: "soft-light", 10: "difference", 11: "exclusion"}
    for mode, name in names.items():
        top = shape_layer(1, [rect((44, 32), (40, 64)), fill(S)], bm=mode)
        bottom = solid_layer(2, "#cc6633", 40, 64)
        add(f"blend-{name}.json", comp([top, bottom]),
            [(0, [P(32, 32, blend(B, S, mode), f"bm {mode} {name}: B(backdrop #cc6633, source #66cc99), "
                  "W3C compositing formulas on 8-bit sRGB", tol=8),
                  P(12, 32, [204, 102, 51, 255], "the backdrop alone"),
                  P(54, 32, [102, 204, 153, 255], "over a transparent backdrop the source shows unchanged")])],
            rlottie=False, thorvg=(mode != 9),
            note="The top layer blends with everything drawn below it. rlottie draws every blend mode as normal." +
                 (" ThorVG's soft light differs from the W3C formula (G 163, not 138)." if mode == 9 else ""))


# ================================================================ keyframes

def keyframe_files():
    sq = [rect((0, 0), (8, 8)), fill(RED)]
    add("keyframe-hold.json",
        comp([shape_layer(1, sq, kss=ks(p=an(kf(0, [16, 32], h=True), last(10, [48, 32]))))]),
        [(9, [P(16, 32, RED8, "h 1: the value holds at the first key until frame 10"), A(48, 32, "not yet moved")]),
         {"frame": 9.5, "probes": [P(16, 32, RED8, "still held at frame 9.5")],
          "values": [{"path": "layers[0].ks.p", "value": [16, 32], "why": "hold keyframe"}],
          "rlottie": False, "note": "fractional frame: rlottie renders whole frames only"},
         (10, [P(48, 32, RED8, "jumps at frame 10"), A(16, 32, "left")])])

    e = cubic_bezier_ease(0.6, 0.0, 1.0, 1.0, 0.5)
    sy = 100 + 700 * e
    edge_y = 10 + 10 * sy / 100
    add("keyframe-easing-per-dimension.json",
        comp([shape_layer(1, [rect((5, 5), (10, 10)), fill(RED)],
                          kss=ks(p=(10, 10), s=an(kf(0, [100, 100], o={"x": [0, 0.6], "y": [0, 0]},
                                                      i={"x": [1, 1], "y": [1, 1]}), last(10, [800, 800]))))],
             w=100, h=100),
        [{"frame": 5, "probes": [
            P(52, 12, RED8, "x eases linearly: scale 450 % at frame 5, the square spans x 10..55"),
            A(58, 12, "beyond x = 55"),
            P(12, math.floor(edge_y) - 3, RED8, f"y eases with (0.6, 0) (1, 1): scale {sy:.2f} %, bottom edge y = {edge_y:.2f}"),
            A(12, math.ceil(edge_y) + 2, "below the eased bottom edge (linear would reach y = 55)")],
          "values": [{"path": "layers[0].ks.s", "value": [450, round(sy, 4)],
                      "why": "o.x/o.y and i.x/i.y hold one curve per dimension"}]}],
        rlottie=False, thorvg=False,
        note="Per-dimension easing as lottie-web: o.x[0], o.y[0] ease x; o.x[1], o.y[1] ease y. rlottie and ThorVG "
             "use the first curve for every dimension.")

    e2 = cubic_bezier_ease(0.42, 0, 0.58, 1, 0.25)
    x_at = 8 + 48 * e2
    add("keyframe-easing.json",
        comp([shape_layer(1, sq, kss=ks(p=an(kf(0, [8, 32], o={"x": [0.42], "y": [0]}, i={"x": [0.58], "y": [1]}),
                                              last(20, [56, 32]))))]),
        [{"frame": 5, "probes": [P(round(x_at) - 1, 32, RED8, f"ease in-out at t 0.25: progress {e2:.4f}, x = {x_at:.2f}"),
                                 A(20, 32, "a linear move would be at x = 20")],
          "values": [{"path": "layers[0].ks.p", "value": [round(x_at, 4), 32], "why": "cubic-bezier(0.42, 0, 0.58, 1)"}]},
         {"frame": 10, "probes": [P(32, 32, RED8, "symmetric easing: halfway at half time")]}])

    add("keyframe-spatial-bezier.json",
        comp([shape_layer(1, sq, kss=ks(p=an(kf(0, [16, 48], to=[0, -32], ti=[0, -32]), last(10, [48, 48]))))]),
        [(0, [P(16, 48, RED8, "the first key")]),
         {"frame": 5, "probes": [P(32, 24, RED8, "to/ti bend the path through (16,16) (48,16): at half time (linear "
                                  "easing, arc-length pacing) the square is at the curve's midpoint (32, 24)"),
                                 A(32, 46, "a straight path would pass (32, 48)")],
          "values": [{"path": "layers[0].ks.p", "value": [32, 24], "why": "symmetric curve: half its length is its midpoint"}]},
         (10, [P(48, 48, RED8, "the last key")])])

    add("keyframe-colour.json",
        comp([shape_layer(1, [rect((32, 32), (32, 32)),
                              {"ty": "fl", "nm": "fill", "o": st(100), "r": 1,
                               "c": an(kf(0, [1, 0, 0, 1]), last(10, [0, 0, 1, 1]))}])]),
        [(0, [P(32, 32, RED8, "red at frame 0")]), (5, [P(32, 32, [128, 0, 128, 255], "halfway: (0.5, 0, 0.5)")]),
         (10, [P(32, 32, BLUE8, "blue at frame 10")])],
        note="Colours interpolate per component in sRGB.")

    add("keyframe-rotation.json",
        comp([shape_layer(1, [rect((0, 0), (40, 8)), fill(RED)], kss=ks(p=(32, 32), r=an(kf(0, [0]), last(10, [180]))))]),
        [(0, [P(48, 32, RED8, "horizontal at 0 deg"), A(32, 48, "not vertical")]),
         (5, [P(32, 48, RED8, "90 deg at frame 5: vertical"), A(48, 32, "no longer horizontal")])])

    add("comp-start-frame.json",
        comp([shape_layer(1, sq, ip=10, op=40, kss=ks(p=an(kf(10, [16, 32]), last(20, [48, 32]))))], op=40, ip=10),
        [(10, [P(16, 32, RED8, "the composition starts at frame ip 10: its first frame shows the first key")]),
         (15, [P(32, 32, RED8, "frame 15 (time 5 / 30 s after the start): halfway")])],
        note="Probe frames are Lottie frame numbers (ip + time x fr), not counted from ip.")

    add("comp-markers.json",
        comp([shape_layer(1, [rect((32, 32), (16, 16)), fill(RED)])],
             markers=[{"tm": 0, "cm": "intro", "dr": 10}, {"tm": 10, "cm": "loop", "dr": 20}]),
        [{"frame": 0, "probes": [P(32, 32, RED8, "a plain square")],
          "markers": [{"name": "intro", "frame": 0, "duration": 10}, {"name": "loop", "frame": 10, "duration": 20}]}])


# ================================================================ text

FONTS = {"list": [{"fName": "DejaVuSans", "fFamily": "DejaVu Sans", "fStyle": "Book", "ascent": 75.97}]}
# DejaVu Sans (2048 units per em): U+2588 FULL BLOCK advances 1575 units; its outline spans x -20..1595 and
# y -512..1921 (baseline 0, y up). The letter H: stems x 201..403 and 1137..1339, bar y 711..881, top 1493.
BLOCK = "\u2588"


def text_layer(ind, text, size, p, j=0, tracking=0, lh=None, fc=RED, sc=None, sw=0):
    doc = {"s": size, "f": "DejaVuSans", "t": text, "j": j, "tr": tracking, "lh": lh or size * 1.2, "ls": 0,
           "fc": fc}
    if sc:
        doc.update({"sc": sc, "sw": sw, "of": True})
    d = layer_common(5, ind, "text", kss=ks(p=p))
    d["t"] = {"d": {"k": [{"s": doc, "t": 0}]}, "p": {}, "m": {"g": 1, "a": st([0, 0])}, "a": []}
    return d


def text_files():
    def tcomp(*layers):
        return comp(list(layers), fonts=FONTS)
    note = "Text is drawn from the fonts list by family (DejaVu Sans); rlottie does not draw text."
    k40 = 40 / 2048
    add("text-block.json", tcomp(text_layer(1, BLOCK, 40, (8, 48))),
        [(0, [P(20, 30, RED8, "inside the full block: size 40 at baseline (8, 48) covers x 7.6..39.2, y 10.5..58"),
              P(10, 13, RED8, "inside its top-left corner"), P(37, 55, RED8, "inside its bottom-right corner"),
              A(44, 30, "right of the block's advance (30.8 px)"), A(20, 6, "above the ascent"),
              A(20, 61, "below the descent")])], rlottie=False, note=note)
    add("text-letter.json", tcomp(text_layer(1, "H", 40, (8, 48))),
        [(0, [P(13, 30, RED8, "the H's left stem: x 11.9..15.9 (201..403 units at 40/2048 from x = 8)"),
              P(32, 40, RED8, "the right stem: x 30.2..34.2"), P(22, 32, RED8, "the bar: y 30.8..34.1"),
              A(22, 24, "between the stems above the bar"), A(22, 42, "between the stems below the bar"),
              A(13, 15, "above the letter (top y = 18.8)")])], rlottie=False, note=note)
    add("text-justify-right.json", tcomp(text_layer(1, BLOCK, 40, (56, 48), j=1)),
        [(0, [P(28, 30, RED8, "j 1 right: the block ends at the anchor x = 56: x 24.9..56.4"),
              A(21, 30, "left of the right-justified block"), A(60, 30, "right of the anchor")])],
        rlottie=False, note=note)
    add("text-justify-center.json", tcomp(text_layer(1, BLOCK, 40, (32, 48), j=2)),
        [(0, [P(19, 30, RED8, "j 2 centre: the block is centred on x = 32: x 16.2..47.8"),
              P(45, 30, RED8, "its right part"), A(13, 30, "left of it"), A(50, 30, "right of it")])],
        rlottie=False, note=note)
    add("text-tracking.json", tcomp(text_layer(1, BLOCK * 2, 20, (8, 40), tracking=500)),
        [(0, [P(16, 32, RED8, "the first block (size 20: x 7.8..23.6)"),
              A(28, 32, "tr 500 adds 500/1000 em = 10 px after each character: a gap x 23.6..33.2"),
              P(40, 32, RED8, "the second block starts at 8 + 15.4 + 10"), A(52, 32, "after the second block")])],
        rlottie=False, note=note)
    add("text-line-height.json", tcomp(text_layer(1, BLOCK + "\r" + BLOCK, 20, (8, 24), lh=30)),
        [(0, [P(16, 17, RED8, "line 1: baseline 24, block y 5.2..29"),
              A(16, 32, "lh 30: line 2's block starts at y 35.2; nothing between"),
              P(16, 47, RED8, "line 2: baseline 54, block y 35.2..59")])], rlottie=False, thorvg=False,
        note=note + " ThorVG draws only the first line (\\r as a line break).")
    add("text-stroke.json",
        comp([text_layer(1, BLOCK, 40, (12, 48), fc=RED, sc=BLUE, sw=8)], fonts=FONTS),
        [(0, [P(27, 34, RED8, "deep inside the block: the fill"),
              P(9, 34, BLUE8, "the 8 px stroke reaches 4 px outside the block's left edge (x 11.6)"),
              P(27, 8, BLUE8, "and 4 px above its top (y 10.5)"), A(4, 34, "beyond the stroke")])],
        rlottie=False, note=note)


# ================================================================ effects

def effect_files():
    base = [rect((28, 28), (24, 24)), fill(RED)]
    shadow = effect(25, "Drop Shadow", [(2, "Shadow Color", [0, 0, 0, 1]), (0, "Opacity", 128),
                                          (0, "Direction", 135), (0, "Distance", 8 * math.sqrt(2)),
                                          (0, "Softness", 0), (7, "Shadow Only", 0)])
    add("effect-drop-shadow.json", comp([shape_layer(1, base, ef=[shadow])]),
        [(0, [P(20, 20, RED8, "the layer itself: 16..40"),
              P(44, 44, [0, 0, 0, 128], "direction 135 deg (0 = up, clockwise), distance 11.3: offset (8, 8); "
                "opacity 128/255; softness 0: a hard shadow over 24..48"),
              P(36, 36, RED8, "the layer draws over its shadow"),
              A(44, 20, "neither"), A(20, 44, "neither")])],
        rlottie=False, note="lottie-web: angle = direction - 90 deg; opacity in 0..255; blur sigma = softness / 4 "
                            "(here 0).")

    blur = effect(29, "Gaussian Blur", [(0, "Blurriness", 20), (7, "Blur Dimensions", 1),
                                        (7, "Repeat Edge Pixels", 0)])
    sigma = 20 * 0.3
    probes = []
    for x in (20, 29, 31, 34, 38, 44):
        d = 32 - (x + 0.5)
        a = 0.5 * (1 + math.erf(d / (sigma * math.sqrt(2))))
        if a * 255 >= 24:
            probes.append(P(x, 32, [255, 0, 0, c8(a)], f"the edge x = 32 blurred with sigma 0.3 x 20 = 6: "
                            f"alpha {a:.3f}", tol=14))
        else:
            probes.append(A(x, 32, f"alpha {a:.3f}: the blur's tail", alpha=c8(a), tol=14))
    probes.append(A(60, 32, "far from the edge: nothing"))
    add("effect-gaussian-blur.json",
        comp([shape_layer(1, [rect((-4, 32), (72, 104)), fill(RED)], ef=[blur])]),
        [(0, probes)], rlottie=False, thorvg=False,
        note="ThorVG's blur is narrower (alpha 20, not 36, 6 px out). lottie-web: sigma = blurriness x 0.3; the rectangle runs past the left, top and bottom edges so "
             "only its right edge x = 32 blurs inside the picture. Colour tolerance allows box-blur approximations.")

    fill_ef = effect(21, "Fill", [(10, "Fill Mask", 0), (7, "All Masks", 0), (2, "Color", [0, 1, 0, 1]),
                                  (7, "Invert", 0), (0, "Horizontal Feather", 0), (0, "Vertical Feather", 0),
                                  (0, "Opacity", 1)])
    add("effect-fill.json", comp([shape_layer(1, base, ef=[fill_ef])]),
        [(0, [P(28, 28, GREEN8, "the fill effect paints the layer's pixels green"),
              A(8, 8, "transparent stays transparent")])], rlottie=False)

    stroke_ef = effect(22, "Stroke", [(10, "Path", 1), (7, "All Masks", 1), (2, "Color", [0, 0, 1, 1]),
                                      (0, "Brush Size", 4), (0, "Brush Hardness", 1), (0, "Opacity", 1),
                                      (0, "Start", 0), (0, "End", 100), (0, "Spacing", 15),
                                      (7, "Paint Style", 1)])
    add("effect-stroke.json",
        comp([solid_layer(1, "#ff0000", 64, 64, hasMask=True, ef=[stroke_ef],
                          masksProperties=[mask(rect_path(16, 16, 48, 48))])]),
        [(0, [P(15, 32, BLUE8, "the stroke effect paints the mask's edge x = 16 (pixel centre 0.5 px off it, "
                "inside half the brush either way)"),
              P(32, 47, BLUE8, "the bottom edge y = 48"),
              P(32, 32, RED8, "paint style 1 (on the original): the masked layer shows inside"),
              A(6, 32, "outside the mask and the stroke")])],
        rlottie=False, thorvg=False,
        note="lottie-web strokes the layer's mask paths (All Masks 1: every mask) with the brush colour. rlottie "
             "ignores the effect; ThorVG 1.0 draws nothing of the layer.")

    greys = [group([rect((12, 32), (16, 32)), fill(WHITE)]),
             group([rect((32, 32), (16, 32)), fill([0.5, 0.5, 0.5])]),
             group([rect((52, 32), (16, 32)), fill(BLACK)])]
    g = 128 / 255
    tint = effect(20, "Tint", [(2, "Map Black To", [0, 0, 1, 1]), (2, "Map White To", [1, 1, 0, 1]),
                               (0, "Amount to Tint", 100)])
    add("effect-tint.json", comp([shape_layer(1, greys, ef=[tint])]),
        [(0, [P(12, 32, [255, 255, 0, 255], "white maps to 'Map White To' (yellow)"),
              P(32, 32, lerp_rgb([0, 0, 1], [1, 1, 0], g), "grey 128 (luminance 0.502 whatever the weights) "
                "maps halfway"),
              P(52, 32, BLUE8, "black maps to 'Map Black To' (blue)"), A(32, 8, "transparent stays transparent")])],
        rlottie=False, note="Greys only, so the result does not depend on the luminance weights.")
    tritone = effect(23, "Tritone", [(2, "Highlights", [1, 1, 0, 1]), (2, "Midtones", [1, 0, 0, 1]),
                                     (2, "Shadows", [0, 0, 1, 1]), (0, "Blend With Original", 0)])
    add("effect-tritone.json", comp([shape_layer(1, greys, ef=[tritone])]),
        [(0, [P(12, 32, [255, 255, 0, 255], "white maps to the highlights colour"),
              P(32, 32, lerp_rgb([1, 0, 0], [1, 1, 0], 2 * g - 1), "grey 128 maps (just past) the midtones colour"),
              P(52, 32, BLUE8, "black maps to the shadows colour")])], rlottie=False)


# ================================================================ expressions

def expression_files():
    note = "Expressions as Bodymovin exports them ($bm_rt); rlottie does not evaluate expressions."
    sq = [rect((32, 32), (32, 32)), fill(RED)]
    add("expression-time.json",
        comp([shape_layer(1, sq, kss=ks(o={"a": 0, "k": 100, "x": "var $bm_rt;\n$bm_rt = time * 100;"}))]),
        [(0, [A(32, 32, "time 0: opacity 0")]), (6, [P(32, 32, [255, 0, 0, 51], "time 0.2 s: opacity 20 %")]),
         (15, [P(32, 32, [255, 0, 0, 128], "time 0.5 s: opacity 50 %")])], rlottie=False, thorvg=False,
        note=note + " ThorVG reads an expression's opacity as 0..255 (alpha 20 for 20 %).")
    add("expression-time-bare.json",
        comp([shape_layer(1, sq, kss=ks(o={"a": 0, "k": 100, "x": "time * 100"}))]),
        [(15, [P(32, 32, [255, 0, 0, 128], "time 0.5 s: opacity 50 % (the value of the last statement)")])],
        rlottie=False, thorvg=False,
        note="Without $bm_rt: After Effects uses the last statement's value; lottie-web needs $bm_rt.")
    small = [rect((0, 0), (8, 8)), fill(RED)]
    add("expression-loop-out.json",
        comp([shape_layer(1, small, kss=ks(p={"a": 1, "k": [kf(0, [16, 32]), last(10, [48, 32])],
                                              "x": "var $bm_rt;\n$bm_rt = loopOut('cycle');"}))]),
        [(5, [P(32, 32, RED8, "inside the keys: x = 32")]),
         (15, [P(32, 32, RED8, "loopOut('cycle') repeats frames 0..10: frame 15 shows frame 5"),
               A(48, 32, "without the loop it would hold at 48")]),
         (22, [P(22, 32, RED8, "frame 22 shows frame 2: x = 16 + 32 x 0.2 = 22.4")])], rlottie=False, note=note)
    add("expression-wiggle.json",
        comp([shape_layer(1, [rect((0, 0), (24, 24)), fill(RED)],
                          kss=ks(p={"a": 0, "k": [32, 32], "x": "var $bm_rt;\n$bm_rt = wiggle(2, 4);"}))]),
        [(f, [P(32, 32, RED8, "wiggle(2, 4) moves the 24 x 24 square at most 4 px each way: the centre stays inside"),
              P(26, 26, RED8, "still inside for any offset within 4"),
              A(50, 32, "beyond the right edge 44 + 4"), A(13, 32, "beyond the left edge 20 - 4"),
              A(32, 50, "beyond the bottom edge 44 + 4")]) for f in (0, 7, 20)],
        rlottie=False, thorvg=False,
        note="Bounds, not values: After Effects' wiggle stays within the amplitude per dimension. lottie-web's "
             "wiggle is a random walk that may leave it.")
    add("expression-value-sum.json",
        comp([shape_layer(1, small, kss=ks(p={"a": 0, "k": [16, 32], "x": "var $bm_rt;\n$bm_rt = $bm_sum(value, [24, 8]);"}))]),
        [(0, [P(40, 40, RED8, "$bm_sum(value, [24, 8]) adds to the static value (16, 32)"),
              A(16, 32, "not at the static value")])], rlottie=False, note=note)


# ================================================================ malformed and unsupported files

def error(name, text, path, keyword, kind, why, line_column=None):
    EXTRA["errors/" + name] = text.encode() if isinstance(text, str) else text
    e = {"file": "errors/" + name, "kind": kind, "path": path, "keyword": keyword}
    if line_column:
        e["line_column"] = line_column
    e["why"] = why
    ERRORS.append(e)


def dumps(obj):
    return json.dumps(obj, separators=(",", ":"))


def error_files():
    ok_layer = shape_layer(1, [rect((32, 32), (16, 16)), fill(RED)])
    good = comp([ok_layer])
    syntax = ('{"v": "5.7.4", "fr": 30, "ip": 0, "op": 30,\n'
              ' "w": 64, "h": 64,\n'
              ' "layers": [ {"ty": 4, "ind": 1 "shapes": []} ]\n'
              '}\n')
    col = syntax.split("\n")[2].index('"shapes"') + 1
    error("syntax.json", syntax, None, f"3:{col}", "malformed",
          "a missing comma: the message gives line:column (1-based) of the first unexpected byte",
          line_column=[3, col])
    cut = dumps(good)
    cut = cut[:cut.index('"h":64,') + len('"h":64,')]
    error("truncated.json", cut, None, f"1:{len(cut) + 1}", "malformed",
          "the text ends after a comma where a key must follow: line:column just past the last byte",
          line_column=[1, len(cut) + 1])
    error("empty.json", "", None, "1:1", "malformed", "an empty file", line_column=[1, 1])
    error("not-json.json", "\x89PNG\r\n\x1a\n", None, "1:1", "malformed", "not text at all: bytes of a PNG",
          line_column=[1, 1])
    d = comp([ok_layer]); del d["layers"]
    error("missing-layers.json", dumps(d), "layers", "missing", "malformed", "the top-level layers array is required")
    d = comp([ok_layer, dict(ok_layer, ind=2), dict(layer_common(99, 3, "odd"))])
    error("layer-type-99.json", dumps(d), "layers[2].ty", "99", "unsupported",
          "a layer type no Lottie player knows")
    zz = {"ty": "zz", "nm": "zig zag", "r": st(10), "s": st(5), "pt": st(1)}
    d = comp([shape_layer(1, [zz, rect((32, 32), (16, 16)), fill(RED)])])
    error("shape-zigzag.json", dumps(d), "layers[0].shapes[0]", "is not supported", "unsupported",
          "zig zag (ty zz) is a real After Effects modifier Lamina does not draw")
    d = comp([shape_layer(1, [rect((32, 32), (16, 16)), fill(RED)], ef=[effect(7, "Mystery", [(0, "Amount", 1)])])])
    error("effect-unknown.json", dumps(d), "layers[0].ef[0]", "is not supported", "unsupported",
          "an effect type (ty 7) with no drawing")
    d = comp([shape_layer(1, [rect((32, 32), (16, 16)), fill(RED)],
                          ef=[effect(27, "Displacement Map", [(10, "Displacement Map Layer", 1)])])])
    error("effect-displacement-map.json", dumps(d), "layers[0].ef[0]", "is not supported", "unsupported",
          "a real After Effects effect (ty 27) that lottie-web does not draw either")
    d = comp([solid_layer(1, "#ff0000", 64, 64, hasMask=True,
                          masksProperties=[dict(mask(rect_path(16, 16, 48, 48)), mode="zz")])])
    error("mask-mode-unknown.json", dumps(d), "layers[0].masksProperties[0].mode", "zz", "malformed",
          "a mask mode that is none of n, a, s, i, l, da, f")
    img = layer_common(2, 1, "image")
    img["refId"] = "image_0"
    d = comp([img], assets=[{"id": "image_0", "w": 32, "h": 32, "u": "images/", "p": "no-such-file.png", "e": 0}])
    error("image-missing-file.json", dumps(d), "assets[0]", "no-such-file.png", "malformed",
          "an external image that is not there")
    d = comp([img], assets=[{"id": "image_0", "w": 32, "h": 32, "u": "", "e": 1,
                             "p": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAYAAABzenr0AAAA"}])
    error("image-bad-data-url.json", dumps(d), "assets[0]", "image", "malformed",
          "a data URL whose PNG is cut short")
    d = comp([shape_layer(1, [rect((32, 32), (16, 16)), fill(RED)], kss=ks(p={"a": 1, "k": 5}))])
    error("keyframes-not-array.json", dumps(d), "layers[0].ks.p", "keyframe", "malformed",
          "a: 1 promises a keyframe array but k is a number")
    d = comp([ok_layer], fr=-30)
    error("negative-frame-rate.json", dumps(d), "fr", "fr", "malformed", "the frame rate must be positive")
    d = comp([ok_layer], w=0)
    error("zero-width.json", dumps(d), "w", "w", "malformed", "the width must be at least 1")
    d = comp([ok_layer], w=1000000, h=1000000)
    error("huge-size.json", dumps(d), "w", "limit", "limit", "a picture larger than the documented size limit")
    pre = layer_common(0, 1, "precomp")
    pre.update({"refId": "comp_missing", "w": 64, "h": 64})
    d = comp([pre], assets=[{"id": "comp_0", "layers": [ok_layer]}])
    error("missing-asset.json", dumps(d), "layers[0].refId", "comp_missing", "malformed",
          "refId names no asset")
    d = comp([shape_layer(1, [rect((32, 32), (16, 16)), fill(RED)], parent=2),
              shape_layer(2, [rect((16, 16), (8, 8)), fill(BLUE)], parent=1)])
    error("parent-cycle.json", dumps(d), "parent", "cycle", "malformed",
          "layer 1's parent is 2 and 2's is 1; the path is layers[0].parent or layers[1].parent")
    deep = '{"ty":"gr","nm":"g","it":[' * 10000 + '{"ty":"tr"}' + ']}' * 10000
    d = dumps(comp([shape_layer(1, ["DEEP"])])).replace('"DEEP"', deep)
    error("deep-groups.json", d, None, "nesting deeper", "limit",
          "10,000 nested groups: a depth limit, not a stack overflow (the path may be cut short)")
    d = comp([shape_layer(1, [rect((32, 32), (16, 16)), fill(RED)], kss=ks(o={"a": 0, "k": "fifty"}))])
    error("string-for-number.json", dumps(d), "layers[0].ks.o", "number", "malformed",
          "a string where a number is expected")
    d = comp([shape_layer(1, [rect((32, 32), (16, 16)), fill(RED)],
                          kss=ks(o={"a": 0, "k": 100, "x": "var $bm_rt;\nwhile (true) {}\n$bm_rt = 1;"}))])
    error("expression-endless.json", dumps(d), "layers[0].ks.o", "expression", "limit",
          "an expression that never ends: stopped by the per-frame time bound")
    d = comp([shape_layer(1, [rect((32, 32), (16, 16)), fill(RED)],
                          kss=ks(o={"a": 0, "k": 100, "x": "var $bm_rt;\nvar a = [];\nwhile (true) { a.push(new Array(1000000).fill(1)); }"}))])
    error("expression-memory.json", dumps(d), "layers[0].ks.o", "expression", "limit",
          "an expression that allocates without end: stopped by the memory bound")


# ================================================================ the same probes at scale 2

SCALED = ["solid-layer.json", "star.json", "polygon.json", "path-bezier.json", "stroke-caps.json",
          "stroke-join-miter.json", "stroke-dashes.json", "trim-offset-wrap.json", "repeater-rotate.json",
          "mask-add.json", "mask-expansion.json", "matte-luma.json", "precomp-clip.json", "transform-skew.json",
          "image-embedded.json", "text-block.json", "text-letter.json", "effect-drop-shadow.json"]


def scaled_checks(scale=2):
    """Flat-colour checks again at scale 2: the probe at pixel (x, y) moves to (2x, 2y), whose centre is a
    quarter point from the original centre, so every margin grows from m to 2m - 0.5 output pixels."""
    for c in list(CHECKS):
        if c["file"] not in SCALED or c["scale"] != 1 or c["frame"] != int(c["frame"]):
            continue
        if any(e["file"] == c["file"] and e["scale"] == scale for e in CHECKS):
            continue
        probes = []
        for p in c["probes"]:
            q = dict(p, x=p["x"] * scale, y=p["y"] * scale, why=f"scale {scale}: " + p["why"])
            probes.append(q)
        entry = dict(c, scale=scale, probes=probes)
        CHECKS.insert(CHECKS.index(c) + 1, entry)


# ================================================================ main

def main():
    layers_files()
    shape_files()
    stroke_files()
    gradient_files()
    modifier_files()
    mask_files()
    blend_files()
    keyframe_files()
    text_files()
    effect_files()
    expression_files()
    error_files()
    scaled_checks()
    for name in sorted(FILES):
        with open(os.path.join(HERE, name), "w") as f:
            f.write(json.dumps(FILES[name], indent=1, sort_keys=False) + "\n")
    for rel, data in sorted(EXTRA.items()):
        full = os.path.join(HERE, rel)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(data)
    with open(os.path.join(HERE, "probes.json"), "w") as f:
        f.write("[\n" + ",\n".join(json.dumps(c, sort_keys=False) for c in CHECKS) + "\n]\n")
    with open(os.path.join(HERE, "errors.json"), "w") as f:
        f.write("[\n" + ",\n".join(json.dumps(e, sort_keys=False) for e in ERRORS) + "\n]\n")
    print(f"{len(FILES)} animations, {len(CHECKS)} checks, "
          f"{sum(len(c['probes']) for c in CHECKS)} probes, {len(ERRORS)} error files")


if __name__ == "__main__":
    main()
