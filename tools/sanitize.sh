#!/usr/bin/env bash
# Runs the suites that parse, decode, plan and render under AddressSanitizer (and LeakSanitizer with it);
# any report fails the run (docs/fuzzing.md, "Sanitizers"). Extra arguments go to swift test.
#
# Built into .build-asan so that the normal .build stays as it is. UndefinedBehaviorSanitizer is not run:
# Swift 6.3.1 on Linux refuses -sanitize=undefined.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
swift build --build-tests --sanitize=address --scratch-path .build-asan
# The GLES suites run too: Mesa's llvmpipe reports nothing under ASan here, and the renderer's own Swift code
# (uploads, atlases, read-back) is checked with the rest. LaminaCLITests is left out: it tests the command
# line by starting the lamina binary, not the readers. Skipped: the tests that measure resident memory (across
# renderers, and decoding's peak), since ASan keeps freed memory in quarantine and adds its own (LeakSanitizer
# checks for leaks directly instead); and the CPU compositing loops' whole-frame comparisons (every loop form on 1
# and 2 threads: minutes under ASan), the loops' own random-rectangle tests (every path, tails, strides, edges)
# still run here. Also skipped: the two documentation checks, which read Markdown and touch none of the code under
# test (80 and 68 s of a serial ASan run's 800 on 2026-11-27, before their checker read each page once), and the
# thousand nested masked groups (110 s), whose CPU side ThreadSanitizer runs (tools/tsan.sh) and whose GLES side the
# normal run does.
# lsan.supp: leaks outside Lamina's own code, each with its reason.
export LSAN_OPTIONS="suppressions=$PWD/tools/lsan.supp:print_suppressions=0"
# The random suites (trees, live and incremental frames, the compositing loops' rectangles) draw 150 cases each here
# instead of 500: ASan is there to find memory errors, which the first hundred trees reach as well as the last; the
# normal run (tools/test.sh) keeps all 500 for parity. CI time: docs/fuzzing.md, "What it costs in CI".
export LAMINA_RANDOM_TREES="${LAMINA_RANDOM_TREES:-150}"
swift test --skip-build --sanitize=address --scratch-path .build-asan \
    --filter 'LaminaCoreTests|LaminaImageIOTests|LaminaSceneTests|LaminaLayersTests|LaminaRenderTests|LaminaExpressionsTests|LaminaLottieTests' \
    --skip 'renderersCanBeMadeAndReleasedManyTimesWithoutGrowing|decodingTakesTheFileOnceAndABoundedAmount|benchScenesMakePixmansFrames|fastPathScenesMakePixmansFrames|randomTreesMakePixmansFrames|scaledImagesMakePixmansFrames|everyLinkAndAnchorOfTheDocumentationExists|everyCitationInCodeNamesAnExistingPageAndHeading|aThousandNestedMaskedGroupsDrawOnEveryRenderer' "$@"
