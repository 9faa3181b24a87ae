import Foundation

/// Checks the DocC symbol links of the catalogues (``Layer``, ``Layer/presentationSnapshot(at:)``, ``Scene/load(...)``)
/// against the public declarations of the sources, so a renamed type or method shows up in the normal suite and
/// not only when tools/docs.sh runs docc. It reads texts handed to it, so tests can feed it broken pages.
///
/// The check is by name, not by full signature: every component of a link must be a public type, or (after the
/// first) a public member or enum case, of some module; docc itself checks the rest (tools/docs.sh).
struct DocumentationSymbolLinks {
    /// Names of public types (class, struct, enum, protocol, actor, typealias) and of public top-level functions.
    var types: Set<String>
    /// Names of public members (func, var, let, init, subscript) and of enum cases.
    var members: Set<String>
    /// Module names a link may start with (``LaminaScene``, ``Lamina/Layer``).
    var modules: Set<String>

    static let typeDeclaration = try! NSRegularExpression(pattern:
        #"\b(?:public|open)\s+(?:(?:final|indirect|nonisolated|static|class)\s+)*(?:class|struct|enum|protocol|actor|typealias)\s+(\w+)"#)
    static let functionDeclaration = try! NSRegularExpression(pattern:
        #"\b(?:public|open)\s+(?:(?:final|static|class|override|mutating|nonisolated|convenience|required|@\w+)\s+)*(?:func|var|let|subscript)\s+`?(\w+)"#)
    static let initDeclaration = try! NSRegularExpression(pattern:
        #"\b(?:public|open)\s+(?:(?:override|convenience|required)\s+)*init\b"#)
    static let caseDeclaration = try! NSRegularExpression(pattern: #"^\s*(?:indirect\s+)?case\s+([^=(:{}/]+)"#,
                                                           options: .anchorsMatchLines)
    static let symbolLink = try! NSRegularExpression(pattern: "``([^`]+)``")

    init(types: Set<String> = [], members: Set<String> = [], modules: Set<String> = []) {
        self.types = types
        self.members = members
        self.modules = modules
    }

    static func matches(_ regex: NSRegularExpression, in text: String) -> [String] {
        let range = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range).compactMap { match in
            match.numberOfRanges > 1 ? Range(match.range(at: 1), in: text).map { String(text[$0]) } : "init"
        }
    }

    /// Adds the public declarations of one Swift source file.
    mutating func addDeclarations(of source: String) {
        types.formUnion(Self.matches(Self.typeDeclaration, in: source))
        for name in Self.matches(Self.functionDeclaration, in: source) {
            members.insert(name)
            types.insert(name)  // a top-level function (``currentMediaTime()``) is linked like a type
        }
        if !Self.matches(Self.initDeclaration, in: source).isEmpty { members.insert("init") }
        for list in Self.matches(Self.caseDeclaration, in: source) {
            for name in list.split(separator: ",") {
                members.insert(name.trimmingCharacters(in: .whitespaces))
            }
        }
    }

    /// The symbol links of a page outside code blocks, with their line numbers.
    static func links(_ page: String) -> [(line: Int, target: String)] {
        DocumentationLinks.proseLines(page).flatMap { line in
            matches(symbolLink, in: line.text).map { (line.number, $0) }
        }
    }

    /// The name a link component refers to: `presentationSnapshot(at:)` is `presentation`, `Kind-swift.enum` is `Kind`.
    static func baseName(_ component: Substring) -> String {
        String(component.prefix { $0 != "(" && $0 != "-" })
    }

    /// One message per link of `page` that names no public declaration.
    func problems(inPage page: String, path: String) -> [String] {
        var problems: [String] = []
        for (line, target) in Self.links(page) {
            var components = target.split(separator: "/").map(Self.baseName)
            if let first = components.first, modules.contains(first) { components.removeFirst() }
            guard let first = components.first else { continue }  // the module's own page
            if !types.contains(first) {
                problems.append("\(path):\(line): ``\(target)``: no public type or function \(first)")
                continue
            }
            for member in components.dropFirst() where !members.contains(member) && !types.contains(member) {
                problems.append("\(path):\(line): ``\(target)``: no public member \(member)")
            }
        }
        return problems
    }
}
