#!/usr/bin/env bash
# Set-up command 2: install what is missing, check the shaders and module boundaries, and run the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
tools/validate-shaders.sh
# The arrows of the table of docs/architecture.md, "Targets", are enforced, not just intended.
swift build --build-tests --explicit-target-dependency-import-check error
swift test --skip-build "$@"
