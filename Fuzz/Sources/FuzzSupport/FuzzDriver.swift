import CLibFuzzer
import Foundation

/// Starts libFuzzer from a fuzz target's `main`.
///
/// Why a main at all: SwiftPM links an executable target with `--defsym main=<target>_main`, so a target with
/// only `LLVMFuzzerTestOneInput` (libFuzzer's usual form) fails to link. Each target therefore has an `@main`
/// that hands its test function to `LLVMFuzzerRunDriver`, and also exports that function as
/// `LLVMFuzzerTestOneInput` for the runtime's own main, which the linker pulls in as well.
public enum FuzzDriver {
    /// Runs libFuzzer with this process's command line (corpus folders, `-max_total_time=`, ...) and exits
    /// with its status: 0 when the time ran out with no finding, non-zero on a crash, leak or timeout.
    public static func run(_ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
    }

    /// The input as `Data` (libFuzzer passes a null pointer for the empty input).
    public static func data(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Data {
        guard let bytes, count > 0 else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    /// Stops the run as a finding: libFuzzer treats the abort as a crash and saves the input.
    public static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("fuzz: \(message)\n".utf8))
        abort()
    }
}
