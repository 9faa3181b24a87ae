import Foundation
import Testing

/// The project's links and citations reach real pages and headings: docs/*.md, README.md and the DocC catalogues
/// link only to files and anchors that exist, and code cites docs/ pages by headings they have (issue 14: 53
/// citations pointed at design notes outside the project, often by headings no page had). The checker itself is
/// tested on pages given as strings, so a broken link is shown to fail.
@Suite struct DocumentationLinkTests {
    /// The repository's root: this file is Tests/LaminaCoreTests/DocumentationLinkTests.swift.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Project-relative paths of the files under `folder` (recursively) whose names end in one of `suffixes`.
    static func files(under folder: String, suffixes: [String]) -> [String] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey])
        else { return [] }
        var found: [String] = []
        for case let url as URL in walker {
            let relative = folder + "/" + url.path.dropFirst(base.path.count + 1)
            if relative.contains("/.build/") || relative.contains("/Corpus/") {
                walker.skipDescendants()
                continue
            }
            if suffixes.contains(where: { relative.hasSuffix($0) }) { found.append(relative) }
        }
        return found.sorted()
    }

    static func read(_ path: String) -> String? {
        try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// docs/*.md, README.md and every page of every DocC catalogue under Sources/.
    static func projectChecker() -> DocumentationLinks {
        var paths = files(under: "docs", suffixes: [".md"]).filter { !$0.dropFirst(5).contains("/") } + ["README.md"]
        paths += files(under: "Sources", suffixes: [".md"]).filter { $0.contains(".docc/") }
        var pages: [String: String] = [:]
        for path in paths { pages[path] = read(path) }
        return DocumentationLinks(pages: pages) { path in
            FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path)
        }
    }

    // MARK: The project

    @Test func everyLinkAndAnchorOfTheDocumentationExists() {
        let checker = Self.projectChecker()
        #expect(checker.pages.keys.contains("docs/semantics.md") && checker.pages.keys.contains("README.md"))
        #expect(checker.pages.keys.contains { $0.contains(".docc/") }, "no DocC catalogue found")
        var links = 0
        for path in checker.pages.keys.sorted() {
            links += DocumentationLinks.links(checker.pages[path]!).count
            let problems = checker.problems(inPage: path)
            #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        }
        #expect(links >= 30, "only \(links) links read: the parser has stopped finding them")
    }

    @Test func everyCitationInCodeNamesAnExistingPageAndHeading() {
        let checker = Self.projectChecker()
        let suffixes = [".swift", ".py", ".sh", ".json", ".md", ".c", ".h", ".supp"]
        let thisFile = "Tests/LaminaCoreTests/DocumentationLinkTests.swift"
        var paths = ["Sources", "Tests", "tools", "Fuzz"].flatMap { Self.files(under: $0, suffixes: suffixes) }
        paths += ["Package.swift"] + Array(checker.pages.keys)
        var citations = 0
        for path in paths where path != thisFile && path != "tools/fix-design-refs.py" {
            guard let text = Self.read(path) else { continue }
            let result = checker.problems(inCode: text, path: path)
            citations += result.citations
            #expect(result.problems.isEmpty, "\(result.problems.joined(separator: "\n"))")
        }
        #expect(citations >= 60, "only \(citations) citations of docs/ read: the pattern has stopped finding them")
    }

    @Test func theParityBoundIsDocumentedInNumbersAndLinkedFromTheReadme() throws {
        let semantics = try #require(Self.read("docs/semantics.md"))
        let section = try #require(semantics.firstRange(of: "## Parity\n").map { semantics[$0.upperBound...] })
        let body = section[..<(section.firstRange(of: "\n## ")?.lowerBound ?? section.endIndex)]
        for phrase in ["premultiplied", "more than 2", "99.9%", "At most 8 on every pixel", "ImageDifference.meetsParity", "ParityTests"] {
            #expect(body.contains(phrase), "docs/semantics.md, \"Parity\" does not say \(phrase)")
        }
        #expect(try #require(Self.read("README.md")).contains("(docs/semantics.md#parity)"))
    }

    // MARK: The checker, on pages given as strings

    @Test func slugsFollowGitHub() {
        #expect(DocumentationLinks.slug(#"Modules (Package.swift); an arrow is "may import""#)
                == "modules-packageswift-an-arrow-is-may-import")
        #expect(DocumentationLinks.slug("Drawing steps (`draw`)") == "drawing-steps-draw")
        #expect(DocumentationLinks.slug("Same pixels as the CPU renderer") == "same-pixels-as-the-cpu-renderer")
        #expect(DocumentationLinks.slug("This machine (2026-11-22)") == "this-machine-2026-11-22")
        #expect(DocumentationLinks.slug("Where *Lamina* differs: [CA](x.md)") == "where-lamina-differs-ca")
        #expect(DocumentationLinks.anchors("# Tests\n## Tests\n### Tests\n") == ["tests", "tests-1", "tests-2"])
    }

    @Test func headingsAndLinksInsideCodeAreNotRead() {
        let page = "# Top\n```sh\n# not a heading\n[not](a-link.md)\n```\nSee `[code](x.md)` and [real](y.md#z).\n"
        #expect(DocumentationLinks.headings(page) == ["Top"])
        #expect(DocumentationLinks.links(page) == [DocumentationLinks.Link(line: 6, target: "y.md#z", isImage: false)])
    }

    static let pages = [
        "docs/a.md": "# Page A\n## Spaces\n## Tests\n## Tests\n",
        "docs/b.md": """
            # Page B
            [ok](a.md#spaces) [ok](#page-b) [ok](a.md#tests-1) [ok](../README.md) ![ok](pic.png) [web](https://x.org/#q)
            [missing file](c.md) [missing anchor](a.md#space) [missing here](#nope) ![missing image](gone.png)
            [out](../../etc/passwd)
            """,
        "README.md": "[ok](docs/a.md#tests) [missing](docs/a.md#tests-2)\n[ok]: docs/b.md#page-b\n",
    ]

    static func memoryChecker() -> DocumentationLinks {
        DocumentationLinks(pages: pages) { pages[$0] != nil || $0 == "docs/pic.png" }
    }

    @Test func brokenLinksAnchorsAndImagesAreReported() {
        let checker = Self.memoryChecker()
        #expect(checker.problems(inPage: "docs/a.md").isEmpty)
        #expect(checker.problems(inPage: "docs/b.md") == [
            "docs/b.md:3: link c.md: docs/c.md does not exist",
            "docs/b.md:3: link a.md#space: docs/a.md has no heading with the anchor #space",
            "docs/b.md:3: link #nope: docs/b.md has no heading with the anchor #nope",
            "docs/b.md:3: image gone.png: docs/gone.png does not exist",
            "docs/b.md:4: link ../../etc/passwd: points outside the project",
        ])
        #expect(checker.problems(inPage: "README.md") == [
            "README.md:1: link docs/a.md#tests-2: docs/a.md has no heading with the anchor #tests-2",
        ])
    }

    @Test func citationsInCodeMustNameARealPageAndHeading() {
        let checker = Self.memoryChecker()
        let good = """
            /// Spaces (docs/a.md, "Spaces"), the whole page (docs/b.md), across lines (docs/a.md,
            /// "Tests"), possessive docs/a.md's "Spaces", JSON "docs/a.md, \\"Tests\\": ..."
            """
        let result = checker.problems(inCode: good, path: "X.swift")
        #expect(result.problems.isEmpty && result.citations == 5, "\(result)")
        let bad = """
            // (docs/a.md, "Space")
            # see docs/z.md
            /// (SEMANTICS.md, "Spaces") and ARCHITECTURE.md's table
            """
        #expect(checker.problems(inCode: bad, path: "X.swift").problems == [
            "X.swift:3: cites SEMANTICS.md, a design note outside the project (run tools/fix-design-refs.py)",
            "X.swift:3: cites ARCHITECTURE.md, a design note outside the project (run tools/fix-design-refs.py)",
            "X.swift:1: cites docs/a.md, \"Space\", which is not one of its headings",
            "X.swift:2: cites docs/z.md, which does not exist",
        ])
    }
}
