#!/usr/bin/env python3
"""Lottie benchmark: every frame of the sample animations at 512 x 512 drawn by rlottie, ThorVG and Lamina in one
run, in ms per frame. See docs/benchmarks.md, "Lottie".

    swift build -c release --product lamina
    python3 tools/lottie-bench.py                          # examples/lottie/*.json, table on stdout
    python3 tools/lottie-bench.py --json lottie-bench.json --runs 5 examples/lottie/crowd.json

- rlottie (rlottie-python) and ThorVG (thorvg-python, engine threads 0): each frame rendered into a buffer the
  script keeps (no PNG encoding, no copy out), timed around the render call alone; the file is loaded once, before
  timing (its load time is reported apart).
- Lamina: the wall time of `lamina export FILE --format raw -o /dev/null --no-sidecar --jobs N --scale 512/w
  --backend cpu`
  (with --fps and --duration set to the file's frame rate and (op - ip) / fr, so every frame ip...op-1 is drawn)
  divided by the frame count. Process start, reading and mapping the file are included; a one-frame export is
  timed too, to say what that start costs.
- Each figure is the median of --runs runs (default 3). The peers render with one thread; Lamina's --jobs 1 row is
  the comparable one, the others show scaling.

rlottie-python and thorvg-python live in .build/lottie-bench-venv (made on first use from PyPI).
"""

import argparse
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lottie_peers as lp  # noqa: E402

SAMPLES = ["spinner", "gradients", "precomps", "crowd", "morph"]


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="lottie-bench.py",
        description="ms per frame for every frame of Lottie files at 512 x 512: rlottie, ThorVG and "
                    "`lamina export --format raw -o /dev/null` (cpu), medians of several runs.",
        epilog="Build the lamina binary first: swift build -c release --product lamina. Without it (or when it "
               "refuses Lottie files) only the peers are measured and Lamina's columns say why.")
    p.add_argument("files", nargs="*",
                   help="Lottie JSON files (default: examples/lottie/{%s}.json)" % ",".join(SAMPLES))
    p.add_argument("--lamina", help="the lamina binary (default .build/release/lamina)")
    p.add_argument("--runs", type=int, default=3, help="runs per figure; the median is reported (default 3)")
    p.add_argument("--jobs", default=None,
                   help="comma-separated --jobs values for Lamina (default 1,2 and the core count)")
    p.add_argument("--size", type=int, default=512, help="the longer side of the output in pixels (default 512)")
    p.add_argument("--tools", default="rlottie,thorvg,lamina",
                   help="comma-separated subset of rlottie, thorvg, lamina (default all three)")
    p.add_argument("--json", metavar="FILE", help="write every figure as JSON")
    p.add_argument("--timeout", type=float, default=600, help="seconds allowed per lamina run (default 600)")
    args = p.parse_args(argv)
    if args.runs < 1:
        p.error("--runs: at least 1")
    if not 16 <= args.size <= 8192:
        p.error("--size: 16...8192")
    args.tool_list = [t.strip() for t in args.tools.split(",") if t.strip()]
    for t in args.tool_list:
        if t not in ("rlottie", "thorvg", "lamina"):
            p.error(f"--tools: unknown tool {t!r}")
    cores = os.cpu_count() or 1
    if args.jobs is None:
        jobs = [1, 2, cores]
    else:
        try:
            jobs = [int(j) for j in args.jobs.split(",") if j.strip()]
        except ValueError:
            p.error("--jobs: comma-separated whole numbers")
        if not jobs or any(j < 1 for j in jobs):
            p.error("--jobs: whole numbers of at least 1")
    args.job_list = sorted(set(jobs))
    if not args.files:
        args.files = [os.path.join(lp.ROOT, "examples", "lottie", n + ".json") for n in SAMPLES]
    return args


def load_lottie(path):
    with open(path) as f:
        doc = json.load(f)
    for k in ("fr", "ip", "op", "w", "h", "layers"):
        if k not in doc:
            raise SystemExit(f"lottie-bench: {path}: not a Lottie file (no {k!r})")
    return doc


def peer_figures(name, path, doc, width, height, runs):
    t0 = time.perf_counter()
    r = lp.make_peer(name, path, width, height, doc["ip"])
    load_ms = (time.perf_counter() - t0) * 1000
    ip, op = doc["ip"], doc["op"]
    frames = [ip + k for k in range(int(math.ceil(op - ip)))]
    per_run = []
    clock = time.perf_counter
    for _ in range(runs):
        total = 0.0
        for f in frames:
            t = clock()
            r.render(f)
            total += clock() - t
        per_run.append(total * 1000 / len(frames))
    return {"ms_per_frame": statistics.median(per_run), "runs_ms_per_frame": per_run, "load_ms": load_ms,
            "frames": len(frames)}


def lamina_cmd(args, path, doc, scale, jobs, frames):
    fr = doc["fr"]
    # --no-sidecar: a raw file's sidecar is the file's name with .json added, which for /dev/null is a new file
    # in /dev
    return [args.lamina, "export", path, "--format", "raw", "-o", "/dev/null", "--no-sidecar", "--jobs", str(jobs),
            "--scale", repr(scale), "--backend", "cpu", "--fps", repr(float(fr)),
            "--duration", repr(frames / float(fr))]


def run_lamina(cmd, timeout):
    t = time.perf_counter()
    try:
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"timed out after {timeout:g} s"
    wall = time.perf_counter() - t
    if r.returncode != 0:
        lines = (r.stderr or "").strip().splitlines()
        return None, f"exit {r.returncode}: " + (lines[0] if lines else "no message")
    return wall, None


def count_lamina_frames(args, path, doc, scale, frames, width, height):
    """One untimed export to stdout (also a warm-up): checks that it writes the expected number of frames."""
    cmd = lamina_cmd(args, path, doc, scale, 1, frames)
    cmd[cmd.index("-o") + 1] = "-"
    try:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as e:
        return f"cannot run {args.lamina}: {e}"
    total = 0
    while True:
        chunk = p.stdout.read(1 << 20)
        if not chunk:
            break
        total += len(chunk)
    err = p.stderr.read().decode(errors="replace").strip()
    p.wait()
    if p.returncode != 0:
        return f"exit {p.returncode}: " + (err.splitlines()[0] if err else "no message")
    frame_bytes = width * height * 4
    if total != frame_bytes * frames:
        return (f"wrote {total} bytes, expected {frames} frames of {width} x {height} x 4 = "
                f"{frame_bytes * frames}")
    return None


def lamina_figures(args, path, doc, scale, width, height):
    frames = int(math.ceil(doc["op"] - doc["ip"]))
    out = {"frames": frames, "jobs": {}}
    err = count_lamina_frames(args, path, doc, scale, frames, width, height)
    if err:
        out["error"] = err
        return out
    one, err = run_lamina(lamina_cmd(args, path, doc, scale, 1, 1), args.timeout)
    if err is None:
        ones = [one] + [run_lamina(lamina_cmd(args, path, doc, scale, 1, 1), args.timeout)[0] or one
                        for _ in range(args.runs - 1)]
        out["one_frame_run_ms"] = statistics.median(ones) * 1000
    for j in args.job_list:
        walls = []
        for _ in range(args.runs):
            wall, err = run_lamina(lamina_cmd(args, path, doc, scale, j, frames), args.timeout)
            if err:
                out["jobs"][str(j)] = {"error": err}
                break
            walls.append(wall)
        else:
            out["jobs"][str(j)] = {"ms_per_frame": statistics.median(walls) * 1000 / frames,
                                   "runs_wall_s": walls}
    return out


def geomean(xs):
    xs = [x for x in xs if x is not None and x > 0]
    if not xs:
        return None
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def fmt(x, w=9, d=3):
    return f"{x:>{w}.{d}f}" if isinstance(x, (int, float)) else f"{(x or '-'):>{w}}"


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main(argv):
    args = parse_args(argv)
    if "rlottie" in args.tool_list or "thorvg" in args.tool_list:
        lp.ensure_venv([os.path.abspath(__file__)] + argv)
    lamina_note = None
    if "lamina" in args.tool_list:
        if args.lamina is None:
            args.lamina = os.path.join(lp.ROOT, ".build", "release", "lamina")
        if not os.path.exists(args.lamina):
            lamina_note = (f"no lamina binary at {args.lamina}: run `swift build -c release --product lamina` "
                           "or pass --lamina PATH")
            print("lottie-bench: " + lamina_note, file=sys.stderr)
    docs = []
    for path in args.files:
        docs.append((path, load_lottie(path)))
    versions = {}
    if "rlottie" in args.tool_list:
        versions["rlottie"] = lp.RlottieRenderer.version()
    if "thorvg" in args.tool_list:
        versions["thorvg"] = lp.ThorvgRenderer.version()
    if "lamina" in args.tool_list and not lamina_note:
        versions["lamina"] = os.path.relpath(args.lamina, os.getcwd())
    cores = os.cpu_count() or 1
    load_before = os.getloadavg()[0]
    print(f"lottie-bench: {cpu_model()}, {cores} cores, load average {load_before:.2f}; {args.runs} runs, medians; "
          f"output {args.size} px on the longer side; " + ", ".join(f"{k}: {v}" for k, v in versions.items()),
          flush=True)
    results = []
    for path, doc in docs:
        w, h = doc["w"], doc["h"]
        scale = args.size / float(max(w, h))
        width, height = int(round(w * scale)), int(round(h * scale))
        name = os.path.splitext(os.path.basename(path))[0]
        res = {"name": name, "file": os.path.relpath(path, lp.ROOT), "w": w, "h": h, "fr": doc["fr"],
               "ip": doc["ip"], "op": doc["op"], "scale": scale, "output": [width, height]}
        for peer in ("rlottie", "thorvg"):
            if peer in args.tool_list:
                try:
                    res[peer] = peer_figures(peer, path, doc, width, height, args.runs)
                except Exception as e:  # a peer that cannot load the file is reported, not fatal
                    res[peer] = {"error": str(e)}
        if "lamina" in args.tool_list:
            if lamina_note:
                res["lamina"] = {"error": lamina_note, "jobs": {}}
            else:
                res["lamina"] = lamina_figures(args, path, doc, scale, width, height)
        peers = [res[p]["ms_per_frame"] for p in ("rlottie", "thorvg") if p in res and "ms_per_frame" in res[p]]
        res["faster_peer_ms_per_frame"] = min(peers) if peers else None
        l1 = res.get("lamina", {}).get("jobs", {}).get("1", {}).get("ms_per_frame")
        res["ratio_lamina_j1_to_faster_peer"] = (l1 / res["faster_peer_ms_per_frame"]
                                                 if l1 and res["faster_peer_ms_per_frame"] else None)
        results.append(res)
        print(f"  {name}: done", file=sys.stderr, flush=True)

    # table
    jcols = [f"lamina j{j}" for j in args.job_list] if "lamina" in args.tool_list else []
    head = f"{'sample':<12} {'frames':>6} {'rlottie':>9} {'thorvg':>9}" + "".join(f" {c:>10}" for c in jcols)
    if "lamina" in args.tool_list:
        head += f" {'1-frame':>9} {'L1/peer':>8}"
    print("ms per frame (medians of %d runs; Lamina: whole process, start included)" % args.runs)
    print(head)
    errors = []
    for r in results:
        line = f"{r['name'][:12]:<12} {r.get('rlottie', r.get('thorvg', {})).get('frames', ''):>6}"
        for peer in ("rlottie", "thorvg"):
            v = r.get(peer, {})
            line += " " + fmt(v.get("ms_per_frame"), 9)
            if "error" in v:
                errors.append(f"{r['name']}: {peer}: {v['error']}")
        if "lamina" in args.tool_list:
            lam = r["lamina"]
            for j in args.job_list:
                v = lam.get("jobs", {}).get(str(j), {})
                line += " " + fmt(v.get("ms_per_frame"), 10)
                if "error" in v:
                    errors.append(f"{r['name']}: lamina --jobs {j}: {v['error']}")
            if "error" in lam:
                errors.append(f"{r['name']}: lamina: {lam['error']}")
            one = lam.get("one_frame_run_ms")
            line += " " + fmt(one, 9, 1) + " " + fmt(r["ratio_lamina_j1_to_faster_peer"], 8, 2)
        print(line)
    gm = {p: geomean([r.get(p, {}).get("ms_per_frame") for r in results]) for p in ("rlottie", "thorvg")}
    gm_faster = geomean([r["faster_peer_ms_per_frame"] for r in results])
    line = f"{'geomean':<12} {'':>6} {fmt(gm['rlottie'], 9)} {fmt(gm['thorvg'], 9)}"
    gm_lamina = {}
    if "lamina" in args.tool_list:
        for j in args.job_list:
            vals = [r["lamina"].get("jobs", {}).get(str(j), {}).get("ms_per_frame") for r in results]
            gm_lamina[str(j)] = geomean(vals) if all(vals) else None
            line += " " + fmt(gm_lamina[str(j)], 10)
        ratio = gm_lamina.get("1") / gm_faster if gm_lamina.get("1") and gm_faster else None
        line += " " + fmt(None, 9) + " " + fmt(ratio, 8, 2)
    print(line)
    if gm_faster:
        print(f"faster peer per sample, geometric mean: {gm_faster:.3f} ms per frame")
    if "lamina" in args.tool_list:
        print("L1/peer: Lamina --jobs 1 / the faster peer on that sample (below 1: Lamina is faster). "
              "1-frame: wall time of a one-frame export (start, load, one frame), ms.")
    load_after = os.getloadavg()[0]
    if max(load_before, load_after) > cores:
        print(f"note: the load average was {load_before:.2f} before and {load_after:.2f} after on {cores} cores: "
              "other work shared the machine, so the figures are slower than an idle machine's")
    for e in errors:
        print("note: " + e)
    if args.json:
        report = {"what": "ms per frame, every frame of each file, medians of runs", "runs": args.runs,
                  "size": args.size, "cores": cores, "cpu": cpu_model(), "versions": versions,
                  "load_average_before_after": [load_before, load_after],
                  "lamina_command": "lamina export FILE --format raw -o /dev/null --no-sidecar --jobs N --scale S "
                                    "--backend cpu --fps FR --duration (op-ip)/FR",
                  "lamina_includes": "process start, file load, every frame; wall time / frames",
                  "peers_include": "the render call alone per frame (file loaded before timing, load_ms apart), "
                                   "one thread",
                  "samples": results,
                  "geomean_ms_per_frame": {"rlottie": gm["rlottie"], "thorvg": gm["thorvg"],
                                           "faster_peer": gm_faster,
                                           "lamina_jobs": gm_lamina}}
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
