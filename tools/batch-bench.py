#!/usr/bin/env python3
"""The throughput benchmark of `lamina batch` (docs/scale.md, "Measured").

Makes, in a scratch folder, N small scenes (200 x 200, a few layers each: a rounded card, an image from a pool of
20 distinct PNGs, a border, a text label) and a template with N variants, then times, in one run:

- N `lamina render` processes against one `lamina batch` of the same N jobs, on the CPU renderer and on GLES;
- `lamina batch --jobs 1` against `--jobs 2` (CPU);
- N jobs of one template each with its own `"set"` (a different title) against N identical jobs.

Each batch figure is the median of --repeat runs (processes: one run, they take long). Prints a Markdown table
and, with --json, writes the figures. Every output of a batch is compared byte for byte with the process run's,
so the speed-up is for the same pictures.

    tools/batch-bench.py [--lamina .build/release/lamina] [--count 1000] [--repeat 3] [--json OUT.json]
"""

import argparse
import hashlib
import json
import os
import resource
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import zlib


def png(width, height, pixel):
    """A straight-alpha RGBA PNG whose pixel (x, y) is pixel(x, y)."""
    rows = b"".join(b"\0" + b"".join(bytes(pixel(x, y)) for x in range(width)) for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b""))


def make_corpus(folder, count):
    scenes = os.path.join(folder, "scenes")
    images = os.path.join(scenes, "images")
    os.makedirs(images)
    for i in range(20):
        r, g, b = (37 * i) % 256, (91 * i + 40) % 256, (53 * i + 120) % 256
        data = png(48, 48, lambda x, y: (r ^ (x * 5 & 255), g, (b + y * 4) & 255, 255 if (x - 24) ** 2 + (y - 24) ** 2 < 520 else 90))
        with open(os.path.join(images, f"i{i:02}.png"), "wb") as f:
            f.write(data)
    for i in range(count):
        scene = {
            "size": [200, 200], "backgroundColor": "#%06X" % ((i * 2654435761) & 0xFFFFFF),
            "layers": [
                {"frame": [10 + i % 17, 12, 150, 110], "cornerRadius": 12, "backgroundColor": "#FFFFFF",
                 "borderWidth": 2, "borderColor": "#20304080",
                 "sublayers": [
                     {"frame": [8, 8, 48, 48], "contents": f"images/i{i % 20:02}.png"},
                     {"frame": [64, 10, 78, 12], "cornerRadius": 4, "backgroundColor": "#3060C0"},
                     {"frame": [64, 30, 60, 8], "backgroundColor": "#C8D2E0", "opacity": 0.8}]},
                {"frame": [20, 140, 160, 40], "cornerRadius": 20, "backgroundColor": "#E53935",
                 "transform": [{"rotate": (i % 9) - 4}]},
            ],
        }
        with open(os.path.join(scenes, f"s{i:04}.json"), "w") as f:
            json.dump(scene, f)
    template = {
        "size": [200, 200], "backgroundColor": "#F4F1EA",
        "layers": [
            {"frame": [10, 12, 180, 110], "cornerRadius": 12, "backgroundColor": "#FFFFFF",
             "sublayers": [{"frame": [8, 8, 48, 48], "contents": "images/i03.png"}]},
            {"name": "title", "type": "text", "frame": [10, 130, 180, 40], "string": "Hello", "fontSize": 22,
             "foregroundColor": "#202020"},
        ],
    }
    with open(os.path.join(scenes, "template.json"), "w") as f:
        json.dump(template, f)


NAMES = ["Ada", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lu", "Max", "Ned", "Oz"]


def write_manifests(folder, count):
    with open(os.path.join(folder, "stills.jsonl"), "w") as f:
        for i in range(count):
            f.write(json.dumps({"scene": f"scenes/s{i:04}.json", "output": f"out/s{i:04}.png"}) + "\n")
    with open(os.path.join(folder, "variants.jsonl"), "w") as f:
        for i in range(count):
            name = f"{NAMES[i % len(NAMES)]} {i}"
            f.write(json.dumps({"scene": "scenes/template.json", "output": f"var/v{i:04}.png",
                                "set": [{"layer": "title", "set": {"string": f"Hello {name}"}}]}) + "\n")
    with open(os.path.join(folder, "identical.jsonl"), "w") as f:
        for i in range(count):
            f.write(json.dumps({"scene": "scenes/template.json", "output": f"same/v{i:04}.png"}) + "\n")


def clear(folder, *names):
    """Moves earlier outputs aside (deleted at the end): deleting a thousand files just before a run makes ext4
    scan its recently deleted inodes for every file the run creates, a cost of the benchmark, not of Lamina."""
    trash = os.path.join(folder, ".trash")
    os.makedirs(trash, exist_ok=True)
    for name in names:
        if os.path.exists(os.path.join(folder, name)):
            os.rename(os.path.join(folder, name), tempfile.mkdtemp(dir=trash))


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class Clock:
    """Wall and CPU (user + system of the child processes) seconds of what runs between start and stop."""

    def __init__(self):
        self.wall, self.cpu = time.perf_counter(), children_cpu()

    def stop(self):
        return time.perf_counter() - self.wall, children_cpu() - self.cpu


def timed(command, cwd):
    clock = Clock()
    result = subprocess.run(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = clock.stop()
    if result.returncode != 0:
        sys.exit(f"batch-bench: {' '.join(command)} failed:\n{result.stderr[-2000:]}")
    return seconds


def batch(lamina, folder, manifest, outputs, backend, jobs, repeat):
    runs = []
    for _ in range(repeat):
        clear(folder, outputs)
        runs.append(timed([lamina, "batch", manifest, "--backend", backend, "--jobs", str(jobs)], folder))
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


def processes(lamina, folder, count, backend):
    clear(folder, "proc")
    os.makedirs(os.path.join(folder, "proc"))
    clock = Clock()
    for i in range(count):
        result = subprocess.run([lamina, "render", f"scenes/s{i:04}.json", "-o", f"proc/s{i:04}.png",
                                 "--backend", backend], cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if result.returncode != 0:
            sys.exit(f"batch-bench: lamina render of scene {i} failed:\n{result.stderr.decode()[-2000:]}")
    return clock.stop()


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def same_outputs(folder, count):
    return all(digest(os.path.join(folder, f"out/s{i:04}.png")) == digest(os.path.join(folder, f"proc/s{i:04}.png"))
               for i in range(count))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lamina", default=".build/release/lamina")
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json")
    parser.add_argument("--keep", help="a folder to make the corpus in and keep")
    options = parser.parse_args()
    lamina = os.path.abspath(options.lamina)
    folder = options.keep or tempfile.mkdtemp(prefix="lamina-batch-bench-")
    os.makedirs(folder, exist_ok=True)
    shutil.rmtree(os.path.join(folder, "scenes"), ignore_errors=True)
    make_corpus(folder, options.count)
    write_manifests(folder, options.count)
    n, r = options.count, options.repeat
    figures = {"count": n, "repeat": r, "cores": os.cpu_count()}
    rows = []

    def record(key, label, seconds, base=None, word="faster"):
        figures[key + "_s"], figures[key + "_cpu_s"] = seconds
        ratio = ""
        if base is not None:
            wall, cpu = figures[base + "_s"] / seconds[0], figures[base + "_cpu_s"] / seconds[1]
            if word != "faster":
                wall, cpu = 1 / wall, 1 / cpu
            figures[key + "_ratio"], figures[key + "_cpu_ratio"] = wall, cpu
            ratio = f"{wall:.2f}x {word} | {cpu:.2f}x {word}"
        rows.append(f"| {label} | {seconds[0]:.2f} | {seconds[1]:.2f} | {ratio or ' | '} |")

    jobs = min(2, os.cpu_count() or 1)
    for backend in ("cpu", "gles"):
        record(f"{backend}_processes", f"{backend}: {n} `lamina render` processes", processes(lamina, folder, n, backend))
        record(f"{backend}_batch", f"{backend}: one `lamina batch --jobs {jobs}`",
               batch(lamina, folder, "stills.jsonl", "out", backend, jobs, r), f"{backend}_processes")
        if not same_outputs(folder, n):
            sys.exit(f"batch-bench: {backend}: a batch output differs from its lamina render")
    record("cpu_jobs1", "cpu: `--jobs 1`", batch(lamina, folder, "stills.jsonl", "out", "cpu", 1, r))
    record("cpu_jobs2", "cpu: `--jobs 2`", batch(lamina, folder, "stills.jsonl", "out", "cpu", 2, r), "cpu_jobs1")
    record("identical", f"{n} identical jobs of a template", batch(lamina, folder, "identical.jsonl", "same", "cpu", jobs, r))
    record("variants", f"{n} variants (`set` of the title)", batch(lamina, folder, "variants.jsonl", "var", "cpu", jobs, r),
           "identical", "the time")

    print(f"| {n} jobs, {os.cpu_count()} cores | wall s | CPU s | wall ratio | CPU ratio |")
    print("|---|---|---|---|---|")
    print("\n".join(rows))
    shutil.rmtree(os.path.join(folder, ".trash"), ignore_errors=True)
    if options.json:
        with open(options.json, "w") as f:
            json.dump(figures, f, indent=2)
    if not options.keep:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
