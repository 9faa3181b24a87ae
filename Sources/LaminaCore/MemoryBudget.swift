import Foundation

/// A limit on the bytes of pixel memory that loading and rendering may hold at once: decoded images, offscreen
/// buffers (groups, masks, shadows), GPU textures and render targets, and the output image.
///
/// A budget is shared by reference: the command-line tool gives one budget to the scene loader and to the
/// renderer, so that images and render buffers count against one limit. Every allocation it covers asks
/// `reserve(_:for:)` first, so an over-limit request is a `MemoryLimitError` before any memory is touched.
/// Reservations are objects: memory is given back when the reservation is released or freed (an `Image`
/// holds the reservation for its pixels in `memoryReservation`, so dropping the image gives its bytes back).
///
/// Thread-safe: the CPU renderer's bands and shadow workers reserve from several threads.
public final class MemoryBudget: @unchecked Sendable {
    /// 2 GiB: what `lamina render` allows unless told otherwise with `--memory-limit`.
    public static let defaultLimit = 2 << 30

    /// The most bytes that may be reserved at once.
    public let limit: Int
    private let lock = NSLock()
    private var used = 0
    private var highest = 0

    /// A budget of `limit` bytes (at least 0).
    public init(limit: Int = MemoryBudget.defaultLimit) {
        self.limit = max(0, limit)
    }

    /// Bytes reserved now.
    public var inUse: Int {
        lock.lock()
        defer { lock.unlock() }
        return used
    }

    /// The most bytes reserved at any one time since the budget was made.
    public var peak: Int {
        lock.lock()
        defer { lock.unlock() }
        return highest
    }

    /// Reserves `bytes` for `what` (words for the error, such as `image "big.png" (16384x16384)`), or throws
    /// `MemoryLimitError` when that would pass the limit; nothing is reserved then.
    public func reserve(_ bytes: Int, for what: @autoclosure () -> String) throws(MemoryLimitError) -> MemoryReservation {
        let bytes = max(0, bytes)
        lock.lock()
        let (total, overflow) = used.addingReportingOverflow(bytes)
        guard !overflow, total <= limit else {
            let current = used
            lock.unlock()
            throw MemoryLimitError(limit: limit, requested: bytes, inUse: current, what: what())
        }
        used = total
        highest = max(highest, total)
        lock.unlock()
        return MemoryReservation(budget: self, bytes: bytes)
    }

    /// Reserves every one of `parts` (bytes, and what asks for them) as one reservation, or throws the
    /// `MemoryLimitError` of the first part that does not fit; nothing is reserved then.
    public func reserve(_ parts: [(bytes: Int, what: String)]) throws(MemoryLimitError) -> MemoryReservation {
        var held: [MemoryReservation] = []
        for part in parts { held.append(try reserve(part.bytes, for: part.what)) }
        // The parts' bytes stay reserved, now held by one reservation.
        for reservation in held { reservation.handOver() }
        return MemoryReservation(budget: self, bytes: held.reduce(0) { $0 + $1.bytes })
    }

    /// Whether `bytes` more would fit now (a question only: nothing is reserved).
    public func canReserve(_ bytes: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let (total, overflow) = used.addingReportingOverflow(max(0, bytes))
        return !overflow && total <= limit
    }

    fileprivate func giveBack(_ bytes: Int) {
        lock.lock()
        used -= bytes
        lock.unlock()
    }
}

/// Bytes held against a `MemoryBudget`; given back by `release()` or when the reservation is freed.
public final class MemoryReservation: @unchecked Sendable {
    /// The budget the bytes came from.
    public let budget: MemoryBudget
    /// The bytes reserved.
    public let bytes: Int
    private let lock = NSLock()
    private var released = false

    fileprivate init(budget: MemoryBudget, bytes: Int) {
        self.budget = budget
        self.bytes = bytes
    }

    /// Marks the bytes as held elsewhere: this reservation no longer gives them back.
    fileprivate func handOver() {
        lock.lock()
        released = true
        lock.unlock()
    }

    /// Gives the bytes back now (once: later calls do nothing).
    public func release() {
        lock.lock()
        let first = !released
        released = true
        lock.unlock()
        if first { budget.giveBack(bytes) }
    }

    deinit { release() }
}

/// A request that would take a `MemoryBudget` past its limit. The message names what asked and how much:
/// `memory limit 2 GiB exceeded: image "big.png" (16384x16384) needs 1 GiB, 1.5 GiB already in use`.
public struct MemoryLimitError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The budget's limit in bytes.
    public var limit: Int
    /// The bytes asked for.
    public var requested: Int
    /// The bytes already reserved when it was asked.
    public var inUse: Int
    /// What asked, in words (an image and its size, a group buffer, the output).
    public var what: String

    public init(limit: Int, requested: Int, inUse: Int, what: String) {
        (self.limit, self.requested, self.inUse, self.what) = (limit, requested, inUse, what)
    }

    public var description: String {
        "memory limit \(MemorySize.describe(limit)) exceeded: \(what) needs \(MemorySize.describe(requested)), "
            + "\(MemorySize.describe(inUse)) already in use (raise it with --memory-limit or "
            + "MemoryBudget(limit:))"
    }
}

extension MemoryLimitError: LocalizedError {
    public var errorDescription: String? { description }
}
