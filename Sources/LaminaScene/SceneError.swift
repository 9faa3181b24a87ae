import Foundation

/// One thing wrong with a scene: where it is and what is wrong.
///
/// Its description is one line, as compilers write them:
/// `scene.json:14:7: layers[2].contentsGravty: unknown key (did you mean "contentsGravity"?)`.
/// `:line:column` appears only when known, and the path only when there is one (a JSON syntax error has
/// none).
public struct SceneProblem: Equatable, Sendable, CustomStringConvertible {
    /// The scene file as the caller named it (the `fileName` given to `Scene.load(data:...)`, or the URL's
    /// relative path).
    public var file: String
    /// The line of the offending key or value, counted from 1; nil when the problem has no place in the file.
    public var line: Int?
    /// The column, counted from 1 in Unicode scalars; nil with `line`.
    public var column: Int?
    /// The JSON path of the offending key or value: `size`, `layers[0].sublayers[1].contentsRect`;
    /// "" for the whole file.
    public var path: String
    /// What is wrong, in words: `expected a number, got a string`.
    public var message: String

    /// A problem; `line` and `column` nil when unknown, `path` "" for the whole file.
    public init(file: String, line: Int? = nil, column: Int? = nil, path: String, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.path = path
        self.message = message
    }

    public var description: String {
        var text = file
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        text += ": "
        if !path.isEmpty { text += path + ": " }
        return text + message
    }
}

/// Why a scene could not be loaded: every problem found, in the order they appear in the file.
///
/// Loading does not stop at the first problem, so that one run shows everything to fix.
public struct SceneError: Error, CustomStringConvertible {
    /// At least one; sorted by line and column, problems without a position last.
    public var problems: [SceneProblem]

    /// An error of the given problems, kept in the order given.
    public init(problems: [SceneProblem]) {
        self.problems = problems
    }

    /// One problem per line.
    public var description: String {
        problems.map(\.description).joined(separator: "\n")
    }
}

// `localizedDescription` is what most callers print; make it the same text.
extension SceneError: LocalizedError {
    public var errorDescription: String? { description }
}
