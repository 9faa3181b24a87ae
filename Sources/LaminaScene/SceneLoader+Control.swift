import Foundation
import LaminaCore
import LaminaLayers

/// Control lines (`lamina play --control`, docs/kiosk.md): JSON objects like timeline entries without "at",
/// `{"layer": "price", "set": {"string": "4.99"}, "animationDuration": 0.3}`, applied at once as one transaction.
extension Scene {
    /// Reads `line` against this scene's layers and images and applies it as one transaction at media time `time`
    /// (so its changes animate implicitly from then, unless it says `"disableActions": true`). A bad line changes
    /// nothing and throws `SceneError` whose problems name `<control>`, the line's number and the column.
    ///
    /// The change is the file's from then on: when `advance(to:)` goes back in time it stays, without its animation
    /// (docs/animation.md, "Random access in time"). Playback lines (`{"seek": 2}`) are the player's, not the
    /// scene's: read them with `PlaybackCommand.parse(_:lineNumber:)` first.
    public func apply(controlLine line: String, lineNumber: Int, at time: Double) throws(SceneError) {
        guard let loader else {
            throw SceneError(problems: [SceneProblem(file: "<control>", line: lineNumber, column: nil, path: "",
                                                     message: "this scene was not loaded from a file: no layer names")])
        }
        var entry = try loader.controlEntry(Data(line.utf8), lineNumber: lineNumber)
        entry.at = time
        timeline.applyControl(entry)
    }
}

extension Scene {
    /// Applies `controlLine` (a control line's JSON object) as an edit of the scene file would: before any frame and
    /// every timeline entry (those applied already are applied again after it), with no implicit animation and no
    /// transition, so the change shows at every time and survives `advance(to:)` going back (`lamina batch`'s
    /// `"set"`, docs/scale.md). A bad line changes nothing and throws `SceneError` whose problems are put on line
    /// `line` of `file`, their paths after `path` (`set[0].layer: no layer is named "titel"`).
    public func edit(controlLine: Data, file: String, line: Int, path: String) throws(SceneError) {
        guard let loader else {
            throw SceneError(problems: [SceneProblem(file: file, line: line, path: path,
                                                     message: "this scene was not loaded from a file: no layer names")])
        }
        var entry = try loader.controlEntry(controlLine, lineNumber: line, file: file, pathPrefix: path, edit: true)
        entry.at = 0
        entry.disableActions = true
        timeline.applyEdit(entry)
    }
}

extension SceneLoader {
    /// The keys of a control line that animate its change, which an edit (`Scene.edit`) cannot have.
    static let animatingControlKeys = ["animationDuration", "timingFunction", "disableActions", "transition"]

    /// One control line's entry, checked as a timeline entry is; problems are put on line `lineNumber` of
    /// `file` (with their columns unless `pathPrefix` is given: the line is then part of another document), their
    /// paths after `pathPrefix`. `edit`: the line may not animate (`animatingControlKeys`).
    func controlEntry(_ data: Data, lineNumber: Int, file: String = "<control>", pathPrefix: String = "",
                      edit: Bool = false) throws(SceneError) -> SceneTimeline.Entry {
        problems = []
        func placed(_ problems: [SceneProblem]) -> SceneError {
            SceneError(problems: problems.map { p in
                let path = pathPrefix.isEmpty ? p.path
                    : p.path.isEmpty ? pathPrefix : p.path.hasPrefix("[") ? pathPrefix + p.path : pathPrefix + "." + p.path
                return SceneProblem(file: file, line: lineNumber, column: pathPrefix.isEmpty ? p.column : nil,
                                    path: path, message: p.message)
            })
        }
        let value: JSONValue
        do throws(JSONSyntaxError) {
            let parsed = try JSONParser.parse(data)
            value = parsed.root
            for issue in parsed.issues { report(issue.path, at: issue.position, issue.message) }
        } catch {
            throw placed([problem("", at: error.position, error.message)])
        }
        // Checking the values builds a layer of its own (a transaction of this thread): none of it may reach frames
        // half done, so it is one transaction, committed before the entry applies.
        if edit, case .object(let members) = value.kind {
            for member in members where Self.animatingControlKeys.contains(member.key) {
                report(member.key, at: member.value.position,
                       "an edit applies before the first frame, as in the scene file: it cannot animate")
            }
        }
        Transaction.begin()
        Transaction.setDisableActions(true)
        let entry = timelineEntry(value, "", control: true)
        Transaction.commit()
        guard problems.isEmpty, let entry else { throw placed(sortedProblems()) }
        return entry
    }
}
