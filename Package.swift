// swift-tools-version:6.0
import PackageDescription

/// A C library found with pkg-config; `apt` names the Debian package that provides it.
func systemLibrary(_ name: String, pkgConfig: String, apt: String) -> Target {
    .systemLibrary(name: name, path: "Sources/\(name)", pkgConfig: pkgConfig, providers: [.apt([apt])])
}

let package = Package(
    name: "Lamina",
    products: [
        .library(name: "Lamina", targets: ["Lamina"]),
        .executable(name: "lamina", targets: ["lamina"]),
        // Apple's module names over the same objects (docs/porting.md): code written for iOS or macOS with
        // `import QuartzCore`, `import CoreGraphics` and `import ImageIO` builds against these.
        .library(name: "QuartzCore", targets: ["QuartzCore"]),
        .library(name: "CoreGraphics", targets: ["CoreGraphics"]),
        .library(name: "ImageIO", targets: ["ImageIO"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `swift package generate-documentation` (tools/docs.sh): builds the DocC catalogues. A plugin only, so
        // nothing of it is linked into Lamina or the CLI.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        systemLibrary("CPNG", pkgConfig: "libpng16", apt: "libpng-dev"),
        systemLibrary("CJPEG", pkgConfig: "libturbojpeg", apt: "libturbojpeg0-dev"),
        // zlib's raw inflate: the zip (dotLottie) archive reader in LaminaImageIO (docs/archives.md).
        systemLibrary("CZlib", pkgConfig: "zlib", apt: "zlib1g-dev"),
        systemLibrary("CPixman", pkgConfig: "pixman-1", apt: "libpixman-1-dev"),
        systemLibrary("CCairo", pkgConfig: "cairo", apt: "libcairo2-dev"),
        // Text: Pango lays out (HarfBuzz shapes, fontconfig picks fonts) and draws with cairo.
        systemLibrary("CPango", pkgConfig: "pangocairo", apt: "libpango1.0-dev"),
        systemLibrary("CEGL", pkgConfig: "egl glesv2", apt: "libegl-dev libgles-dev"),
        systemLibrary("CGBM", pkgConfig: "gbm", apt: "libgbm-dev"),
        // The display outputs (docs/kiosk.md): DRM/KMS and fbdev, X11 (Xlib + MIT-SHM).
        systemLibrary("CDRM", pkgConfig: "libdrm", apt: "libdrm-dev"),
        systemLibrary("CX11", pkgConfig: "x11 xext xpresent", apt: "libx11-dev libxext-dev libxpresent-dev"),
        systemLibrary("CWayland", pkgConfig: "wayland-client wayland-egl", apt: "libwayland-dev"),
        // The xdg-shell client code wayland-scanner generates (tools/generate-wayland.sh), committed.
        .target(name: "CXdgShell", dependencies: ["CWayland"]),
        .systemLibrary(name: "CLinux", path: "Sources/CLinux"),

        .target(name: "LaminaCore"),
        // Debian's Duktape amalgamation (duktape-dev) built with an execution deadline, and Lottie's expressions on it.
        .target(name: "CDuktape"),
        .target(name: "LaminaExpressions", dependencies: ["CDuktape", "LaminaCore"]),
        .target(name: "LaminaImageIO", dependencies: ["LaminaCore", "CPNG", "CJPEG", "CZlib"]),
        .target(name: "LaminaDrawing", dependencies: ["LaminaCore", "CCairo", "CPango"]),
        .target(name: "LaminaLayers", dependencies: ["LaminaCore", "LaminaDrawing"]),
        // The CPU renderer's own SIMD compositing loops (SSE2, AVX2), with pixman's arithmetic (docs/benchmarks.md).
        .target(name: "CComposite"),
        .target(name: "LaminaCPU", dependencies: ["LaminaCore", "CPixman", "CComposite"]),
        .target(name: "LaminaGLES", dependencies: ["LaminaCore", "CEGL", "CGBM"]),
        .target(name: "LaminaScene", dependencies: ["LaminaCore", "LaminaLayers", "LaminaImageIO", "LaminaDrawing", "LaminaExpressions"]),
        // Showing frames on screens: the outputs, the frame loop, `Display` and the scene player of `lamina play`.
        .target(
            name: "LaminaDisplay",
            dependencies: ["LaminaCore", "LaminaLayers", "LaminaCPU", "LaminaGLES", "LaminaScene", "LaminaImageIO",
                           "CEGL", "CGBM", "CDRM", "CX11", "CLinux", "CWayland", "CXdgShell"]
        ),
        // Apple's names (docs/porting.md): typealiases of Lamina's own types plus Apple's API on them, so that
        // ported code and Lamina code share one model.
        .target(name: "CoreGraphics", dependencies: ["LaminaCore", "LaminaDrawing", "LaminaImageIO", "_Testing_CoreGraphics"]),
        // The cross-import overlay Swift Testing looks for beside any module named CoreGraphics (see its file).
        .target(name: "_Testing_CoreGraphics"),
        .target(name: "ImageIO", dependencies: ["CoreGraphics", "LaminaCore", "LaminaImageIO"]),
        .target(name: "QuartzCore",
                dependencies: ["CoreGraphics", "LaminaCore", "LaminaDrawing", "LaminaLayers", "LaminaCPU", "LaminaGLES",
                               "CEGL"]),
        .target(
            name: "Lamina",
            dependencies: [
                "LaminaCore", "LaminaImageIO", "LaminaDrawing", "LaminaLayers", "LaminaCPU", "LaminaGLES",
                "LaminaScene", "LaminaDisplay", "QuartzCore", "CoreGraphics", "ImageIO",
            ]
        ),
        // The tools' code (benchmark and soak scenes, the GL baseline, the generator, process memory, the built-in
        // demo, the export sidecar's SHA-256): not a product, only the CLI and the tests use it, so the library
        // carries none of it.
        .target(name: "LaminaBench",
                dependencies: ["Lamina", "LaminaCore", "LaminaDrawing", "LaminaLayers", "LaminaGLES", "CEGL"]),
        .target(name: "LaminaTestSupport", dependencies: ["Lamina", "LaminaBench"]),
        .executableTarget(
            name: "lamina",
            // CCairo: the benchmark's plain-cairo baseline draws the same scenes without Lamina. CLinux: mallinfo2.
            dependencies: ["Lamina", "LaminaBench", "CCairo", "CLinux", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "tools/lamina"
        ),

        .testTarget(name: "LaminaCoreTests", dependencies: ["LaminaCore"]),
        .testTarget(name: "LaminaExpressionsTests", dependencies: ["LaminaExpressions"]),
        .testTarget(name: "LaminaImageIOTests", dependencies: ["LaminaImageIO", "LaminaBench", "LaminaTestSupport", "CZlib"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "LaminaLayersTests",
                    dependencies: ["LaminaLayers", "LaminaDrawing", "LaminaTestSupport", "CPango", "CCairo"]),
        // CPixman: CPUCompositeLoopsTests compares the CPU renderer's own loops with pixman's composites.
        .testTarget(name: "LaminaRenderTests", dependencies: ["Lamina", "LaminaBench", "LaminaTestSupport", "QuartzCore", "CEGL",
                                                              "CPixman"],
                    resources: [.copy("Scenes")]),
        .testTarget(name: "LaminaSceneTests", dependencies: ["Lamina", "LaminaScene", "LaminaTestSupport"],
                    resources: [.copy("Fixtures")]),
        // lamina: `lamina play` on the display servers; CEGL: a direct EGL test of the Wayland output's wl_egl_window.
        .testTarget(name: "LaminaDisplayTests",
                    dependencies: ["Lamina", "LaminaDisplay", "LaminaTestSupport", "lamina", "CEGL"]),
        // Lottie playback (docs/lottie.md): the Corpus of small Lottie files, one feature each, with probe pixels.
        .testTarget(name: "LaminaLottieTests", dependencies: ["Lamina", "LaminaScene", "LaminaTestSupport"],
                    resources: [.copy("Corpus")]),
        .testTarget(name: "LaminaCLITests", dependencies: ["LaminaBench", "LaminaTestSupport", "lamina"]),
        // The ported sample of docs/porting.md: iOS layer code with only Apple's module names, and its command.
        .target(name: "BackingImageSample", dependencies: ["QuartzCore", "CoreGraphics", "ImageIO"],
                path: "examples/backing-image/BackingImageSample"),
        .executableTarget(name: "backing-image", dependencies: ["BackingImageSample"],
                          path: "examples/backing-image/backing-image"),
        // Programs as an iOS developer writes them: only Apple's module names, no Lamina name.
        .testTarget(name: "QuartzCoreTests", dependencies: ["QuartzCore", "CoreGraphics", "ImageIO", "BackingImageSample"]),
    ]
)

// The fuzz targets (Fuzz/, docs/fuzzing.md) exist only when LAMINA_FUZZ=1, as tools/fuzz.sh builds them: they
// link libFuzzer and need `-sanitize=fuzzer` on every module, so a plain `swift build` must not see them.
if Context.environment["LAMINA_FUZZ"] == "1" {
    let lamina: [Target.Dependency] = ["FuzzSupport", "LaminaCore", "LaminaImageIO", "LaminaScene"]
    package.targets += [
        .target(name: "CLibFuzzer", path: "Fuzz/Sources/CLibFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzer"], path: "Fuzz/Sources/FuzzSupport"),
        .executableTarget(name: "FuzzJSON", dependencies: lamina, path: "Fuzz/Sources/FuzzJSON"),
        .executableTarget(name: "FuzzScene", dependencies: lamina, path: "Fuzz/Sources/FuzzScene"),
        .executableTarget(name: "FuzzControl", dependencies: lamina + ["LaminaLayers"], path: "Fuzz/Sources/FuzzControl"),
        .executableTarget(name: "FuzzSpriteSheet", dependencies: lamina, path: "Fuzz/Sources/FuzzSpriteSheet"),
        .executableTarget(name: "FuzzPNG", dependencies: lamina, path: "Fuzz/Sources/FuzzPNG"),
        .executableTarget(name: "FuzzJPEG", dependencies: lamina, path: "Fuzz/Sources/FuzzJPEG"),
        .executableTarget(name: "FuzzZip", dependencies: lamina, path: "Fuzz/Sources/FuzzZip"),
        .executableTarget(name: "FuzzExpression", dependencies: ["FuzzSupport", "LaminaExpressions"],
                          path: "Fuzz/Sources/FuzzExpression"),
    ]
}
