import Foundation
import Lamina
import Testing

@testable import LaminaScene

/// Malformed JSON: one clear message with line and column, and no crash however deep.
@Suite struct JSONSyntaxTests {
    @Test(arguments: [
        (#"{"size": }"#, "scene.json:1:10: unexpected character '}', expected a value"),
        (#"{"size": [1, 2],}"#, "scene.json:1:16: trailing comma"),
        (#"{"size": [1, 2,]}"#, "scene.json:1:15: trailing comma"),
        (#"{"size": [1 2]}"#, "scene.json:1:13: unexpected character '2', expected ',' or ']'"),
        (#"{"size": [1, 2] "scale": 1}"#, #"scene.json:1:17: unexpected character '"', expected ',' or '}'"#),
        (#"{"size" [1, 2]}"#, "scene.json:1:9: unexpected character '[', expected ':' after the key"),
        (#"{size: [1, 2]}"#, "scene.json:1:2: unexpected character 's', expected a key in double quotes"),
        (
            #"{'size': [1, 2]}"#,
            #"scene.json:1:2: unexpected character "'" (strings take double quotes), expected a key in double quotes"#
        ),
        (#"{"size": [1, 2], "name": "abc}"#, "scene.json:1:26: unterminated string"),
        (
            "{\"size\": [1, 2],\n \"layers\": [\n",
            "scene.json:3:1: unexpected end of file (the '[' at 2:12 is not closed)"
        ),
        ("", "scene.json:1:1: the file is empty"),
        ("  \n ", "scene.json:2:2: the file is empty"),
        (
            "{\"size\": [1, 2] // comment\n}",
            "scene.json:1:17: unexpected character '/' (comments are not allowed in JSON), expected ',' or '}'"
        ),
        (#"{"hidden": True}"#, "scene.json:1:12: unexpected word 'True' (did you mean 'true'?)"),
        (#"{"opacity": NaN}"#, "scene.json:1:13: unexpected word 'NaN' (numbers must be finite)"),
        (#"{"name": hello}"#, "scene.json:1:10: unexpected word 'hello' (strings take double quotes)"),
        (#"{"size": [01, 2]}"#, "scene.json:1:11: invalid number: leading zeros are not allowed"),
        (#"{"size": [1., 2]}"#, "scene.json:1:11: invalid number: expected a digit after '.'"),
        (#"{"size": [1e, 2]}"#, "scene.json:1:11: invalid number: expected a digit in the exponent"),
        (#"{"size": [-, 2]}"#, "scene.json:1:11: invalid number: expected a digit after '-'"),
        (#"{"size": [.5, 2]}"#, "scene.json:1:11: unexpected character '.', expected a value"),
        (#"{"name": "a\qb"}"#, #"scene.json:1:12: invalid escape '\q' in a string"#),
        (#"{"name": "a\u12G4"}"#, #"scene.json:1:12: invalid \u escape (expected 4 hex digits)"#),
        (#"{"name": "\uD800x"}"#, #"scene.json:1:11: unpaired surrogate \uD800 in a string"#),
        ("{\"name\": \"a\tb\"}", "scene.json:1:12: unescaped control character U+0009 in a string"),
        (#"{"size": [1, 2]} {}"#, "scene.json:1:18: unexpected character '{' after the end of the top-level value"),
        (
            "{\"size\": [1, 2],\n  \"name\": \u{201C}x\u{201D}}",
            "scene.json:2:11: unexpected character '\u{201C}' (use straight double quotes), expected a value"
        ),
        ("{\"name\": \"caf\u{E9}\", \"x\": ]}", "scene.json:1:23: unexpected character ']', expected a value"),
    ])
    func malformed(json: String, expected: String) {
        #expect(problems(json) == [expected])
    }

    @Test func invalidUTF8() {
        var bytes = Array(#"{"name": "a"#.utf8)
        bytes += [0xFF, 0xFE]
        bytes += Array(#"b"}"#.utf8)
        do {
            _ = try Scene.load(data: Data(bytes), baseDirectory: Fixtures.folder, fileName: "scene.json")
            Issue.record("loaded")
        } catch {
            #expect("\(error)" == "scene.json:1:10: invalid UTF-8 in a string")
        }
    }

    @Test func tenThousandNestedLayersGiveAClearErrorNotACrash() {
        // Each layer nests two JSON levels (its object and its "sublayers" array); the 256th layer's "{" is
        // the 513th level. The prefix is 24 characters and each level 14.
        let depth = 10_000
        let json =
            #"{"size":[1,1],"layers":["# + String(repeating: #"{"sublayers":["#, count: depth)
            + String(repeating: "]}", count: depth) + "]}"
        #expect(problems(json) == ["scene.json:1:\(25 + 255 * 14): nesting deeper than 512 levels"])
    }

    @Test func aHundredThousandNestedArraysGiveAClearErrorNotACrash() {
        let json = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(problems(json) == ["scene.json:1:513: nesting deeper than 512 levels"])
    }

    @Test func exactlyTheMaximumDepthParses() throws {
        let json = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        let parsed = try JSONParser.parse(Data(json.utf8))
        #expect(parsed.issues.isEmpty)
        #expect(problems(json) == ["scene.json:1:1: expected a JSON object at the top level, got an array"])
    }

    @Test func parserRecordsPositionsOfValuesAndKeys() throws {
        let json = "{\n  \"a\": [1, {\"b\": true}],\n\t\"c\": null\n}"
        let (root, issues) = try JSONParser.parse(Data(json.utf8))
        #expect(issues.isEmpty)
        guard case .object(let members) = root.kind else {
            Issue.record("not an object")
            return
        }
        #expect(root.position == JSONPosition(line: 1, column: 1))
        #expect(members.map(\.key) == ["a", "c"])
        #expect(members[0].keyPosition == JSONPosition(line: 2, column: 3))
        #expect(members[0].value.position == JSONPosition(line: 2, column: 8))
        #expect(members[1].keyPosition == JSONPosition(line: 3, column: 2))
        #expect(members[1].value.position == JSONPosition(line: 3, column: 7))
        guard case .array(let items) = members[0].value.kind, case .object(let inner) = items[1].kind else {
            Issue.record("wrong shape")
            return
        }
        #expect(items[1].position == JSONPosition(line: 2, column: 12))
        #expect(inner[0].keyPosition == JSONPosition(line: 2, column: 13))
        #expect(inner[0].value.position == JSONPosition(line: 2, column: 18))
    }

    @Test func numbersParseExactly() throws {
        let (root, _) = try JSONParser.parse(Data("[0, -0.5, 1e3, 2.5E-2, 12345678901234567890, -7]".utf8))
        guard case .array(let items) = root.kind else {
            Issue.record("not an array")
            return
        }
        let numbers = items.map { item -> Double? in
            if case .number(let number) = item.kind { return number }
            return nil
        }
        #expect(numbers == [0, -0.5, 1000, 0.025, 12_345_678_901_234_567_168, -7])
    }

    @Test func aNumberOutOfRangeIsReportedWithTheOtherProblems() {
        let json = #"{"size": [1e999, 10], "scale": -1}"#
        #expect(
            problems(json) == [
                "scene.json:1:11: size[0]: number 1e999 is out of range (numbers must be finite)",
                "scene.json:1:32: scale: must be a positive number",
            ])
    }

    @Test func duplicateKeysAreReported() {
        let json = """
            {"size": [10, 10], "layers": [
                {"opacity": 0.5, "name": "a",
                 "opacity": 1}
            ], "size": [20, 20]}
            """
        #expect(
            problems(json) == [
                "scene.json:3:6: layers[0].opacity: duplicate key (first at 2:6)",
                "scene.json:4:4: size: duplicate key (first at 1:2)",
            ])
    }
}
