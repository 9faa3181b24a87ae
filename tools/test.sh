#!/usr/bin/env bash
# Set-up command 2: install what is missing, check the module boundaries, and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
# The arrows of ARCHITECTURE.md's target table are enforced, not just intended.
swift build --build-tests --explicit-target-dependency-import-check error
swift test --skip-build "$@"
