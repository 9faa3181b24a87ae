#!/usr/bin/env bash
# Fuzzes Lamina's parsers and decoders with libFuzzer (docs/fuzzing.md).
#
#   tools/fuzz.sh TARGET SECONDS [LIBFUZZER-FLAGS...]
#
# TARGET: json, scene, control, spritesheet, png, jpeg, zip, expression, or all (each in turn, SECONDS each). Builds the target with
# -sanitize=fuzzer,address in .build-fuzz (the targets exist only with LAMINA_FUZZ=1, see Package.swift),
# then runs it for SECONDS on a copy of Fuzz/Corpus/TARGET, so the repository's corpus is never written to.
# Exits non-zero when a target crashes, leaks, times out or fails one of its own checks, and prints the
# path of the input that did it (kept under .build-fuzz/findings/TARGET/).
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { echo "usage: tools/fuzz.sh json|scene|control|spritesheet|png|jpeg|zip|expression|all SECONDS [libFuzzer flags]" >&2; exit 2; }
(($# >= 2)) || usage
target=$1 seconds=$2
shift 2
[[ "$seconds" =~ ^[0-9]+$ ]] || usage

declare -A products=([json]=FuzzJSON [scene]=FuzzScene [control]=FuzzControl [spritesheet]=FuzzSpriteSheet [png]=FuzzPNG [jpeg]=FuzzJPEG [zip]=FuzzZip [expression]=FuzzExpression)
declare -A dictionaries=([json]=scene [scene]=scene [control]=scene [spritesheet]=spritesheet [png]=png [jpeg]=jpeg [zip]=zip [expression]=expression)
# Foundation's PropertyListSerialization leaks on every malformed plist (tools/lsan.supp), and libFuzzer then
# runs a full leak scan after each such input: 16 inputs a second instead of 1200. The sprite-sheet target
# therefore runs without leak checks; the scene target still checks leaks on the sheets it loads.
declare -A flags=([spritesheet]=-detect_leaks=0)
if [ "$target" = all ]; then
    targets=(json scene control spritesheet png jpeg zip expression)
elif [ -n "${products[$target]:-}" ]; then
    targets=("$target")
else
    usage
fi

tools/setup.sh
scratch_path=.build-fuzz
# The expression target's engine is C (Duktape): instrumented too, so that libFuzzer sees its coverage.
declare -A cflags=([FuzzExpression]="-Xcc -fsanitize=fuzzer-no-link,address")
build() {
    # shellcheck disable=SC2086
    LAMINA_FUZZ=1 swift build -c debug --scratch-path "$scratch_path" -Xswiftc -sanitize=fuzzer,address \
        ${cflags[$1]:-} --product "$1" >"$work/build.log" 2>&1 && return
    # gold warns once per ASan helper symbol ("Cannot export local symbol"); those lines say nothing.
    grep -v "Cannot export local symbol" "$work/build.log" >&2
    echo "fuzz: building $1 failed" >&2
    exit 1
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=()
for name in "${targets[@]}"; do
    product=${products[$name]}
    build "$product"
    findings="$scratch_path/findings/$name"
    mkdir -p "$findings" "$work/$name/corpus" "$work/$name/tmp"
    cp Fuzz/Corpus/"$name"/* "$work/$name/corpus/"
    log="$findings/last-run.log"
    echo "fuzz: $name for ${seconds}s on $(ls "$work/$name/corpus" | wc -l) seed inputs (log: $log)"
    status=0
    # -timeout: one input taking 10 s counts as a hang. -rss_limit_mb: the decoders' pixel limits keep real
    # inputs far below it. TMPDIR: FuzzScene's copy of the fixtures goes into the scratch folder. lsan.supp:
    # leaks inside system libraries, each with its reason.
    TMPDIR="$work/$name/tmp" LSAN_OPTIONS="suppressions=$PWD/tools/lsan.supp:print_suppressions=0" \
        "$scratch_path/debug/$product" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -dict="Fuzz/Dictionaries/${dictionaries[$name]}.dict" -artifact_prefix="$findings/" ${flags[$name]:-} \
        "$@" "$work/$name/corpus" >"$log" 2>&1 || status=$?
    if ((status == 0)); then
        grep -E "^Done|stat::number_of_executed_units|stat::new_units_added" "$log" | tr '\n' ' '
        echo
    else
        tail -n 60 "$log"
        crash=$(grep -o "Test unit written to .*" "$log" | tail -n 1 | sed 's/Test unit written to //')
        echo "fuzz: $name FAILED (exit $status); input: ${crash:-none written, see $log}" >&2
        failed+=("$name")
    fi
done
if ((${#failed[@]} > 0)); then
    echo "fuzz: findings in ${failed[*]}; reproduce with $scratch_path/debug/<FuzzTarget> <input>" >&2
    exit 1
fi
echo "fuzz: ${targets[*]}: no findings"
