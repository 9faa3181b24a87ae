#!/usr/bin/env python3
"""Lottie conformance checker: renders Lottie files with `lamina render` on the cpu and gles renderers and compares
them with reference pictures (a cases.json with Core Animation snapshots, or rlottie/ThorVG drawing the same
frames), and the two renderers with each other. See docs/lottie-conformance.md.

    python3 tools/lottie-conformance.py ../shared/lottie
    python3 tools/lottie-conformance.py examples/lottie --reference-renderer rlottie
    python3 tools/lottie-conformance.py ../shared/lottie --lamina-substitute rlottie   # checks the checker

Per sample and time it prints the share of pixels off (flattened over white, largest channel differing by more
than 16/255) for each backend, pass/fail (at most 2 % off), and the cpu/gles parity figure (premultiplied RGBA,
share of pixels differing by more than 8/255; at most 0.1 %). Exit status: 0 when every case passes, 1 when one
fails, 2 for bad arguments or a folder with nothing to check.
"""

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lottie_peers as lp  # noqa: E402

LOTTIE_KEYS = ("v", "fr", "ip", "op", "w", "h", "layers")
# With --lamina-substitute, a figure agrees with cases.json's peers_1x figure for the same renderer when it is
# within this many percentage points (rounding of the output size and library builds move them a little).
PEER_TOLERANCE_PP = 0.5


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="lottie-conformance.py",
        description="Render Lottie files with lamina (cpu and gles) and compare them with reference pictures "
                    "and with each other.",
        epilog="The folder holds Lottie .json files and, optionally, cases.json (as ../shared/lottie/cases.json: "
               "per sample w, h, fr, ip, op, scale and per time its reference PNG). Without cases.json every "
               "Lottie file in the folder is checked at --pcts of its duration at --scale against "
               "--reference-renderer. rlottie and ThorVG come from .build/lottie-bench-venv (made on first use).")
    p.add_argument("folder", help="folder of Lottie files (with or without cases.json)")
    p.add_argument("--cases", help="cases file (default FOLDER/cases.json when it exists)")
    p.add_argument("--lamina", help="the lamina binary (default .build/release/lamina, else .build/debug/lamina)")
    p.add_argument("--backend", default="cpu,gles",
                   help="comma-separated renderers to check: cpu, gles or both (default cpu,gles)")
    p.add_argument("--reference-renderer", choices=["snapshots", "rlottie", "thorvg"],
                   help="where the reference pictures come from: the cases' PNGs (snapshots, the default with a "
                        "cases.json) or drawn by rlottie or ThorVG at the same size and frame (the default without)")
    p.add_argument("--lamina-substitute", metavar="R[,R]",
                   help="draw the pictures under test with rlottie or thorvg instead of lamina, to check the "
                        "checker: one name for every backend, or two for cpu,gles (e.g. rlottie,thorvg)")
    p.add_argument("--only", action="append", default=[], metavar="NAME",
                   help="check only this sample (repeatable)")
    p.add_argument("--pcts", default="0,25,50,75",
                   help="without cases.json: the times as percentages of the duration (default 0,25,50,75)")
    p.add_argument("--scale", type=float, default=None,
                   help="without cases.json: the scale (default: the one making the longer side 512 pixels)")
    p.add_argument("--max-off-pct", type=float, default=None,
                   help="a time passes when at most this share of pixels is off (default: cases.json's, else 2)")
    p.add_argument("--off-threshold", type=int, default=16,
                   help="a pixel is off when its largest channel differs by more than this over white (default 16)")
    p.add_argument("--parity-pct", type=float, default=0.1,
                   help="cpu/gles parity bar: at most this share of pixels differ (default 0.1)")
    p.add_argument("--parity-threshold", type=int, default=8,
                   help="cpu/gles parity: a pixel differs by more than this (default 8)")
    p.add_argument("--keep", metavar="DIR", help="keep the rendered pictures (and references drawn by peers) here")
    p.add_argument("--json", metavar="FILE", help="write every figure as JSON")
    p.add_argument("--timeout", type=float, default=300, help="seconds allowed per lamina render (default 300)")
    p.add_argument("--self-test", action="store_true",
                   help="alone: check the PNG codec and the comparisons on pictures with known answers")
    args = p.parse_args(argv)
    backends = [b.strip() for b in args.backend.split(",") if b.strip()]
    for b in backends:
        if b not in ("cpu", "gles"):
            p.error(f"--backend: unknown renderer {b!r} (cpu, gles)")
    if not backends:
        p.error("--backend: no renderer named")
    args.backends = backends
    if args.lamina_substitute:
        names = [n.strip() for n in args.lamina_substitute.split(",")]
        if not 1 <= len(names) <= 2 or any(n not in lp.PEERS for n in names):
            p.error("--lamina-substitute: one or two of rlottie, thorvg")
        args.substitute = {b: names[min(i, len(names) - 1)] for i, b in enumerate(backends)}
    else:
        args.substitute = None
    try:
        args.pct_list = [float(x) for x in args.pcts.split(",") if x.strip()]
    except ValueError:
        p.error("--pcts: comma-separated numbers")
    if args.scale is not None and not (0 < args.scale <= 16):
        p.error("--scale: a number in (0, 16]")
    return args


def looks_like_lottie(path):
    try:
        with open(path, "rb") as f:
            doc = json.load(f)
    except (OSError, ValueError):
        return None
    if isinstance(doc, dict) and all(k in doc for k in LOTTIE_KEYS):
        return doc
    return None


def load_cases(args):
    """Returns (cases, bar). Each case: name, file, w, h, fr, ip, op, scale, times [{pct, time, frame, ref}],
    peers_1x (may be absent)."""
    folder = args.folder
    cases_path = args.cases or os.path.join(folder, "cases.json")
    bar = {"max_off_share_pct": 2.0}
    cases = []
    if os.path.exists(cases_path):
        with open(cases_path) as f:
            doc = json.load(f)
        bar.update(doc.get("bar", {}))
        for c in doc.get("cases", []):
            times = [{"pct": t["pct"], "time": t["time"], "frame": t.get("frame"),
                      "ref": t.get("ref")} for t in c.get("times", [])]
            cases.append({"name": c["name"], "file": os.path.join(folder, c["file"]), "w": c["w"], "h": c["h"],
                          "fr": c["fr"], "ip": c["ip"], "op": c["op"], "scale": c.get("scale", 1.0),
                          "times": times, "peers_1x": c.get("peers_1x", {})})
        default_ref = "snapshots"
    else:
        for fn in sorted(os.listdir(folder)):
            if not fn.endswith(".json"):
                continue
            doc = looks_like_lottie(os.path.join(folder, fn))
            if doc is None:
                continue
            w, h, fr, ip, op = doc["w"], doc["h"], doc["fr"], doc["ip"], doc["op"]
            scale = args.scale if args.scale is not None else 512.0 / max(w, h)
            times = []
            for pct in args.pct_list:
                t = pct / 100.0 * (op - ip) / fr
                times.append({"pct": pct, "time": t, "frame": ip + t * fr, "ref": None})
            cases.append({"name": fn[:-5], "file": os.path.join(folder, fn), "w": w, "h": h, "fr": fr,
                          "ip": ip, "op": op, "scale": scale, "times": times, "peers_1x": {}})
        default_ref = "rlottie"
    if args.only:
        cases = [c for c in cases if c["name"] in args.only]
    args.reference = args.reference_renderer or default_ref
    if args.reference == "snapshots":
        missing = [c["name"] for c in cases if any(not t["ref"] for t in c["times"])]
        if missing:
            raise SystemExit(f"lottie-conformance: no reference PNGs for {', '.join(missing)}; "
                             "use --reference-renderer rlottie|thorvg")
    return cases, bar


def output_size(case):
    # Lamina's output is the composition at the scale; where w*S is not whole it is rounded (the checker compares
    # the common area, so a reference 1 px larger or smaller still lines up at the top left).
    s = case["scale"]
    return max(1, int(math.floor(case["w"] * s + 0.5))), max(1, int(math.floor(case["h"] * s + 0.5)))


def peer_picture(name, case, t, cache):
    w, h = output_size(case)
    key = (name, case["file"], w, h)
    r = cache.get(key)
    if r is None:
        r = lp.make_peer(name, case["file"], w, h, case["ip"])
        cache[key] = r
    frame = t["frame"] if t.get("frame") is not None else case["ip"] + t["time"] * case["fr"]
    r.render(frame)
    return w, h, r.rgba()


def lamina_picture(args, case, t, backend, outdir, cache):
    out = os.path.join(outdir, f"{case['name']}-{fmt_pct(t['pct'])}-{backend}.png")
    if args.substitute:
        w, h, rgba = peer_picture(args.substitute[backend], case, t, cache)
        lp.write_png(out, w, h, rgba)
    else:
        cmd = [args.lamina, "render", case["file"], "--time", repr(float(t["time"])), "--scale",
               repr(float(case["scale"])), "--backend", backend, "-o", out]
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
        except subprocess.TimeoutExpired:
            return None, f"timed out after {args.timeout:g} s"
        if r.returncode != 0:
            msg = (r.stderr.strip() or r.stdout.strip() or "no message").splitlines()
            kind = "refused" if r.returncode == 2 else f"exit {r.returncode}"
            return None, f"{kind}: {msg[0]}" + (f" (+{len(msg) - 1} lines)" if len(msg) > 1 else "")
    try:
        return lp.read_png(out), None
    except (OSError, lp.PNGError) as e:
        return None, f"unreadable output: {e}"


def fmt_pct(p):
    return str(int(p)) if float(p).is_integer() else str(p)


try:
    import numpy as _np
except ImportError:  # pure Python path below
    _np = None


def off_share(a, b, threshold):
    """Share (%) of the common area's pixels whose largest channel differs by more than threshold once both
    straight RGBA pictures are flattened over white."""
    (wa, ha, pa), (wb, hb, pb) = a, b
    w, h = min(wa, wb), min(ha, hb)
    if _np is not None:
        A = _np.frombuffer(pa, _np.uint8).reshape(ha, wa, 4)[:h, :w].astype(_np.int32)
        B = _np.frombuffer(pb, _np.uint8).reshape(hb, wb, 4)[:h, :w].astype(_np.int32)

        def flat(X):
            al = X[..., 3:4]
            return (X[..., :3] * al + 255 * (255 - al) + 127) // 255

        d = _np.abs(flat(A) - flat(B)).max(axis=2)
        return 100.0 * float((d > threshold).sum()) / (w * h)
    off = 0
    for y in range(h):
        ra, rb = y * wa * 4, y * wb * 4
        for x in range(w):
            ia, ib = ra + x * 4, rb + x * 4
            aa, ab = pa[ia + 3], pb[ib + 3]
            for k in range(3):
                ca = (pa[ia + k] * aa + 255 * (255 - aa) + 127) // 255
                cb = (pb[ib + k] * ab + 255 * (255 - ab) + 127) // 255
                if abs(ca - cb) > threshold:
                    off += 1
                    break
    return 100.0 * off / (w * h)


def parity_share(a, b, threshold):
    """Share (%) of pixels whose premultiplied RGBA differs by more than threshold in some channel."""
    (wa, ha, pa), (wb, hb, pb) = a, b
    w, h = min(wa, wb), min(ha, hb)
    if _np is not None:
        def pm(X, ww, hh):
            X = _np.frombuffer(X, _np.uint8).reshape(hh, ww, 4)[:h, :w].astype(_np.int32)
            al = X[..., 3:4]
            return _np.concatenate([(X[..., :3] * al + 127) // 255, al], axis=2)

        d = _np.abs(pm(pa, wa, ha) - pm(pb, wb, hb)).max(axis=2)
        return 100.0 * float((d > threshold).sum()) / (w * h)
    qa, qb = lp.premultiply(pa), lp.premultiply(pb)
    off = 0
    for y in range(h):
        ra, rb = y * wa * 4, y * wb * 4
        for x in range(w):
            ia, ib = ra + x * 4, rb + x * 4
            if any(abs(qa[ia + k] - qb[ib + k]) > threshold for k in range(4)):
                off += 1
    return 100.0 * off / (w * h)


def _filtered_png(path, width, height, rgba):
    """Writes RGBA with the row filters 0, 1, 2, 3, 4 in turn (the self-test's PNG; lp.write_png uses filter 0)."""
    import struct
    import zlib
    stride = width * 4
    rows, prev = [], bytes(stride)
    for y in range(height):
        line = rgba[y * stride:(y + 1) * stride]
        f = y % 5
        out = bytearray()
        for i in range(stride):
            left = line[i - 4] if i >= 4 else 0
            up = prev[i]
            ul = prev[i - 4] if i >= 4 else 0
            pred = (0, left, up, (left + up) >> 1, lp._paeth(left, up, ul))[f]
            out.append((line[i] - pred) & 255)
        rows.append(bytes((f,)) + bytes(out))
        prev = line

    def chunk(t, body):
        return struct.pack(">I", len(body)) + t + body + struct.pack(">I", zlib.crc32(t + body) & 0xFFFFFFFF)

    with open(path, "wb") as fh:
        fh.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
                 + chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b""))


def self_test():
    """Checks the PNG codec and the two comparisons on pictures with known answers; prints one line per check."""
    global _np
    results = []

    def check(name, got, want):
        ok = got == want if not isinstance(want, float) else abs(got - want) < 1e-9
        results.append(ok)
        shown = "the same pixels" if ok and isinstance(want, tuple) else repr(got)[:80]
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {shown}" + ("" if ok else f" (expected {repr(want)[:80]})"))

    w, h = 10, 10
    base = bytearray()
    for y in range(h):
        for x in range(w):
            base += bytes(((x * 25) & 255, (y * 25) & 255, (x * y) & 255, 255 if (x + y) % 3 else 128))
    base = bytes(base)
    with tempfile.TemporaryDirectory() as d:
        for name, writer in (("filter 0", lp.write_png), ("filters 0-4", _filtered_png)):
            path = os.path.join(d, "t.png")
            writer(path, w, h, base)
            check(f"PNG round trip, {name}", lp.read_png(path), (w, h, base))
    for use_numpy in ([True, False] if _np is not None else [False]):
        saved = _np
        if not use_numpy:
            _np = None
        tag = "numpy" if use_numpy else "pure Python"
        a = (w, h, bytes(b"\x80\x80\x80\xff" * (w * h)))
        b17 = bytearray(a[2])
        b16 = bytearray(a[2])
        for i in (0, 5, 99):
            b17[i * 4 + 1] = 0x80 + 17
            b16[i * 4 + 1] = 0x80 + 16
        check(f"off share, 3 of 100 pixels 17/255 apart ({tag})", off_share(a, (w, h, bytes(b17)), 16), 3.0)
        check(f"off share, 3 of 100 pixels 16/255 apart ({tag})", off_share(a, (w, h, bytes(b16)), 16), 0.0)
        clear = (w, h, bytes(b"\x12\x34\x56\x00" * (w * h)))
        white = (w, h, bytes(b"\xff\xff\xff\xff" * (w * h)))
        check(f"transparent equals white once flattened ({tag})", off_share(clear, white, 16), 0.0)
        other_clear = (w, h, bytes(b"\xff\x00\x00\x00" * (w * h)))
        check(f"parity ignores the colour of clear pixels ({tag})", parity_share(clear, other_clear, 8), 0.0)
        half = (w, h, bytes(b"\xff\x00\x00\x80" * (w * h)))
        check(f"parity, half-transparent red against clear ({tag})", parity_share(half, clear, 8), 100.0)
        wide = (w + 1, h, bytes(b"\x80\x80\x80\xff" * ((w + 1) * h)))
        check(f"a picture 1 px wider: common area compared ({tag})", off_share(a, wide, 16), 0.0)
        _np = saved
    print(f"{sum(results)} passed, {len(results) - sum(results)} failed")
    return 0 if all(results) else 1


def main(argv):
    if argv == ["--self-test"]:
        return self_test()
    args = parse_args(argv)
    if not os.path.isdir(args.folder):
        print(f"lottie-conformance: {args.folder}: not a folder", file=sys.stderr)
        return 2
    # The peers (and numpy, which only makes the comparisons faster) live in the venv: made when a peer is needed,
    # used whenever it exists.
    need_peers = bool(args.substitute) or args.reference_renderer in ("rlottie", "thorvg") or not os.path.exists(
        args.cases or os.path.join(args.folder, "cases.json"))
    lp.ensure_venv([os.path.abspath(__file__)] + argv, create=need_peers)
    if not args.substitute:
        if args.lamina is None:
            for cand in (".build/release/lamina", ".build/debug/lamina"):
                path = os.path.join(lp.ROOT, cand)
                if os.path.exists(path):
                    args.lamina = path
                    break
        if args.lamina is None or not os.path.exists(args.lamina):
            print("lottie-conformance: no lamina binary: run `swift build -c release --product lamina` "
                  "or pass --lamina PATH", file=sys.stderr)
            return 2
    cases, bar = load_cases(args)
    if not cases:
        print(f"lottie-conformance: {args.folder}: no Lottie files to check", file=sys.stderr)
        return 2
    max_off = args.max_off_pct if args.max_off_pct is not None else float(bar.get("max_off_share_pct", 2.0))
    outdir = args.keep or tempfile.mkdtemp(prefix="lottie-conformance-")
    os.makedirs(outdir, exist_ok=True)
    cache = {}
    what = ("lamina " + args.lamina) if not args.substitute else \
        "substitute " + ", ".join(f"{b}={n}" for b, n in args.substitute.items())
    print(f"pictures under test: {what}; references: {args.reference}; off > {args.off_threshold}/255 over white, "
          f"pass <= {max_off:g} %; parity > {args.parity_threshold}/255, pass <= {args.parity_pct:g} %")
    cols = "".join(f" {b + ' off%':>10}" for b in args.backends)
    extra = "  peer@1x%" if args.substitute else ""
    print(f"{'sample':<28} {'pct':>4} {'time s':>8}{cols} {'parity%':>8}{extra}  result")
    report = {"reference": args.reference, "under_test": what, "max_off_pct": max_off,
              "off_threshold": args.off_threshold, "parity_pct": args.parity_pct,
              "parity_threshold": args.parity_threshold, "cases": []}
    failed = 0
    samples_failed = 0
    peer_checks = []
    for case in cases:
        crep = {"name": case["name"], "scale": case["scale"], "times": [], "pass": True}
        for i, t in enumerate(case["times"]):
            if args.reference == "snapshots":
                ref = lp.read_png(os.path.join(os.path.dirname(case["file"]), t["ref"]))
            else:
                ref = peer_picture(args.reference, case, t, cache)
                if args.keep:
                    lp.write_png(os.path.join(outdir, f"{case['name']}-{fmt_pct(t['pct'])}-ref-{args.reference}.png"),
                                 *ref)
            trep = {"pct": t["pct"], "time": t["time"], "backends": {}, "pass": True}
            pics = {}
            cells = []
            for b in args.backends:
                pic, err = lamina_picture(args, case, t, b, outdir, cache)
                if pic is None:
                    trep["backends"][b] = {"error": err, "pass": False}
                    trep["pass"] = False
                    cells.append(f" {'ERROR':>10}")
                    continue
                pics[b] = pic
                share = off_share(pic, ref, args.off_threshold)
                ok = share <= max_off
                size_note = None
                if (pic[0], pic[1]) != (ref[0], ref[1]):
                    size_note = f"{pic[0]}x{pic[1]} vs reference {ref[0]}x{ref[1]}: common area compared"
                    if abs(pic[0] - ref[0]) > 1 or abs(pic[1] - ref[1]) > 1:
                        ok = False
                        size_note += " (more than 1 px apart: fails)"
                trep["backends"][b] = {"off_pct": round(share, 3), "pass": ok, "size": [pic[0], pic[1]]}
                if size_note:
                    trep["backends"][b]["size_note"] = size_note
                trep["pass"] = trep["pass"] and ok
                cells.append(f" {share:>10.3f}")
            parity = None
            if "cpu" in pics and "gles" in pics:
                parity = parity_share(pics["cpu"], pics["gles"], args.parity_threshold)
                trep["parity_pct"] = round(parity, 3)
                if parity > args.parity_pct:
                    trep["pass"] = False
            peer_col = ""
            if args.substitute:
                names = sorted(set(args.substitute.values()))
                figs = []
                for n in names:
                    shares = case["peers_1x"].get(n, {}).get("shares_pct")
                    figs.append(f"{shares[i]:.3f}" if shares and i < len(shares) else "-")
                    trep.setdefault("peers_1x", {})[n] = shares[i] if shares and i < len(shares) else None
                peer_col = f"  {'/'.join(figs):>8}"
                for b, n in args.substitute.items():
                    exp = trep["peers_1x"].get(n)
                    got = trep["backends"].get(b, {}).get("off_pct")
                    if exp is not None and got is not None:
                        peer_checks.append((abs(exp - got) <= PEER_TOLERANCE_PP, (exp <= max_off) == (got <= max_off)))
            pstr = f"{parity:.3f}" if parity is not None else "-"
            verdict = "pass" if trep["pass"] else "FAIL"
            notes = [f"{b}: {v['error']}" for b, v in trep["backends"].items() if "error" in v]
            notes += [f"{b}: {v['size_note']}" for b, v in trep["backends"].items()
                      if "size_note" in v and "fails" in v["size_note"]]
            print(f"{case['name'][:28]:<28} {fmt_pct(t['pct']):>4} {t['time']:>8.3f}{''.join(cells)} {pstr:>8}"
                  f"{peer_col}  {verdict}" + ("  (" + "; ".join(notes) + ")" if notes else ""), flush=True)
            if not trep["pass"]:
                failed += 1
                crep["pass"] = False
            crep["times"].append(trep)
        if not crep["pass"]:
            samples_failed += 1
        report["cases"].append(crep)
    n_times = sum(len(c["times"]) for c in cases)
    print(f"{len(cases) - samples_failed} of {len(cases)} samples pass ({n_times - failed} of {n_times} times)")
    if peer_checks:
        agree = sum(1 for a, _ in peer_checks if a)
        verdicts = sum(1 for _, v in peer_checks if v)
        print(f"substitute check against cases.json's peers_1x figures for the same renderer: {verdicts} of "
              f"{len(peer_checks)} pass/fail verdicts agree, {agree} figures within {PEER_TOLERANCE_PP} "
              f"percentage points")
        report["peer_verdicts_agree"] = [verdicts, len(peer_checks)]
        report["peer_figures_agree"] = [agree, len(peer_checks)]
    report["samples_passed"] = len(cases) - samples_failed
    report["samples"] = len(cases)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    if not args.keep:
        for fn in os.listdir(outdir):
            os.remove(os.path.join(outdir, fn))
        os.rmdir(outdir)
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
