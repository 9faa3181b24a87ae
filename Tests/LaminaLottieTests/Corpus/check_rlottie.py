#!/usr/bin/env python3
"""Holds probes.json against rlottie (and ThorVG as a second opinion).

    python3 -m venv /tmp/venv-rlottie
    /tmp/venv-rlottie/bin/pip install rlottie-python thorvg-python pillow
    /tmp/venv-rlottie/bin/python check_rlottie.py [--save DIR] [--only SUBSTRING] [--all]

For every check in probes.json it renders the file at the check's frame and scale and compares each probe:
with rlottie where the check says "rlottie": true (whole frames only: rlottie cannot draw between frames),
with ThorVG where it says "thorvg": true (any frame). Failures are printed one per line; the exit status is 1
when any required probe fails. --all also runs the renderer marked false and prints what it gets (as
"note:" lines, not failures), which is how the false marks were found. --save writes every render as PNG.
Frames in probes.json are Lottie frame numbers; both libraries count frames from the composition's ip.
"""
import argparse
import ctypes
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def unpremultiply(buf):
    """BGRA premultiplied bytes (rlottie's ARGB32 in memory) -> straight RGBA bytes."""
    out = bytearray(len(buf))
    for i in range(0, len(buf), 4):
        b, g, r, a = buf[i], buf[i + 1], buf[i + 2], buf[i + 3]
        if a:
            r, g, b = (min(255, (c * 255 + a // 2) // a) for c in (r, g, b))
        out[i:i + 4] = bytes((r, g, b, a))
    return bytes(out)


class Rlottie:
    name = "rlottie"

    def __init__(self):
        from rlottie_python import LottieAnimation
        self.cls = LottieAnimation

    def render(self, path, doc, frame, scale):
        if frame != int(frame):
            return None
        w, h = int(round(doc["w"] * scale)), int(round(doc["h"] * scale))
        anim = self.cls.from_file(path)
        buf = anim.lottie_animation_render(frame_num=int(frame) - int(doc.get("ip", 0)), width=w, height=h)
        return w, h, unpremultiply(buf)


class ThorVG:
    name = "thorvg"

    def __init__(self):
        import thorvg_python as tvg
        self.tvg = tvg
        self.engine = tvg.Engine()
        self.engine.init(0)
        tvg.Text(self.engine).font_load(FONT)

    def render(self, path, doc, frame, scale):
        tvg = self.tvg
        w, h = int(round(doc["w"] * scale)), int(round(doc["h"] * scale))
        canvas = tvg.SwCanvas(self.engine)
        canvas.set_target(w, h, cs=tvg.Colorspace.ABGR8888S)
        anim = tvg.LottieAnimation(self.engine)
        pic = anim.get_picture()
        if pic.load(path) != tvg.Result.SUCCESS:
            return None
        pic.set_size(w, h)
        anim.set_frame(float(frame) - float(doc.get("ip", 0)))
        canvas.add(pic)
        canvas.update()
        canvas.draw(True)
        canvas.sync()
        data = bytes(canvas.buffer_arr)
        canvas.destroy()
        return w, h, data


def probe_failures(image, probes):
    w, h, data = image
    failures = []
    for p in probes:
        i = (p["y"] * w + p["x"]) * 4
        got = list(data[i:i + 4])
        tol = p["tolerance"]
        if "rgba" in p:
            want = p["rgba"]
            bad = any(abs(a - b) > tol for a, b in zip(got, want))
        else:
            want = ["-", "-", "-", p["alpha"]]
            bad = abs(got[3] - p["alpha"]) > tol
        if bad:
            failures.append(f"({p['x']}, {p['y']}) want {want} got {got} ({p['why']})")
    return failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--save", help="write every render to this folder as PNG")
    ap.add_argument("--only", help="check only files whose name contains this")
    ap.add_argument("--all", action="store_true", help="also report renderers marked false (as notes)")
    args = ap.parse_args()
    checks = json.load(open(os.path.join(HERE, "probes.json")))
    renderers = [Rlottie(), ThorVG()]
    required_failures = 0
    counts = {r.name: [0, 0] for r in renderers}   # checked, failed
    for c in checks:
        if args.only and args.only not in c["file"]:
            continue
        path = os.path.join(HERE, c["file"])
        doc = json.load(open(path))
        for r in renderers:
            required = c[r.name]
            if not required and not args.all:
                continue
            image = r.render(path, doc, c["frame"], c["scale"])
            if image is None:
                continue
            if args.save:
                from PIL import Image
                os.makedirs(args.save, exist_ok=True)
                stem = f"{c['file'][:-5]}-f{c['frame']:g}-s{c['scale']:g}-{r.name}.png"
                Image.frombytes("RGBA", image[:2], image[2]).save(os.path.join(args.save, stem))
            fails = probe_failures(image, c["probes"])
            label = f"{c['file']} frame {c['frame']:g} scale {c['scale']:g} {r.name}"
            if required:
                counts[r.name][0] += 1
                if fails:
                    counts[r.name][1] += 1
                    required_failures += len(fails)
                for f in fails:
                    print(f"FAIL {label}: {f}")
            else:
                print(f"note {label}: " + ("all probes agree" if not fails else f"{len(fails)} of "
                                           f"{len(c['probes'])} probes differ: " + "; ".join(fails)))
    for name, (n, bad) in counts.items():
        print(f"{name}: {n - bad} of {n} checks pass")
    return 1 if required_failures else 0


if __name__ == "__main__":
    sys.exit(main())
