import Foundation
import Testing

/// The DocC catalogues' symbol links (``Layer``) name public declarations of the documented modules: a cheap
/// check in the normal suite; tools/docs.sh runs docc itself with --warnings-as-errors.
extension DocumentationLinkTests {
    /// The modules a catalogue documents: every Swift target under Sources/ but the benchmark and test support,
    /// which are no part of the library's API.
    static let documentedModules: [String] = {
        let sources = root.appendingPathComponent("Sources")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []
        // The modules with Apple's names (docs/porting.md) have catalogues of their own.
        let apple: Set<String> = ["QuartzCore", "CoreGraphics", "ImageIO"]
        return names.filter { ($0.hasPrefix("Lamina") || apple.contains($0)) && $0 != "LaminaBench"
            && $0 != "LaminaTestSupport" }.sorted()
    }()

    static func symbolChecker() -> DocumentationSymbolLinks {
        var checker = DocumentationSymbolLinks(modules: Set(documentedModules))
        for module in documentedModules {
            for path in files(under: "Sources/\(module)", suffixes: [".swift"]) {
                if let text = read(path) { checker.addDeclarations(of: text) }
            }
        }
        return checker
    }

    @Test func everySymbolLinkOfTheCataloguesNamesAPublicDeclaration() {
        let checker = Self.symbolChecker()
        #expect(checker.types.isSuperset(of: ["Layer", "BasicAnimation", "CPURenderer", "Scene", "currentMediaTime",
                                              "CADisplayLink", "CATransform3DMakeRotation"]))
        let pages = Self.files(under: "Sources", suffixes: [".md"]).filter { $0.contains(".docc/") }
        var links = 0
        for path in pages {
            let page = Self.read(path) ?? ""
            links += DocumentationSymbolLinks.links(page).count
            let problems = checker.problems(inPage: page, path: path)
            #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        }
        #expect(links >= 40, "only \(links) symbol links read: the pattern has stopped finding them")
    }

    @Test func brokenSymbolLinksAreReported() {
        var checker = DocumentationSymbolLinks(modules: ["LaminaLayers"])
        checker.addDeclarations(of: """
            open class Layer {
                public func presentationSnapshot(at time: Double) -> LayerSnapshot? { nil }
                public var opacity: Float = 1
                public init() {}
            }
            public enum FillMode: String {
                case removed, forwards // a comment
            }
            public func currentMediaTime() -> Double { 0 }
            struct Hidden { public func inner() {} }
            """)
        let page = """
            # ``LaminaLayers``
            ``Layer``, ``Layer/presentationSnapshot(at:)``, ``Layer/opacity``, ``Layer/init()``, ``FillMode/forwards``,
            ``currentMediaTime()``, ``LaminaLayers/Layer``, ``FillMode-swift.enum``
            ``Nope``, ``Layer/nope()``, ``Hidden``
            ```swift
            ``NotALinkInCode``
            ```
            """
        #expect(checker.problems(inPage: page, path: "A.md") == [
            "A.md:4: ``Nope``: no public type or function Nope",
            "A.md:4: ``Layer/nope()``: no public member nope",
            "A.md:4: ``Hidden``: no public type or function Hidden",
        ])
    }
}
