/// Which frames of an export one process renders (`lamina export --shard K/N`), and how many frames an
/// export has.
///
/// Shard K of N (0-based) is the K-th of N contiguous blocks of frames: frames
/// floor(K x count / N) ..< floor((K + 1) x count / N). The blocks are in order, never overlap, differ in
/// length by at most one frame, and together are every frame, so N processes (a Kubernetes Indexed Job, a
/// Slurm array) render the whole export between them, each frame keeping its global number.
public struct FrameShard: Hashable, Sendable, CustomStringConvertible {
    /// K: 0 ..< count.
    public let index: Int
    /// N: at least 1.
    public let count: Int

    /// The whole export, as one shard.
    public static let whole = FrameShard(uncheckedIndex: 0, count: 1)

    private init(uncheckedIndex index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Shard `index` of `count`. Throws `FrameShardError` unless 0 <= index < count.
    public init(index: Int, count: Int) throws(FrameShardError) {
        guard count >= 1 else { throw FrameShardError(text: "\(index)/\(count)", problem: .noShards) }
        guard index >= 0, index < count else {
            throw FrameShardError(text: "\(index)/\(count)", problem: .indexOutOfRange)
        }
        self.init(uncheckedIndex: index, count: count)
    }

    /// Parses `K/N`, such as `3/8`. Throws `FrameShardError`.
    public init(parsing text: String) throws(FrameShardError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]),
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } })
        else { throw FrameShardError(text: text, problem: .syntax) }
        guard count >= 1 else { throw FrameShardError(text: text, problem: .noShards) }
        guard index < count else { throw FrameShardError(text: text, problem: .indexOutOfRange) }
        self.init(uncheckedIndex: index, count: count)
    }

    /// `K/N`.
    public var description: String { "\(index)/\(count)" }

    /// This shard's frames of an export of `frames` frames (empty when there are more shards than frames).
    public func range(ofFrames frames: Int) -> Range<Int> {
        precondition(frames >= 0)
        // In 128 bits: K x count overflows Int only for absurd counts, but it must not trap.
        func bound(_ k: Int) -> Int {
            let product = Int64(k).multipliedFullWidth(by: Int64(frames))
            return Int(Int64(count).dividingFullWidth(product).quotient)
        }
        return bound(index)..<bound(index + 1)
    }

    /// The number of frames of an export of `duration` seconds at `fps`: ceil(duration x fps), the frames
    /// at times start + n / fps that fall before start + duration. A product within 1e-9 of an integer counts
    /// as that integer, so 0.1 s at 30 fps is 3 frames, not 4. Nil when the count is not a finite number
    /// from 0 to `limit`.
    public static func frameCount(duration: Double, fps: Double, limit: Int = 100_000_000) -> Int? {
        let exact = duration * fps
        guard exact.isFinite, exact >= 0 else { return nil }
        let nearest = exact.rounded()
        let frames = abs(exact - nearest) < 1e-9 ? nearest : exact.rounded(.up)
        guard frames <= Double(limit) else { return nil }
        return Int(frames)
    }
}

/// A `--shard` value that names no shard: `bad shard "TEXT": PROBLEM`.
public struct FrameShardError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Problem: Equatable, Sendable {
        /// Not two unsigned integers K/N.
        case syntax
        /// N is 0.
        case noShards
        /// K is N or more.
        case indexOutOfRange
    }

    public var text: String
    public var problem: Problem

    public init(text: String, problem: Problem) {
        self.text = text
        self.problem = problem
    }

    public var description: String {
        switch problem {
        case .syntax: return "bad shard \"\(text)\": expected INDEX/COUNT, two whole numbers such as 0/4"
        case .noShards: return "bad shard \"\(text)\": the count must be at least 1"
        case .indexOutOfRange: return "bad shard \"\(text)\": the index is 0-based and must be less than the count"
        }
    }
}
