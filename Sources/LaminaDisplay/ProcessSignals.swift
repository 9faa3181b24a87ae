import Foundation

/// SIGTERM, SIGINT and SIGHUP as readable bytes on a pipe (the self-pipe trick): the handler only writes the
/// signal's number, which is all a signal handler may safely do; the frame loop polls the pipe and acts on its
/// own thread. One per process.
public final class ProcessSignals: @unchecked Sendable {
    public static let shared = ProcessSignals()

    /// The end the loop polls.
    public let descriptor: Int32
    private var installed = false

    private init() {
        var fds: [Int32] = [0, 0]
        if pipe(&fds) != 0 { fds = [-1, -1] }
        for fd in fds where fd >= 0 {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        descriptor = fds[0]
        signalPipeWriteEnd = fds[1]
    }

    /// Routes SIGTERM, SIGINT and SIGHUP to the pipe (instead of ending the process); SIGPIPE is ignored, so a
    /// control client that goes away is an error on its socket, not the end of the kiosk.
    public func install() {
        guard !installed else { return }
        installed = true
        for number in [SIGTERM, SIGINT, SIGHUP] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(signalPipeWriteEnd, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
        signal(SIGPIPE, SIG_IGN)
    }

    /// The signals received since the last call, in order.
    public func take() -> [Int32] {
        var buffer = [UInt8](repeating: 0, count: 64)
        var signals: [Int32] = []
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { break }
            signals += buffer.prefix(count).map { Int32($0) }
        }
        return signals
    }
}

/// The pipe's write end, for the handler (a C function pointer captures nothing).
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1
