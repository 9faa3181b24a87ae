#!/usr/bin/env bash
# Checks every Kubernetes manifest lamina documents with `kubernetes-validate --strict` (unknown fields are
# errors): examples/kubernetes/*.yaml and each ```yaml block of docs/*.md that has a `kind:`, against the oldest
# Kubernetes they are written for (1.29: backoffLimitPerIndex and podFailurePolicy's FailIndex in beta, on by
# default) and the newest the validator knows. Run by Tests/LaminaCLITests/SchedulerTests.swift (CI); the
# validator comes from tools/scheduler-venv.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=$(tools/scheduler-venv.sh)
work=$(mktemp -d "${TMPDIR:-/tmp}/lamina-k8s.XXXXXX")
trap 'rm -rf "$work"' EXIT

files=(examples/kubernetes/*.yaml)
for doc in docs/*.md; do
    # Each fenced yaml block to its own file, named for the document and the block's first line number.
    awk -v out="$work/$(basename "$doc" .md)" '
        /^```yaml[[:space:]]*$/ { inside = 1; start = NR + 1; text = ""; next }
        inside && /^```[[:space:]]*$/ { inside = 0; if (text ~ /(^|\n)kind:/) { file = out "-line" start ".yaml"; printf "%s", text > file; close(file) } next }
        inside { text = text $0 "\n" }
    ' "$doc"
done
shopt -s nullglob
files+=("$work"/*.yaml)
status=0
for version in 1.29.0 1.37.0; do
    "$venv/bin/kubernetes-validate" --strict --quiet -k "$version" "${files[@]}" || status=1
done
((status == 0)) && echo "kubernetes-validate --strict: ${#files[@]} manifests pass on 1.29 and 1.37"
exit $status
