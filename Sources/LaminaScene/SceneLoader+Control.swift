import Foundation
import LaminaCore
import LaminaLayers

/// Control lines (`lamina play --control`, docs/kiosk.md): JSON objects like timeline entries without "at",
/// `{"layer": "price", "set": {"string": "4.99"}, "animationDuration": 0.3}`, applied at once as one transaction.
extension Scene {
    /// Reads `line` against this scene's layers and images and applies it as one transaction at media time `time`
    /// (so its changes animate implicitly from then, unless it says `"disableActions": true`). A bad line changes
    /// nothing and throws `SceneError` whose problems name `<control>`, the line's number and the column.
    public func apply(controlLine line: String, lineNumber: Int, at time: Double) throws(SceneError) {
        guard let loader else {
            throw SceneError(problems: [SceneProblem(file: "<control>", line: lineNumber, column: nil, path: "",
                                                     message: "this scene was not loaded from a file: no layer names")])
        }
        var entry = try loader.controlEntry(Data(line.utf8), lineNumber: lineNumber)
        entry.at = time
        SceneTimeline.apply(entry)
    }
}

extension SceneLoader {
    /// One control line's entry, checked as a timeline entry is; problems are put on line `lineNumber` of
    /// `<control>`.
    func controlEntry(_ data: Data, lineNumber: Int) throws(SceneError) -> SceneTimeline.Entry {
        problems = []
        func placed(_ problems: [SceneProblem]) -> SceneError {
            SceneError(problems: problems.map { p in
                SceneProblem(file: "<control>", line: lineNumber, column: p.column, path: p.path, message: p.message)
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
        Transaction.begin()
        Transaction.setDisableActions(true)
        let entry = timelineEntry(value, "", control: true)
        Transaction.commit()
        guard problems.isEmpty, let entry else { throw placed(sortedProblems()) }
        return entry
    }
}
