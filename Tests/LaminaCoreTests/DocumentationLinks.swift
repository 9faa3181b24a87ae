import Foundation

/// Checks the project's cross-references as GitHub shows them: every relative link and image of a Markdown page
/// reaches a file, every `#anchor` reaches a heading, and every citation in code (a page's path under docs/, a comma
/// and a heading in quotes: the form tools/fix-design-refs.py writes) names a page and a heading that exist. It works on texts handed to it, so
/// tests can feed it broken pages as strings.
struct DocumentationLinks {
    /// Markdown pages by project-relative path ("docs/semantics.md", "README.md"): the pages anchors may point into.
    var pages: [String: String] { didSet { parsed = Parsed() } }
    /// Whether a project-relative path names an existing file or folder.
    var fileExists: (String) -> Bool
    /// Each page's headings and anchors, read once: read again for every link and citation, the pages' regular
    /// expressions were most of the check's half a minute.
    private var parsed = Parsed()

    private final class Parsed: @unchecked Sendable {
        var headings: [String: Set<String>] = [:]
        var anchors: [String: Set<String>] = [:]
    }

    init(pages: [String: String], fileExists: @escaping (String) -> Bool) {
        self.pages = pages
        self.fileExists = fileExists
    }

    /// The headings of the page at `path` (whose text is `text`), kept for the next question.
    private func headings(of path: String, text: String) -> Set<String> {
        if let known = parsed.headings[path] { return known }
        let found = Set(Self.headings(text))
        parsed.headings[path] = found
        return found
    }

    /// The anchors of the page at `path`, kept for the next question.
    private func anchors(of path: String, text: String) -> Set<String> {
        if let known = parsed.anchors[path] { return known }
        let found = Self.anchors(text)
        parsed.anchors[path] = found
        return found
    }

    /// The design notes outside the project, which nothing in it may cite (assembled from parts so that this file
    /// does not cite them itself).
    static let outsidePages = ["SEMANTICS", "ARCHITECTURE", "SCENE-FORMAT", "STYLE", "ANIMATION", "DISPLAY", "LAYERS"]
        .map { $0 + ".md" }

    // MARK: Headings and anchors

    /// GitHub's anchor for a heading's text: the text as rendered (code spans and emphasis markers dropped, a link
    /// by its text), lowercased, every character that is not a letter, digit, `_`, `-` or space removed, and
    /// spaces turned into `-`.
    static func slug(_ heading: String) -> String {
        var text = heading.replacingOccurrences(of: "`", with: "")
        text = text.replacingOccurrences(of: #"!?\[([^\]]*)\]\([^)]*\)"#, with: "$1", options: .regularExpression)
        text = text.replacingOccurrences(of: #"\*+|(?<!\w)_+|_+(?!\w)"#, with: "", options: .regularExpression)
        var out = ""
        for scalar in text.lowercased().unicodeScalars {
            let keep = CharacterSet.letters.contains(scalar) || CharacterSet.decimalDigits.contains(scalar)
                || CharacterSet.nonBaseCharacters.contains(scalar) || scalar == "_" || scalar == "-"
            if scalar == " " { out += "-" } else if keep { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    /// The lines of a page that are not inside fenced code blocks, with their 1-based numbers.
    static func proseLines(_ text: String) -> [(number: Int, text: String)] {
        var lines: [(Int, String)] = []
        var fence: String?
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let open = fence {
                if trimmed.hasPrefix(open) { fence = nil }
                continue
            }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                fence = String(trimmed.prefix(3))
                continue
            }
            lines.append((index + 1, line))
        }
        return lines
    }

    /// A page's ATX headings (`#` to `######`), as written, outside code blocks.
    static func headings(_ text: String) -> [String] {
        proseLines(text).compactMap { line in
            // Most lines are not headings: the expression (slow in a debug build) only reads lines with a '#'.
            guard line.text.utf8.contains(UInt8(ascii: "#")),
                let match = line.text.firstMatch(of: /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/) else { return nil }
            return String(match.1)
        }
    }

    /// A page's anchors: each heading's slug, repeated headings numbered -1, -2 as GitHub numbers them.
    static func anchors(_ text: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var anchors = Set<String>()
        for heading in headings(text) {
            let base = slug(heading)
            let count = seen[base, default: 0]
            seen[base] = count + 1
            anchors.insert(count == 0 ? base : "\(base)-\(count)")
        }
        return anchors
    }

    // MARK: Links

    /// A link or image of a page: its line, target as written, and whether it is an image.
    struct Link: Equatable {
        var line: Int
        var target: String
        var isImage: Bool
    }

    /// Inline links and images, reference definitions and HTML `src`/`href` attributes, outside code.
    static func links(_ text: String) -> [Link] {
        var links: [Link] = []
        for line in proseLines(text) {
            // Every form below holds a '[' or a '<': other lines are not searched.
            let bytes = line.text.utf8
            guard bytes.contains(UInt8(ascii: "[")) || bytes.contains(UInt8(ascii: "<")) else { continue }
            let prose = line.text.replacingOccurrences(of: #"`[^`]*`"#, with: "", options: .regularExpression)
            for match in prose.matches(of: /(!?)\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/) {
                links.append(Link(line: line.number, target: String(match.2), isImage: !match.1.isEmpty))
            }
            if let match = prose.firstMatch(of: /^ {0,3}\[[^\]]+\]:\s+<?([^\s>]+)>?/) {
                links.append(Link(line: line.number, target: String(match.1), isImage: false))
            }
            for match in prose.matches(of: /<(img|a)\b[^>]*\b(?:src|href)="([^"]+)"/) {
                links.append(Link(line: line.number, target: String(match.2), isImage: match.1 == "img"))
            }
        }
        return links
    }

    /// `path` with `.` and `..` resolved, relative to the project root; nil when it climbs out of the project.
    static func normalized(_ path: String) -> String? {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                if parts.isEmpty { return nil }
                parts.removeLast()
            } else {
                parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }

    /// Every broken link, image and anchor of the page at `path`, as `path:line: message`.
    func problems(inPage path: String) -> [String] {
        guard let text = pages[path] else { return ["\(path): not a known page"] }
        let folder = (path as NSString).deletingLastPathComponent
        var problems: [String] = []
        for link in Self.links(text) {
            let target = link.target
            if target.firstMatch(of: /^[a-zA-Z][a-zA-Z0-9+.-]*:/) != nil { continue }  // https:, mailto:, doc:
            let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let file = parts[0].removingPercentEncoding ?? String(parts[0])
            let anchor = parts.count > 1 ? String(parts[1]) : nil
            let subject = "\(path):\(link.line): \(link.isImage ? "image" : "link") \(target)"
            var resolved = path
            if !file.isEmpty {
                guard let normal = Self.normalized(folder.isEmpty ? file : folder + "/" + file) else {
                    problems.append("\(subject): points outside the project")
                    continue
                }
                resolved = normal
                guard pages[resolved] != nil || fileExists(resolved) else {
                    problems.append("\(subject): \(resolved) does not exist")
                    continue
                }
            }
            guard let anchor, !anchor.isEmpty else { continue }
            guard resolved.hasSuffix(".md") else { continue }  // e.g. a line anchor into a source file
            guard let page = pages[resolved] else {
                problems.append("\(subject): \(resolved) is not a page this check reads")
                continue
            }
            if !anchors(of: resolved, text: page).contains(anchor.removingPercentEncoding ?? anchor) {
                problems.append("\(subject): \(resolved) has no heading with the anchor #\(anchor)")
            }
        }
        return problems
    }

    // MARK: Citations in code

    /// A citation of a project page in code: a page's path under docs/, optionally followed by `, "Heading"` (the
    /// heading may start on the next comment line), `'s "Heading"` or ` "Heading"`, with JSON's `\"` as quotes too.
    static let citation = try! NSRegularExpression(pattern:
        #"(?<![\w./-])docs/([\w-]+\.md)(?:(?:,[ \t]*(?:\n[ \t]*(?:///?|#|\*)?[ \t]*)?|'s[ \t]+|[ \t]+)(\\?")([^"\\\n]{1,100})\2)?"#)
    /// Any mention of a design note outside the project.
    static let outside = try! NSRegularExpression(pattern:
        #"(?<![\w/.-])(?:"# + outsidePages.map { NSRegularExpression.escapedPattern(for: $0) }.joined(separator: "|")
            + ")")

    /// Every citation in `text` (a source file at `path`) that names a missing page or heading, or a design note
    /// outside the project, as `path:line: message`; and how many citations of project pages it read.
    func problems(inCode text: String, path: String) -> (problems: [String], citations: Int) {
        let string = text as NSString
        let range = NSRange(location: 0, length: string.length)
        // The offsets (UTF-16, as NSRange counts) where lines start, found once: counting the newlines before
        // each match from the start of the file made a long file's check quadratic.
        var lineStarts = [0]
        for offset in 0..<string.length where string.character(at: offset) == 10 { lineStarts.append(offset + 1) }
        func line(_ location: Int) -> Int {
            var (low, high) = (0, lineStarts.count)
            while low < high {
                let middle = (low + high) / 2
                if lineStarts[middle] <= location { low = middle + 1 } else { high = middle }
            }
            return low
        }
        var problems: [String] = []
        for match in Self.outside.matches(in: text, range: range) {
            problems.append("\(path):\(line(match.range.location)): cites \(string.substring(with: match.range)), "
                            + "a design note outside the project (run tools/fix-design-refs.py)")
        }
        let matches = Self.citation.matches(in: text, range: range)
        for match in matches {
            let page = "docs/" + string.substring(with: match.range(at: 1))
            let at = "\(path):\(line(match.range.location))"
            guard let pageText = pages[page] else {
                problems.append("\(at): cites \(page), which does not exist")
                continue
            }
            guard match.range(at: 3).location != NSNotFound else { continue }
            let heading = string.substring(with: match.range(at: 3))
            if !headings(of: page, text: pageText).contains(heading) {
                problems.append("\(at): cites \(page), \"\(heading)\", which is not one of its headings")
            }
        }
        return (problems, matches.count)
    }
}
