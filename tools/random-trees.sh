#!/usr/bin/env bash
# Triage of the random-tree tests (docs/reliability.md): writes COUNT valid and COUNT extreme random scenes
# (seeds from $LAMINA_RANDOM_SEED, default 13000), renders each with `lamina render` on the CPU and GLES
# backends, one process per render so that a trap is one result rather than the end of the run, and sorts
# the outcomes: ok, error (a named error and exit status 1 or 2), crash (the trap's message and the first
# frame of the backtrace in this repository), timeout, parity (CPU and GLES differ beyond the parity bound).
#
#   tools/random-trees.sh [COUNT] [OUT]     # defaults: 500, /tmp/lamina-random-trees
#   tools/random-trees.sh --summary OUT     # parity and summary again, for a finished run's renders
#
# Needs a debug build (`swift build --build-tests`), and Pillow and NumPy for tools/parity.py. Writes
# OUT/results.tsv (kind, seed, backend, outcome, detail) and prints a summary: each distinct outcome with
# its count and the smallest scene showing it.
set -u
summary_only=false
if [ "${1:-}" = "--summary" ]; then summary_only=true; shift; set -- 0 "$@"; fi
count=${1:-500}
out=${2:-/tmp/lamina-random-trees}
root=$(cd "$(dirname "$0")/.." && pwd)
lamina="$root/.build/debug/lamina"
timeout_s=${LAMINA_RANDOM_TIMEOUT:-60}
[ -x "$lamina" ] || { echo "random-trees: $lamina not found; run swift build --build-tests" >&2; exit 2; }

if ! $summary_only; then
rm -rf "$out"
mkdir -p "$out"
(cd "$root" && LAMINA_RANDOM_DUMP="$out" LAMINA_RANDOM_TREES="$count" \
    swift test --skip-build --filter 'RandomTreeTests/dumpScenes' >"$out/dump.log" 2>&1) \
    || { echo "random-trees: writing the scenes failed (see $out/dump.log)" >&2; exit 1; }

# One render: prints "kind<TAB>seed<TAB>backend<TAB>outcome<TAB>detail".
render_one() {
    local dir=$1 backend=$2 lamina=$3 timeout_s=$4 root=$5
    local kind seed log rc detail
    kind=$(basename "$(dirname "$dir")")
    seed=$(basename "$dir" | sed 's/^seed-//')
    log="$dir/$backend.log"
    SWIFT_BACKTRACE=enable=yes,interactive=no,color=no timeout -k 5 "$timeout_s" \
        "$lamina" render "$dir/scene.json" --backend "$backend" -o "$dir/$backend.png" >"$log" 2>&1
    rc=$?
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
        printf '%s\t%s\t%s\ttimeout\tover %ss\n' "$kind" "$seed" "$backend" "$timeout_s"
    elif grep -q -E 'Fatal error|crashed:|^💣|Program crashed' "$log" || [ $rc -ge 128 ]; then
        local message frame
        message=$(grep -m1 -o -E '(Fatal error|Swift runtime failure|Assertion failed|Precondition failed): [^*]*' "$log" \
            | sed -E 's/ +$//' | cut -c1-120)
        frame=$(grep -m1 -o -E ' at /work/[^ ]+\.swift:[0-9]+' "$log" | sed -E "s# at ##; s#^$root/##; s#^/work/[^/]+/[^/]+/##")
        printf '%s\t%s\t%s\tcrash\t%s @ %s\n' "$kind" "$seed" "$backend" "${message:-signal $rc}" "${frame:-?}"
    elif [ $rc -ne 0 ]; then
        detail=$(grep -v -m1 '^lamina: using the' "$log" | sed -E 's#^lamina: ##; s#^[^ ]*scene\.json(:[0-9]+:[0-9]+)?: ##' | cut -c1-160)
        printf '%s\t%s\t%s\terror\texit %s: %s\n' "$kind" "$seed" "$backend" "$rc" "$detail"
    else
        printf '%s\t%s\t%s\tok\t\n' "$kind" "$seed" "$backend"
    fi
}
export -f render_one

for dir in "$out"/valid/seed-* "$out"/extreme/seed-*; do
    for backend in cpu gles; do printf '%s\0%s\0' "$dir" "$backend"; done
done | xargs -0 -n 2 -P "${LAMINA_RANDOM_JOBS:-2}" bash -c 'render_one "$3" "$4" "$0" "$1" "$2"' \
    "$lamina" "$timeout_s" "$root" >"$out/results.tsv" 2>"$out/xargs.log"
fi
grep -v -P '\tparity\t' "$out/results.tsv" >"$out/renders.tsv"
cp "$out/renders.tsv" "$out/results.tsv"

# Parity of the scenes both backends drew, as ImageDifference.meetsParity measures it (tools/parity.py): on
# premultiplied pixels, at most 2 per channel on 99.9% of the pixels and at most 8 on every pixel.
awk -F'\t' '$4 == "ok" { n[$1 "\t" $2]++ } END { for (k in n) if (n[k] == 2) print k }' "$out/results.tsv" |
while IFS=$'\t' read -r kind seed; do
    dir="$out/$kind/seed-$seed"
    if ! report=$("$root/tools/parity.py" "$dir/cpu.png" "$dir/gles.png" 2>&1); then
        "$lamina" diff "$dir/cpu.png" "$dir/gles.png" --output "$dir/diff.png" >/dev/null 2>&1
        printf '%s\t%s\tboth\tparity\t%s\n' "$kind" "$seed" "$report"
    fi
done >>"$out/results.tsv"

echo "random trees: $(ls "$out/valid" | wc -l) valid and $(ls "$out/extreme" | wc -l) extreme scenes in $out"
# Summary: each distinct outcome (numbers and JSON paths folded away), its count, an example seed and the
# smallest scene file showing it.
python3 - "$out" <<'PY'
import collections, os, re, sys
out = sys.argv[1]
groups = collections.defaultdict(list)
for line in open(os.path.join(out, "results.tsv")):
    kind, seed, backend, outcome, detail = (line.rstrip("\n").split("\t") + [""])[:5]
    if outcome == "ok":
        continue
    if outcome == "error":
        detail = re.sub(r"(layers|sublayers|draw|shadowPath)\[\d+\][.\w\[\]]*?\.(?=\w+:)", "", detail)
        detail = re.sub(r"-?\d+(\.\d+)?(e[-+]?\d+)?", "N", detail)
    if outcome == "parity":
        detail = ""
    scene = os.path.join(out, kind, "seed-" + seed, "scene.json")
    groups[(outcome, kind, backend, detail)].append((os.path.getsize(scene), scene))
for key, scenes in sorted(groups.items(), key=lambda item: (item[0][0] != "crash", -len(item[1]))):
    size, scene = min(scenes)
    print("%5d  %-7s %-7s %-4s %s\n       smallest: %s (%d bytes)" % (len(scenes), key[0], key[1], key[2], key[3], scene, size))
PY
