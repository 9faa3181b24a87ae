#!/usr/bin/env bash
# Runs the suites whose code shares state between threads under ThreadSanitizer:
# - the CPU renderer's bands, quads prepared in parallel (CPUParallelPreparationTests) and parallel shadows, the
#   memory budget reserved from many threads (and by every kind of buffer, MemoryBudgetKindsTests), deep groups and
#   extreme numbers on the bands (the CPU renderer only, LAMINA_RENDERER=cpu: Mesa's llvmpipe threads are not
#   Lamina's to check); lamina export's ordered pipeline of job threads (ExportPipelineTests);
# - transactions: the layer model, commits and snapshots, and frames drawn on both renderers while another thread
#   commits (TransactionFrameTests: the GLES renderer runs there too, for the layer model's side of its frames);
# - animations: presentations evaluated on all cores, and frames drawn while another thread adds animations and
#   animates properties implicitly (AnimationTests, AnimationConcurrencyTests); animated node values evaluated on
#   all cores (AnimatedNodeFrameTests' large tree);
# - specialised layers: style changes committed on other threads while frames draw, and text laid out by Pango on
#   several threads at once (SpecialLayerConcurrencyTests).
# Any report fails the run. Built into .build-tsan so that the normal .build stays as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
swift build --build-tests --sanitize=thread --scratch-path .build-tsan
LAMINA_RENDERER=cpu TSAN_OPTIONS="halt_on_error=1" swift test --skip-build --sanitize=thread --scratch-path .build-tsan \
    --filter 'MemoryBudgetTests|MemoryBudgetKindsTests|CPURendererTests|CPUParallelPreparationTests|GroupNestingTests|ExtremeNumberTests|ShadowTests|ExportPipelineTests' "$@"
TSAN_OPTIONS="halt_on_error=1 suppressions=$PWD/tools/tsan.supp" swift test --skip-build --sanitize=thread \
    --scratch-path .build-tsan --filter 'TransactionTests|TransactionModelChangesTests|TransactionFrameTests|IncrementalPlanTests|AnimationTests|AnimationConcurrencyTests|SpecialLayerConcurrencyTests|TiledLayerTests|TiledLayerRenderTests|LottieAnimationTests|AnimatedNodeFrameTests/aLargeTree|NodeUpdateTests/aLargeMovedSubtree' "$@"
