import Foundation
import LaminaCore
import LaminaDrawing

/// The tiles of a tree's tiled layers (docs/semantics.md, "Tiled layers"), kept by one renderer beside its plan cache
/// (`PlanCache.tiles`), never on the layers: keyed by layer, grid, level, column and row, with the generation of the
/// layer's marks each was drawn for, and let go least recently used first once they hold more than `budget` bytes.
///
/// Live frames (`Planner.liveTileTime` set, as `Renderer.livePlan` does) never wait: the tiles a frame misses are
/// queued (the newest frame's first, nearest the middle of what it shows first; tiles no longer visible leave the
/// queue) and drawn by a small pool of background threads; a frame shows the tiles that arrived since the last one,
/// each fading in over the layer's fadeDuration from the first frame that shows it. Offline frames draw the visible
/// tiles they miss at once, in parallel, before the plan is made.
public final class TileCache: @unchecked Sendable {
    /// What one frame did with its tiles, for tests and benchmarks.
    public struct Statistics: Hashable, Sendable {
        /// Tiles the frame shows (at the chosen levels), drawn or not.
        public var tilesVisible = 0
        /// Tiles drawn on the frame's thread before the plan was made (offline frames).
        public var tilesDrawnNow = 0
        /// Tiles that had arrived from the background threads since the last frame.
        public var tilesArrived = 0
        /// Tiles the frame missed and queued for drawing (live frames).
        public var tilesQueued = 0
        /// Missing tiles shown by a coarser level already drawn.
        public var tilesShownCoarser = 0
        /// Tiles fading in.
        public var tilesFading = 0
        /// Tiles let go for the budget at the end of the frame.
        public var tilesEvicted = 0

        public init() {}
    }

    /// The most bytes of tile pixels kept between frames: 256 MiB by default. The tiles of the current frame are kept
    /// even past it (they are bounded by `TileGrid.mostPixelsPerFrame` per layer).
    public var budget: Int {
        get { locked { storedBudget } }
        set { locked { storedBudget = max(0, newValue) } }
    }
    /// Where tiles reserve their pixels before they are drawn (docs/architecture.md, "Memory budget"): the renderer's
    /// `memoryBudget`, which the planner sets each frame. Over it, an offline frame throws `MemoryLimitError` before
    /// any tile is drawn; a tile a background thread cannot fit is not drawn and the next frame throws the error.
    public var memoryBudget: MemoryBudget? {
        get { locked { storedMemoryBudget } }
        set { locked { storedMemoryBudget = newValue } }
    }
    /// The last frame's counters.
    public var statistics: Statistics { locked { lastStatistics } }
    /// Tiles drawn since the cache was made, on any thread.
    public var totalTilesDrawn: Int { locked { drawnCount } }
    /// Tiles kept now, and their bytes.
    public var tileCount: Int { locked { entries.count } }
    public var byteCount: Int { locked { bytes } }
    /// Whether live frames are needed to finish what is under way: tiles queued, being drawn, arrived and not shown
    /// yet, or fading in.
    public var needsFrames: Bool {
        locked { !queue.isEmpty || !inFlight.isEmpty || !inbox.isEmpty || lastFading }
    }
    /// Whether the frame under way chose the tiles of a tiled layer.
    var choseTiles: Bool { locked { !emitted.isEmpty } }
    /// The most threads drawing tiles at once for this cache.
    public let threads: Int
    /// The most tiles kept, whatever their size.
    static let mostTiles = 8192

    struct Key: Hashable {
        var layer: LayerID
        var grid: TileGrid
        var level: Int
        var column: Int
        var row: Int
    }

    private struct Entry {
        var image: Image
        var generation: UInt64
        /// The time of the first live frame that showed it; -infinity: shown at once (drawn for an offline frame);
        /// nil: not shown yet.
        var shownAt: Double?
        /// The stale picture it replaces, shown under it while it fades in.
        var previous: Image?
        var lastUse: UInt64
        var bytes: Int { image.width * image.height * 4 }
    }

    /// A tile to draw.
    struct Job {
        var key: Key
        var drawer: TileDrawer
        var generation: UInt64
        var rect: CGRect
        var origin: CGPoint
        var density: Double
        var width: Int
        var height: Int
    }

    private struct Arrival {
        var job: Job
        var image: Image
    }

    private let lock = NSLock()
    private var entries: [Key: Entry] = [:]
    private var bytes = 0
    private var storedBudget = 256 << 20
    private var queue: [Job] = []
    private var inFlight: Set<Key> = []
    private var inbox: [Arrival] = []
    private var running = 0
    private var drawnCount = 0
    private var frame: UInt64 = 0
    /// The live frame's time; nil: an offline frame.
    private var liveTime: Double?
    /// Layers whose tiles this frame chose, and the tiles each wants drawn.
    private var emitted: Set<LayerID> = []
    private var wanted: [Job] = []
    /// The frame each layer last chose its tiles in.
    private var layerFrames: [LayerID: UInt64] = [:]
    private var lastFading = false
    private var lastIncomplete = false
    private var fading = false
    private var incomplete = false
    private var frameStatistics = Statistics()
    private var lastStatistics = Statistics()
    /// Where tiles reserve their pixels before they are drawn (the renderer's, set by the planner each frame); nil:
    /// not counted. A tile holds its reservation while it is kept.
    private var storedMemoryBudget: MemoryBudget?
    /// A tile that a background thread could not reserve: the next frame throws it.
    private var refusal: MemoryLimitError?
    /// A frame threw `refusal`: the one after it plans the tiled layers again (their tiles are wanted again).
    private var refused = false

    /// `threads`: by default one fewer than the cores (so a frame keeps a core of its own), 1 to 4.
    public init(threads: Int = min(4, max(1, Processors.active - 1))) {
        self.threads = max(1, threads)
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    // MARK: Frames

    /// Starts a frame (live at `time`, or offline with nil): takes in the tiles that arrived since the last. Returns
    /// whether what the tiled layers show may differ from the last frame's plan (tiles arrived, fading, or missing
    /// from a live frame now drawn offline), so that their planned quads cannot be reused.
    func beginFrame(liveAt time: Double?) -> Bool {
        locked {
            frame += 1
            liveTime = time
            emitted = []
            wanted = []
            fading = false
            incomplete = false
            frameStatistics = Statistics()
            let arrived = !inbox.isEmpty
            for arrival in inbox {
                let key = arrival.job.key
                let old = entries[key]
                if let old, old.generation >= arrival.job.generation { continue }
                if let old { bytes -= old.bytes }
                let previous = old.flatMap { $0.shownAt == nil ? nil : $0.image }
                entries[key] = Entry(image: arrival.image, generation: arrival.job.generation, shownAt: nil,
                                     previous: previous, lastUse: frame)
                bytes += arrival.image.width * arrival.image.height * 4
                frameStatistics.tilesArrived += 1
            }
            inbox = []
            let again = refused
            refused = false
            return arrived || lastFading || again || (time == nil && lastIncomplete)
        }
    }

    /// Ends the frame: live, the queue takes the tiles this frame wants, ahead of the others still wanted, and the
    /// background threads start; then tiles are let go for the budget.
    func endFrame() {
        lock.lock()
        if !emitted.isEmpty {
            lastFading = fading
            lastIncomplete = incomplete
        }
        if liveTime != nil, !emitted.isEmpty {
            let others = queue.filter { !emitted.contains($0.key.layer) }
            queue = wanted.filter { !inFlight.contains($0.key) } + others
            if queue.count > TileGrid.mostTilesPerFrame * 4 { queue.removeLast(queue.count - TileGrid.mostTilesPerFrame * 4) }
            frameStatistics.tilesQueued = wanted.count
        }
        evictLocked()
        if layerFrames.count > 4096 {
            // Layers not seen for a while (gone, or hidden): their frame numbers only order eviction.
            layerFrames = layerFrames.filter { $0.value + 600 > frame }
        }
        lastStatistics = frameStatistics
        let start = min(threads - running, queue.count)
        running += max(start, 0)
        lock.unlock()
        for _ in 0..<max(start, 0) {
            DispatchQueue.global(qos: .utility).async { self.work() }
        }
    }

    /// Waits until no tile is queued or being drawn (tests, and a caller that wants every tile of a live frame), at
    /// most `timeout` seconds; true when it got there.
    @discardableResult
    public func waitUntilIdle(timeout: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if locked({ queue.isEmpty && inFlight.isEmpty }) { return true }
            usleep(1000)
        }
        return false
    }

    /// Lets every tile go (the next frames draw them again).
    public func removeAll() {
        locked {
            entries = [:]
            bytes = 0
            queue = []
            inbox = []
        }
    }

    // MARK: A layer's tiles

    /// One piece of a tiled layer's picture: `image`'s texels `texels` drawn over `rect` (layer space), at `opacity`.
    struct Piece {
        var image: Image
        var rect: CGRect
        var texels: CGRect
        var opacity: Float
    }

    /// The pieces that show `selection` of layer `layer`, bottom first: each visible tile that is drawn (offline: all,
    /// drawn now where missing or stale), and live, under a missing or fading tile, the picture it replaces or a
    /// coarser level's tile that covers it.
    func pieces(layer: LayerID, style: TiledStyle, selection: TileSelection) throws -> [Piece] {
        let grid = selection.grid, level = selection.level
        let invalidation = style.invalidation
        func job(_ index: TileIndex) -> Job {
            let full = grid.tileRect(level: level, column: index.column, row: index.row)
            let size = grid.pixelSize(level: level, column: index.column, row: index.row)
            return Job(key: Key(layer: layer, grid: grid, level: level, column: index.column, row: index.row),
                       drawer: style.drawer, generation: invalidation.generation,
                       rect: full.intersection(grid.bounds), origin: full.origin, density: grid.density(level),
                       width: size.width, height: size.height)
        }
        let jobs = selection.tiles.map(job)
        lock.lock()
        if let error = refusal {
            refusal = nil
            refused = true
            lock.unlock()
            throw error
        }
        let time = liveTime
        let memoryBudget = storedMemoryBudget
        emitted.insert(layer)
        layerFrames[layer] = frame
        frameStatistics.tilesVisible += jobs.count
        let missing = jobs.filter { job in
            guard let entry = entries[job.key] else { return true }
            return invalidation.isStale(job.rect, drawnAt: entry.generation)
        }
        lock.unlock()
        if time == nil, !missing.isEmpty {
            // Offline: every visible tile is drawn before the frame is planned, on all cores, each reserving its
            // pixels first (all of them before any is drawn).
            let held = try missing.map { try Self.reserve($0, in: memoryBudget) }
            let drawn = Self.drawAll(missing, reservations: held)
            lock.lock()
            for (job, image) in zip(missing, drawn) {
                guard let image else { continue }
                if let old = entries[job.key] { bytes -= old.bytes }
                entries[job.key] = Entry(image: image, generation: job.generation, shownAt: -.infinity, previous: nil,
                                         lastUse: frame)
                bytes += image.width * image.height * 4
                drawnCount += 1
                frameStatistics.tilesDrawnNow += 1
            }
            lock.unlock()
        }
        lock.lock()
        defer { lock.unlock() }
        var under: [Piece] = []
        var over: [Piece] = []
        for job in jobs {
            guard var entry = entries[job.key] else {
                if time != nil {
                    incomplete = true
                    wanted.append(job)
                    if let piece = coarserPiece(for: job, grid: grid) {
                        under.append(piece)
                        frameStatistics.tilesShownCoarser += 1
                    }
                }
                continue
            }
            entry.lastUse = frame
            if invalidation.isStale(job.rect, drawnAt: entry.generation), time != nil {
                incomplete = true
                wanted.append(job)
            }
            var opacity: Float = 1
            if let time {
                if entry.shownAt == nil { entry.shownAt = time }
                // The clock went back (a player's seek): a tile first shown at a later time has been shown already.
                if time < entry.shownAt! { entry.shownAt = -.infinity }
                let elapsed = time - entry.shownAt!
                let duration = style.fadeDuration
                if duration.isFinite, duration > 0, elapsed < duration {
                    opacity = Float(max(elapsed, 0) / duration)
                    fading = true
                    frameStatistics.tilesFading += 1
                    if let previous = entry.previous {
                        under.append(Piece(image: previous, rect: job.rect, texels: Self.texels(job.rect, of: job),
                                           opacity: 1))
                    } else if let piece = coarserPiece(for: job, grid: grid) {
                        under.append(piece)
                        frameStatistics.tilesShownCoarser += 1
                    }
                } else {
                    entry.previous = nil
                }
            } else {
                entry.shownAt = entry.shownAt ?? -.infinity
                entry.previous = nil
            }
            entries[job.key] = entry
            if opacity > 0 {
                over.append(Piece(image: entry.image, rect: job.rect, texels: Self.texels(job.rect, of: job),
                                  opacity: opacity))
            }
        }
        return under + over
    }

    /// The texels of a tile's image that cover `rect` (layer space).
    private static func texels(_ rect: CGRect, of job: Job) -> CGRect {
        CGRect(x: (rect.minX - job.origin.x) * job.density, y: (rect.minY - job.origin.y) * job.density,
               width: rect.width * job.density, height: rect.height * job.density)
    }

    /// The nearest coarser level's kept tile over `job`'s tile (up to 8 levels up), as a piece covering just that
    /// tile. Lock held.
    private func coarserPiece(for job: Job, grid: TileGrid) -> Piece? {
        for step in 1...8 {
            let level = job.key.level + step
            let column = job.key.column >> step, row = job.key.row >> step
            let key = Key(layer: job.key.layer, grid: grid, level: level, column: column, row: row)
            guard var entry = entries[key], entry.shownAt != nil else { continue }
            entry.lastUse = frame
            entries[key] = entry
            let full = grid.tileRect(level: level, column: column, row: row)
            let d = grid.density(level)
            let texels = CGRect(x: (job.rect.minX - full.minX) * d, y: (job.rect.minY - full.minY) * d,
                                width: job.rect.width * d, height: job.rect.height * d)
            return Piece(image: entry.image, rect: job.rect, texels: texels, opacity: 1)
        }
        return nil
    }

    // MARK: Drawing

    /// Draws `jobs` in parallel (offline frames, at most `TileGrid.mostTilesPerFrame`).
    private static func drawAll(_ jobs: [Job], reservations: [MemoryReservation?]) -> [Image?] {
        let results = UnsafeMutableBufferPointer<Image?>.allocate(capacity: jobs.count)
        results.initialize(repeating: nil)
        defer { results.deallocate() }
        let base = results.baseAddress!
        nonisolated(unsafe) let slots = base
        DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
            slots[index] = draw(jobs[index], reservation: reservations[index])
        }
        let images = Array(results)
        results.deinitialize()
        return images
    }

    /// Draws one tile: a transparent image of the tile's pixels, a context scaled to its density and moved so the
    /// tile's corner is the image's, clipped to the tile's part of the bounds, and the layer's `draw(in:)`. nil when
    /// the layer is gone. The image holds `reservation`, the bytes reserved for it (`reserve(_:in:)`).
    static func draw(_ job: Job, reservation: MemoryReservation? = nil) -> Image? {
        guard let layer = job.drawer.layer,
            let image = try? Image(width: job.width, height: job.height),
            let context = try? DrawingContext(image: image, scale: CGFloat(job.density))
        else { return nil }
        context.translateBy(x: -job.origin.x, y: -job.origin.y)
        context.clip(to: job.rect)
        layer.draw(in: context)
        context.flush()
        image.memoryReservation = reservation
        return image
    }

    /// Reserves the pixels of `job`'s tile from `budget` (nil: none).
    static func reserve(_ job: Job, in budget: MemoryBudget?) throws(MemoryLimitError) -> MemoryReservation? {
        try budget?.reserve(
            job.width * job.height * 4,
            for: "a \(job.width)x\(job.height) tile (level \(job.key.level), column \(job.key.column), row \(job.key.row))")
    }

    /// A background thread's loop: draws queued tiles until the queue is empty.
    private func work() {
        while true {
            lock.lock()
            guard !queue.isEmpty else {
                running -= 1
                lock.unlock()
                return
            }
            let job = queue.removeFirst()
            inFlight.insert(job.key)
            let memoryBudget = storedMemoryBudget
            lock.unlock()
            var image: Image?
            var refused: MemoryLimitError?
            do {
                image = Self.draw(job, reservation: try Self.reserve(job, in: memoryBudget))
            } catch {
                refused = error
            }
            lock.lock()
            if let refused { refusal = refused }
            inFlight.remove(job.key)
            if let image {
                inbox.append(Arrival(job: job, image: image))
                drawnCount += 1
            }
            lock.unlock()
        }
    }

    // MARK: Budget

    /// Lets tiles go, least recently used first, until the kept ones fit the budget and `mostTiles`; never a tile this
    /// frame showed, and tiles shown by a layer's latest frame (a layer whose plan was reused) only after the others.
    /// Lock held.
    private func evictLocked() {
        guard bytes > storedBudget || entries.count > Self.mostTiles else { return }
        let candidates = entries.filter { $0.value.lastUse != frame }.map { (key: $0.key, entry: $0.value) }
            .sorted { a, b in
                let aShown = layerFrames[a.key.layer] == a.entry.lastUse
                let bShown = layerFrames[b.key.layer] == b.entry.lastUse
                if aShown != bShown { return !aShown }
                return a.entry.lastUse < b.entry.lastUse
            }
        for candidate in candidates {
            guard bytes > storedBudget || entries.count > Self.mostTiles else { break }
            entries[candidate.key] = nil
            bytes -= candidate.entry.bytes
            frameStatistics.tilesEvicted += 1
        }
    }
}
