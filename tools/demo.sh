#!/usr/bin/env bash
# Set-up command 1: install what is missing, build, and render the built-in demo to lamina-demo.png.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
swift build -c release --product lamina
.build/release/lamina render -o "${1:-lamina-demo.png}"
