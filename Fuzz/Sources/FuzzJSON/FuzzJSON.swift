import FuzzSupport
@testable import LaminaScene

/// The scene files' JSON parser on arbitrary bytes: it must return a value or throw `JSONSyntaxError`, never
/// trap, overflow the stack (deep nesting) or read out of bounds.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = FuzzDriver.data(bytes, count)
    do {
        let (root, issues) = try JSONParser.parse(data)
        // Positions count from 1 and never pass the end of the text.
        if root.position.line < 1 || root.position.column < 1 || root.position.line > count + 1 {
            FuzzDriver.fail("root position \(root.position) for \(count) bytes")
        }
        for issue in issues where issue.message.isEmpty { FuzzDriver.fail("an issue with no message") }
    } catch {
        if error.message.isEmpty { FuzzDriver.fail("a syntax error with no message") }
    }
    return 0
}

@main enum FuzzJSONMain {
    static func main() { FuzzDriver.run(fuzzJSON) }
}
