/// The damage of an output's last frames, from which the pixels any buffer lacks are worked out: by the buffer's age
/// (EGL_EXT_buffer_age), or by the frame it last received (a key the buffer's owner keeps with it). As wlroots'
/// `wlr_damage_ring`, one type serves every kind of buffer history (docs/architecture.md, "Damage"): the retained
/// frames of live trees, the GLES presenter's back buffers, DRM and fbdev buffers that take turns, and Wayland's
/// shared-memory buffers.
///
/// Each frame is recorded with the damage that makes the frame before it into it (`nil`: unknown, the whole frame);
/// a buffer that holds an older frame lacks the union of the damage of the frames after it. A buffer older than the
/// ring remembers, of a frame the ring never saw, or of another size, lacks everything.
public struct DamageRing: Sendable {
    private struct Entry: Sendable {
        var frame: UInt64
        /// The frame the damage is measured against.
        var since: UInt64
        /// Nil: the whole frame.
        var region: DamageRegion?
    }

    /// The frames recorded, oldest first (at most `limit`).
    private var entries: [Entry] = []
    private var lastKey: UInt64 = 0
    /// The size of the frames recorded: a frame of another size forgets the older ones.
    public private(set) var width = 0
    public private(set) var height = 0
    /// Frames remembered: a buffer older than this many frames lacks the whole frame.
    public let limit: Int

    public init(limit: Int = 8) {
        self.limit = max(1, limit)
    }

    /// The newest frame recorded, or nil.
    public var newestFrame: UInt64? { entries.last?.frame }

    /// Records a `width` x `height` frame whose pixels differ from those of frame `since` (nil: the newest recorded)
    /// in `damage` (nil: anywhere), and returns its key: `frame`, or a new key unique in this ring.
    @discardableResult
    public mutating func add(_ damage: DamageRegion?, width: Int, height: Int, frame: UInt64? = nil,
                             since: UInt64? = nil) -> UInt64 {
        if width != self.width || height != self.height {
            entries.removeAll()
            (self.width, self.height) = (width, height)
        }
        let key: UInt64
        if let frame {
            key = frame
        } else {
            lastKey &+= 1
            key = lastKey
        }
        let previous = since ?? entries.last?.frame ?? 0
        entries.append(Entry(frame: key, since: previous, region: damage?.clipped(to: bounds)))
        if entries.count > limit { entries.removeFirst(entries.count - limit) }
        return key
    }

    /// Forgets every frame: every buffer lacks the whole of the next one.
    public mutating func removeAll() {
        entries.removeAll()
    }

    /// What a buffer holding frame `frame` lacks to show the newest frame: the union of the damage of the frames
    /// after it (empty when it holds the newest); nil when the ring's chain of frames does not reach back to it.
    public func staleRegion(since frame: UInt64?) -> DamageRegion? {
        guard let frame else { return nil }
        var region = DamageRegion()
        var index = entries.count - 1
        while index >= 0 {
            let entry = entries[index]
            if entry.frame == frame { return region }
            guard let damage = entry.region else { return nil }
            region.formUnion(damage)
            if entry.since == frame { return region }
            // Damage measured against a frame that is not the one recorded before it: the chain breaks here.
            guard index > 0, entries[index - 1].frame == entry.since else { return nil }
            index -= 1
        }
        return nil
    }

    /// `staleRegion(since:)`, or the whole frame where that is unknown (a new buffer: `frame` nil).
    public func damage(since frame: UInt64?) -> DamageRegion {
        staleRegion(since: frame) ?? .full(width: width, height: height)
    }

    /// What a buffer of age `age` lacks to show the newest frame (EGL_EXT_buffer_age: 1 when it holds the frame
    /// recorded before the newest, n when it holds the frame n recordings back; 0 when its pixels are undefined).
    /// Ages as old as the ring or older get the whole frame.
    public func damage(forAge age: Int) -> DamageRegion {
        guard age >= 1, age < entries.count else { return .full(width: width, height: height) }
        return damage(since: entries[entries.count - 1 - age].frame)
    }

    private var bounds: PixelBox { PixelBox(x0: 0, y0: 0, x1: width, y1: height) }
}
