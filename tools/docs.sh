#!/usr/bin/env bash
# Builds the DocC documentation of Lamina's Swift API with the swift-docc-plugin (Package.swift) into .build/docs:
#
#   tools/docs.sh            then: python3 -m http.server -d .build/docs 8000
#                            and open http://localhost:8000/documentation/lamina/
#
# Five archives, each built with --warnings-as-errors, so a broken ``Symbol`` link or a missing page fails
# (QuartzCore, CoreGraphics and ImageIO under .build/docs/NAME, besides these two):
#   .build/docs/            the `Lamina` catalogue (Sources/Lamina/Lamina.docc): every public type a program gets
#                           from `import Lamina`, with the articles (getting started, animation, transactions);
#   .build/docs/LaminaScene the `LaminaScene` catalogue (Sources/LaminaScene/LaminaScene.docc): how scenes load.
#
# Why the Lamina symbol graph is extracted here and not by the plugin: Lamina owns almost no code of its own, it
# re-exports LaminaCore, LaminaLayers, LaminaCPU, ... (`@_exported import`, Sources/Lamina/Lamina.swift). The
# plugin's symbol graph of Lamina holds only Lamina's own symbols, so ``Layer`` would not resolve. The toolchain's
# swift-symbolgraph-extract includes re-exported modules' symbols when they are named in
# -experimental-allowed-reexported-modules, which SwiftPM does not pass; so this script extracts that graph itself
# and hands it to the plugin with --additional-symbol-graph-dir (the plugin then uses it instead of its own).
# Foundation is re-exported too but left out: its symbols are not Lamina's API.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --target Lamina
bin=$(swift build --show-bin-path)
symbols=.build/docs-symbols/Lamina
rm -rf "$symbols" && mkdir -p "$symbols"

# The modules `import Lamina` brings in: every Lamina* target that Sources/Lamina/Lamina.swift re-exports.
reexported=$(sed -n 's/^@_exported import \(Lamina[A-Za-z]*\)$/\1/p' Sources/Lamina/Lamina.swift | paste -sd, -)
if [ -z "$reexported" ]; then
    echo "docs.sh: no re-exported Lamina module found in Sources/Lamina/Lamina.swift" >&2
    exit 1
fi

# The C modules' maps and headers, as the build gives them to swiftc (systemLibrary targets, pkg-config).
cflags=()
for map in Sources/C*/module.modulemap; do cflags+=(-Xcc "-fmodule-map-file=$PWD/$map"); done
# C targets (CXdgShell): SwiftPM writes their module maps into the build folder; their headers are in include/.
for map in "$bin"/C*.build/module.modulemap; do [ -e "$map" ] && cflags+=(-Xcc "-fmodule-map-file=$map"); done
for include in Sources/C*/include; do [ -d "$include" ] && cflags+=(-Xcc "-I$PWD/$include"); done
read -r -a includes <<< "$(pkg-config --cflags-only-I libpng16 libturbojpeg pixman-1 cairo pangocairo egl glesv2 gbm libdrm x11 xext \
    wayland-client wayland-egl)"
for include in "${includes[@]}"; do cflags+=(-Xcc "$include"); done

extract=$(dirname "$(readlink -f "$(command -v swift)")")/swift-symbolgraph-extract
"$extract" -module-name Lamina -target "$(uname -m)-unknown-linux-gnu" -I "$bin/Modules" \
    -module-cache-path "$bin/ModuleCache" "${cflags[@]}" -minimum-access-level public -skip-inherited-docs \
    -experimental-allowed-reexported-modules="$reexported" -output-dir "$symbols"

rm -rf .build/docs
swift package --disable-sandbox generate-documentation --target Lamina --warnings-as-errors \
    --additional-symbol-graph-dir "$symbols" --output-path .build/docs
swift package --disable-sandbox generate-documentation --target LaminaScene --warnings-as-errors \
    --hosting-base-path LaminaScene --output-path .build/docs/LaminaScene
# The modules with Apple's names (docs/porting.md): a catalogue each.
for module in QuartzCore CoreGraphics ImageIO; do
    swift package --disable-sandbox generate-documentation --target "$module" --warnings-as-errors \
        --hosting-base-path "$module" --output-path ".build/docs/$module"
done
echo "docs: open .build/docs (python3 -m http.server -d .build/docs 8000; http://localhost:8000/documentation/lamina/)"
