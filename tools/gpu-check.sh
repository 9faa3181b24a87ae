#!/usr/bin/env bash
# tools/gpu-check.sh: everything worth knowing about Lamina on a machine with a GPU, in one run of a few minutes:
# `lamina info`, the GLES test suites, and the benchmarks at 3840 x 2160 against the instanced GL baseline, plus
# the frames' CPU build time at a tiny size; written up as report.md and report.json in a folder.
# See docs/gpu.md, "The GPU check".
set -uo pipefail

usage() {
    cat <<'EOF'
usage: tools/gpu-check.sh [options] [FOLDER]

Prints `lamina info`, runs the GLES test suites (LAMINA_REQUIRE_GLES=1), benchmarks sprites-100k, animated-10k,
rounded-sprites-10k and cards-500 at 3840x2160 on gles against the instanced GL baseline, measures the CPU build
time of animated and moving frames at a tiny size on both renderers, and writes report.md and report.json (with
every log and the bench JSON) into FOLDER: by default $OUT when it is set, else ./gpu-report.

options:
  --quick             a small run for a software rasteriser (llvmpipe) or a smoke test: 640x360, 3 frames,
                      small scenes, one GLES test suite
  --size WxH          the benchmarks' output size (default 3840x2160; --quick: 640x360)
  --frames N          counted frames per benchmark (default 20; --quick: 3)
  --test-filter RE    the swift test filter (default: the GLES and parity suites; see docs/gpu.md)
  --skip-tests        no test run (and no debug build)
  --test-timeout S    stop the test run after S seconds (default 300), so that the benchmarks still run
  --skip-bench        no benchmarks
  --no-build          use .build/release/lamina as it is (default: build it when missing or older than the sources)
  --egl-device D      set LAMINA_EGL_DEVICE=D (an EGL device index, a render node path, or surfaceless); by
                      default EGL devices are tried hardware first, so an NVIDIA GPU is picked over llvmpipe
  --bundle B          run what tools/gpu-bundle.sh packed (B: its .tar.xz, or the folder it unpacks to) instead
                      of building: for a GPU machine with no Swift toolchain; the tests run only when the bundle
                      holds the test binary (gpu-bundle.sh --tests)
  -h, --help          this text

Exit status: 0 when every step ran and the tests passed, 1 when a step failed (the report says which), 2 for bad
arguments.
EOF
}

quick=0
size=""
frames=""
filter=""
run_tests=1
run_bench=1
build=1
folder=""
bundle=""
test_timeout=300
while [ $# -gt 0 ]; do
    case "$1" in
        -h|--help) usage; exit 0 ;;
        --quick) quick=1 ;;
        --size|--frames|--test-filter|--egl-device|--bundle|--test-timeout)
            if [ $# -lt 2 ] || [ -z "$2" ]; then
                echo "gpu-check: $1 needs a value" >&2
                exit 2
            fi
            case "$1" in
                --size) size="$2" ;;
                --frames) frames="$2" ;;
                --test-filter) filter="$2" ;;
                --egl-device) export LAMINA_EGL_DEVICE="$2" ;;
                --bundle) bundle="$2" ;;
                --test-timeout) test_timeout="$2" ;;
            esac
            shift ;;
        --skip-tests) run_tests=0 ;;
        --skip-bench) run_bench=0 ;;
        --no-build) build=0 ;;
        -*) echo "gpu-check: unknown option $1 (see --help)" >&2; exit 2 ;;
        *)
            if [ -n "$folder" ]; then
                echo "gpu-check: one output folder only, got $folder and $1" >&2
                exit 2
            fi
            folder="$1" ;;
    esac
    shift
done
if [ -n "$size" ] && ! [[ "$size" =~ ^[0-9]+x[0-9]+$ ]]; then
    echo "gpu-check: --size must be WxH, got $size" >&2
    exit 2
fi
if ! [[ "$test_timeout" =~ ^[1-9][0-9]*$ ]]; then
    echo "gpu-check: --test-timeout must be a whole number of seconds, got $test_timeout" >&2
    exit 2
fi
if [ -n "$frames" ] && ! [[ "$frames" =~ ^[1-9][0-9]*$ ]]; then
    echo "gpu-check: --frames must be a whole number of at least 1, got $frames" >&2
    exit 2
fi
if [ -z "$folder" ]; then folder="${OUT:-./gpu-report}"; fi
if [ "$quick" = 1 ]; then
    size="${size:-640x360}"
    frames="${frames:-3}"
    warmup=1
    filter="${filter:-GLESRendererTests}"
    scenes=(sprites-1k animated-1k rounded-sprites-1k cards-500)
    build_scenes=(animated-1k parent-moving-10k)
else
    size="${size:-3840x2160}"
    frames="${frames:-20}"
    warmup=3
    # Every suite that draws with the GLES renderer or compares it with the CPU renderer.
    filter="${filter:-GLES|Parity|CornerRadius|CornerCurve|Shadow|Mask|LiveFrame|LiveAnimationFrame|BlendMode|Trilinear|Rasterization|GroupNesting|TransformLayer|TransactionFrame|AnimationRender|BaselinePicture|BenchBuildTime}"
    scenes=(sprites-100k animated-10k rounded-sprites-10k cards-500)
    build_scenes=(animated-1k animated-10k parent-moving-10k moving-100k)
fi
build_size=32x18

root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$folder" || { echo "gpu-check: cannot make $folder" >&2; exit 2; }
folder="$(cd "$folder" && pwd)"
cd "$root" || exit 2
lamina="$root/.build/release/lamina"
xctest=""
if [ -n "$bundle" ]; then
    # A bundle from tools/gpu-bundle.sh: unpack it once, then use its binaries, libraries and fonts.
    if [ -f "$bundle" ]; then
        unpacked="${TMPDIR:-/tmp}/lamina-bundle-$(id -u)"
        rm -rf "$unpacked" && mkdir -p "$unpacked" && tar -C "$unpacked" -xJf "$bundle" \
            || { echo "gpu-check: cannot unpack $bundle" >&2; exit 2; }
        bundle="$unpacked/lamina-bundle"
    fi
    [ -f "$bundle/env.sh" ] || { echo "gpu-check: $bundle is not a bundle from tools/gpu-bundle.sh" >&2; exit 2; }
    # shellcheck source=/dev/null
    . "$bundle/env.sh"
    lamina="$bundle/bin/lamina"
    if [ -x "$bundle/bin/LaminaPackageTests.xctest" ]; then xctest="$bundle/bin/LaminaPackageTests.xctest"; fi
    build=0
fi
log="$folder/gpu-check.log"
: > "$log"
phases="$folder/phases.tsv"
printf 'phase\tseconds\tstatus\n' > "$phases"
started=$(date +%s)
failed=0

say() { echo "gpu-check: $*" | tee -a "$log"; }

# run_phase NAME OUTFILE COMMAND...: runs a step with its output shown and kept, and records its time and status.
run_phase() {
    local name="$1" out="$2"
    shift 2
    say "$name: $*"
    local begin end status
    begin=$(date +%s.%N)
    "$@" 2>&1 | tee "$folder/$out" | tee -a "$log"
    status=${PIPESTATUS[0]}
    end=$(date +%s.%N)
    printf '%s\t%s\t%s\n' "$name" "$(awk -v a="$begin" -v b="$end" 'BEGIN { printf "%.1f", b - a }')" "$status" \
        >> "$phases"
    if [ "$status" != 0 ]; then
        say "$name failed (status $status)"
        failed=1
    fi
    return "$status"
}

# The machine.
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "host: $(uname -n), kernel $(uname -r), $(nproc) cores"
    echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
    echo "memory: $(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)"
    # A bundle's binaries were built from the commit it records, whatever checkout travelled with it.
    commit=""
    if [ -n "$bundle" ]; then commit="$(cat "$bundle/commit" 2>/dev/null || true)"; fi
    if [ -z "$commit" ]; then commit="$(git -C "$root" rev-parse --short HEAD 2>/dev/null || true)"; fi
    echo "commit: ${commit:-unknown}"
    if command -v nvidia-smi > /dev/null 2>&1; then
        echo "nvidia-smi: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -4 | tr '\n' ';')"
    else
        echo "nvidia-smi: none"
    fi
    echo "LAMINA_EGL_DEVICE: ${LAMINA_EGL_DEVICE:-(not set: hardware EGL devices first)}"
    echo "bundle: ${bundle:-none (built here)}"
} > "$folder/machine.txt"
tee -a "$log" < "$folder/machine.txt"

# The release build, when missing or older than the sources.
if [ "$build" = 1 ]; then
    stale=""
    if [ ! -x "$lamina" ]; then
        stale="no release build"
    elif [ -n "$(find Sources tools/lamina Shaders Package.swift -newer "$lamina" -type f 2>/dev/null | head -1)" ]; then
        stale="sources newer than the release build"
    fi
    if [ -n "$stale" ]; then
        say "building release ($stale)"
        run_phase "release build" release-build.txt swift build -c release --product lamina || true
    else
        printf '%s\t%s\t%s\n' "release build" 0 "up to date" >> "$phases"
    fi
fi
if [ ! -x "$lamina" ]; then
    say "no $lamina: cannot go on"
    failed=1
fi

# lamina info: the EGL display and GL strings the figures are from.
if [ -x "$lamina" ]; then
    run_phase "lamina info" info.txt "$lamina" info --verbose || true
fi

# The GLES test suites, on the debug build (tests use @testable imports).
if [ "$run_tests" = 1 ] && [ -n "$bundle" ]; then
    if [ -n "$xctest" ]; then
        # Tests that read the sources by #filePath look for them where the bundle was built: link that path here.
        built_in="$(cat "$bundle/build-root" 2>/dev/null || true)"
        if [ -n "$built_in" ] && [ ! -e "$built_in" ]; then
            mkdir -p "$(dirname "$built_in")" 2>/dev/null && ln -s "$root" "$built_in" 2>/dev/null \
                || say "cannot link $built_in to $root: tests that read the sources will fail"
        fi
        LAMINA_REQUIRE_GLES=1 run_phase "gles tests" tests.txt timeout "$test_timeout" "$xctest" --testing-library swift-testing \
            --filter "$filter" || true
    else
        say "gles tests: skipped, the bundle has no test binary (tools/gpu-bundle.sh --tests)"
        printf '%s\t%s\t%s\n' "gles tests" 0 "no test binary in the bundle" >> "$phases"
    fi
elif [ "$run_tests" = 1 ]; then
    if run_phase "test build" test-build.txt swift build --build-tests; then
        LAMINA_REQUIRE_GLES=1 run_phase "gles tests" tests.txt timeout "$test_timeout" swift test --skip-build \
            --filter "$filter" || true
    fi
fi

# The benchmarks: gles at the big size against the instanced baseline, then the build time at a tiny size.
if [ "$run_bench" = 1 ] && [ -x "$lamina" ]; then
    args=()
    for scene in "${scenes[@]}"; do args+=(--scene "$scene"); done
    run_phase "bench $size" bench.txt "$lamina" bench --backend gles --size "$size" --frames "$frames" \
        --warmup "$warmup" "${args[@]}" --json "$folder/bench.json" || true
    args=()
    for scene in "${build_scenes[@]}"; do args+=(--scene "$scene"); done
    run_phase "bench build time" bench-build.txt "$lamina" bench --backend all --size "$build_size" \
        --frames "$frames" --warmup "$warmup" "${args[@]}" --json "$folder/bench-build.json" || true
fi

total=$(( $(date +%s) - started ))
say "done in ${total} s"

# The report: report.md and report.json from what the steps left.
python3 - "$folder" "$quick" "$size" "$frames" "$filter" "$total" "$failed" <<'PY'
import json, os, re, sys

folder, quick, size, frames, test_filter, total, failed = sys.argv[1:8]
quick, total, failed = quick == "1", int(total), failed == "1"

def read(name):
    try:
        with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return None

def load(name):
    text = read(name)
    try:
        return json.loads(text) if text else None
    except ValueError:
        return None

machine = {}
for line in (read("machine.txt") or "").splitlines():
    key, _, value = line.partition(": ")
    machine[key] = value
info_text = read("info.txt") or ""
gl = {}
for key in ["egl platform", "egl device", "GL_VENDOR", "GL_RENDERER", "GL_VERSION", "software rasteriser",
            "gles renderer", "gpu"]:
    m = re.search(r"^" + re.escape(key) + r": (.*)$", info_text, re.M)
    gl[key] = m.group(1) if m else None
phases = []
for line in (read("phases.tsv") or "").splitlines()[1:]:
    name, seconds, status = line.split("\t")
    phases.append({"phase": name, "seconds": float(seconds), "status": status})

tests = None
tests_text = read("tests.txt")
if tests_text is not None:
    status = next((p["status"] for p in phases if p["phase"] == "gles tests"), None)
    passed = re.findall(r"Test run with (\d+) tests? (?:in \d+ suites? )?passed", tests_text)
    failed_run = re.findall(r"Test run with (\d+) tests? (?:in \d+ suites? )?failed", tests_text)
    issues = re.findall(r"with (\d+) issues?", tests_text)
    tests = {"filter": test_filter, "status": "passed" if status == "0" else "failed",
             "tests": int((passed or failed_run or ["0"])[-1]), "issues": int(issues[-1]) if issues else 0,
             "skipped": len(re.findall(r"skipped", tests_text)), "log": "tests.txt"}

def renderer(scene, name):
    return next((r for r in scene.get("renderers", []) if r.get("renderer") == name), None)

bench = load("bench.json")
big = []
for scene in (bench or {}).get("scenes", []):
    g = renderer(scene, "gles")
    if not g:
        continue
    base = scene["baselines"]["glesInstanced"]
    split = g.get("glesSplit") or {}
    big.append({
        "scene": scene["scene"], "width": scene["width"], "height": scene["height"], "quads": scene["quads"],
        "glesMs": g["frameMs"]["median"], "instancedMs": (base.get("frameMs") or {}).get("median"),
        "ratio": g["ratios"]["glesInstanced"], "baselineSkipped": base.get("skipped"),
        "buildMs": (g.get("buildMs") or {}).get("median"), "drawMs": (g.get("drawMs") or {}).get("median"),
        "encodeMs": split.get("encodeMs"), "submitMs": split.get("submitMs"), "gpuMs": split.get("gpuMs"),
        "gpuClock": split.get("gpuClock"), "finishWaitMs": split.get("finishWaitMs"),
    })
build = []
for scene in (load("bench-build.json") or {}).get("scenes", []):
    for r in scene.get("renderers", []):
        s = r.get("buildSplit") or {}
        build.append({
            "scene": scene["scene"], "renderer": r["renderer"], "width": scene["width"], "height": scene["height"],
            "frameMs": r["frameMs"]["median"], "buildMs": r["buildMs"]["median"], "drawMs": r["drawMs"]["median"],
            "snapshotMs": s.get("snapshotMs"), "presentationMs": s.get("presentationMs"), "planMs": s.get("planMs"),
            "prepareMs": s.get("prepareMs"),
        })

report = {
    "schemaVersion": 1, "quick": quick, "size": size, "frames": int(frames), "totalSeconds": total,
    "ok": not failed, "machine": machine, "gl": gl, "phases": phases, "tests": tests,
    "bench": {"json": "bench.json" if bench else None, "scenes": big},
    "buildTime": {"json": "bench-build.json" if build else None, "size": "32x18", "rows": build},
}
with open(os.path.join(folder, "report.json"), "w", encoding="utf-8") as f:
    json.dump(report, f, indent=2)
    f.write("\n")

def ms(value):
    return "–" if value is None else ("%.2f" % value if value < 100 else "%.0f" % value)

lines = ["# Lamina GPU check" + (" (quick)" if quick else ""), ""]
lines.append(f"{machine.get('date', '?')}, commit {machine.get('commit', '?')}, {machine.get('host', '?')}")
lines.append(f"CPU {machine.get('cpu', '?')}, {machine.get('memory', '?')}; nvidia-smi: {machine.get('nvidia-smi', '?')}")
lines.append("")
lines.append(f"- **GL_RENDERER: {gl['GL_RENDERER'] or 'none (no GLES)'}** ({gl['GL_VENDOR'] or '?'}, "
             f"{gl['GL_VERSION'] or '?'}), EGL platform {gl['egl platform'] or '?'}, device {gl['egl device'] or '?'}, "
             f"software rasteriser: {gl['software rasteriser'] or '?'}")
if gl.get("gpu"):
    lines.append(f"- GPU not used: {gl['gpu']}")
lines.append(f"- Total {total} s (target: under 480 s on a 16-core GPU machine with the release build made)"
             + ("" if not failed else "; **a step failed**, see below"))
lines += ["", "| step | seconds | status |", "|---|---:|---|"]
lines += [f"| {p['phase']} | {p['seconds']:.1f} | {p['status']} |" for p in phases]
if tests:
    lines += ["", f"## GLES tests", "",
              f"`LAMINA_REQUIRE_GLES=1 {'LaminaPackageTests.xctest --testing-library swift-testing' if machine.get('bundle', 'none').startswith('/') else 'swift test'} --filter '{test_filter}'`: **{tests['status']}**, "
              f"{tests['tests']} tests, {tests['issues']} issues (log: tests.txt)"]
if big:
    lines += ["", f"## Benchmarks at {size} (gles, {frames} frames, medians in ms)", "",
              "| scene | quads | gles | instanced baseline | gles / instanced | build | draw | encode | submit | GPU (clock) | glFinish wait |",
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in big:
        ratio = "%.2fx" % r["ratio"] if r["ratio"] is not None else f"– ({r['baselineSkipped'] or 'none'})"
        lines.append(f"| {r['scene']} | {r['quads']:,} | {ms(r['glesMs'])} | {ms(r['instancedMs'])} | {ratio} | "
                     f"{ms(r['buildMs'])} | {ms(r['drawMs'])} | {ms(r['encodeMs'])} | {ms(r['submitMs'])} | "
                     f"{ms(r['gpuMs'])} ({r['gpuClock'] or '?'}) | {ms(r['finishWaitMs'])} |")
    lines.append("")
    lines.append("Goal (issue 27): every scene within 1.15x of the instanced baseline.")
if build:
    lines += ["", f"## CPU build time at 32x18 (medians in ms per frame)", "",
              "| scene | renderer | frame | build | snapshot | presentation | plan | prepare | draw |",
              "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in build:
        lines.append(f"| {r['scene']} | {r['renderer']} | {ms(r['frameMs'])} | **{ms(r['buildMs'])}** | "
                     f"{ms(r['snapshotMs'])} | {ms(r['presentationMs'])} | {ms(r['planMs'])} | {ms(r['prepareMs'])} | "
                     f"{ms(r['drawMs'])} |")
    lines.append("")
    lines.append("Goals (issue 27): animated-10k at most 4 ms, animated-1k 0.5 ms, parent-moving-10k 0.3 ms of build.")
lines += ["", "Files: machine.txt, info.txt, tests.txt, bench.txt, bench.json, bench-build.txt, bench-build.json, "
          "gpu-check.log."]
with open(os.path.join(folder, "report.md"), "w", encoding="utf-8") as f:
    f.write("\n".join(lines) + "\n")
PY
if [ $? != 0 ]; then
    say "could not write the report (python3 needed)"
    failed=1
fi
say "report: $folder/report.md, $folder/report.json"
[ -f "$folder/report.md" ] && cat "$folder/report.md"
exit "$failed"
