#!/usr/bin/env bash
# The Python tools of the scheduler tests, in a virtual environment at .build/scheduler-venv (or $1): Dask
# (`dask scheduler`, `dask worker`, dask.distributed for examples/dask/batch.py) and kubernetes-validate (the
# Indexed Job manifests, checked with --strict). Made once from PyPI (a few minutes on a slow machine), then
# reused: prints the venv's folder, nothing else, when it is already there. Safe to run from two tests at once.
# Needs python3 with its venv module (Debian: python3-venv, in tools/setup.sh) and PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${1:-.build/scheduler-venv}
# Pinned, so that every machine tests against the same releases; change them here only.
requirements=("dask[distributed]==2026.8.0" "kubernetes-validate==1.37.0")
stamp="${requirements[*]}"

mkdir -p "$(dirname "$venv")"
exec 9>"$venv.lock"
flock 9
if [ -x "$venv/bin/python" ] && [ "$(cat "$venv/.lamina-requirements" 2>/dev/null)" = "$stamp" ]; then
    echo "$(cd "$venv" && pwd)"
    exit 0
fi
python=$(command -v /usr/bin/python3 || command -v python3) || { echo "scheduler-venv: python3 is missing" >&2; exit 1; }
# Made in place (a venv's scripts name its folder); the stamp, written last, says it is complete.
rm -rf "$venv"
"$python" -m venv "$venv" >&2
"$venv/bin/pip" install --quiet --disable-pip-version-check "${requirements[@]}" >&2
echo "$stamp" >"$venv/.lamina-requirements"
echo "$(cd "$venv" && pwd)"
