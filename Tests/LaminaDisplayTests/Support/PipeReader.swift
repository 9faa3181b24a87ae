import Foundation

/// Reads a child process's pipe to its end on a thread of its own, with blocking reads, rather than through
/// `FileHandle.readabilityHandler`: on Linux that handler is a dispatch read source, and tearing the pipe down while
/// the source's cancellation is still in flight can crash libdispatch's event loop (`_dispatch_event_loop_drain`, a
/// dangling epoll registration; swift-corelibs-foundation pull request 5507), which once took the whole test process
/// down in the middle of the display suites.
final class PipeReader: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private let ended = DispatchSemaphore(value: 0)

    /// Starts reading `pipe`; the parent's copy of its write end is closed, so that the read ends when the child's
    /// copies close (its exit).
    init(_ pipe: Pipe) {
        try? pipe.fileHandleForWriting.close()
        let handle = pipe.fileHandleForReading
        let thread = Thread { [self] in
            while true {
                // Blocks until bytes arrive; empty at the end of the pipe.
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                lock.withLock { data.append(chunk) }
            }
            ended.signal()
        }
        thread.name = "pipe reader"
        thread.start()
    }

    /// What was read so far.
    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }

    /// Waits up to `seconds` for the end of the pipe; true when it came.
    @discardableResult
    func waitForEnd(seconds: Double) -> Bool {
        ended.wait(timeout: .now() + seconds) == .success
    }
}
