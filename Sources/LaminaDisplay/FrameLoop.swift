import Foundation
import LaminaCore
import LaminaGLES
import LaminaLayers

/// One run of a `Display`: the stage the root is fitted on, the pacing, the frames (docs/kiosk.md, "Frames").
struct FrameLoop {
    let display: Display
    let root: Layer
    let onFrame: ((Double) -> Void)?
    let stage = Layer()
    var layout: DisplayLayout?
    var laidOutFor: (root: CGSize, background: Color?, output: PixelSize)?
    /// The CPU path's frame: kept between frames, redrawn where damaged, copied out by the output.
    var frame: Image?
    /// The identity of the plan last presented whole or in part (the output's pixels are that plan's).
    var presentedPlan: UInt64?
    /// The next presentation must be whole (first frame, resize, expose).
    var presentWhole = true
    /// Something changed or an animation runs: a frame is due at the next tick.
    var dirty = true
    var animated = false
    /// Tiles of a tiled layer are being drawn or fading in: frames are due even while the clock stands still.
    var tilesPending = false
    /// The animation time of the last frame made.
    var lastFrameTime: Double?
    /// The start of the next refresh interval at which a frame may be made.
    var nextTick: Double = 0
    var statistics: StatisticsWindow
    var observation: ModelChangeObservation?

    init(display: Display, root: Layer, onFrame: ((Double) -> Void)?) {
        self.display = display
        self.root = root
        self.onFrame = onFrame
        statistics = StatisticsWindow(report: display.options.statistics)
    }

    /// The refresh interval: the output's refresh rate, capped by --max-fps.
    var interval: Double {
        var rate = display.output.refreshRate > 0 ? display.output.refreshRate : 60
        if let cap = display.options.maxFramesPerSecond, cap > 0 { rate = min(rate, cap) }
        return 1 / rate
    }

    mutating func run() throws {
        display.stopped.reset()
        Transaction.begin()
        Transaction.setDisableActions(true)
        stage.addSublayer(root)
        Transaction.commit()
        let wake = display.wake
        observation = ModelChanges.observe { wake.signal() }
        nextTick = currentMediaTime()
        while !display.stopped.isSet {
            let now = currentMediaTime()
            if let at = deadlineMedia(now: now), at <= now + interval { dirty = true }
            // While the clock stands still (paused, rate 0, held at 0 running backwards) only a change (or tiles
            // arriving) needs a frame, once the frame of the time it stands at is drawn.
            let clockMoves = display.clock.time(atMedia: max(now, nextTick) + interval) != lastFrameTime
            let due = dirty || (animated && (clockMoves || tilesPending))
            if due, !display.output.isWaitingForFrame, now >= nextTick - 0.0005 {
                try drawFrame(now: now)
                continue
            }
            var timeout: Int32 = -1
            if due && !display.output.isWaitingForFrame {
                timeout = Int32(max(1, ((nextTick - now) * 1000).rounded(.up)))
            } else if display.output.isWaitingForFrame {
                timeout = 1000  // A flip that never completes must not hang the loop.
            } else if let at = deadlineMedia(now: now) {
                timeout = Int32(max(1, min(((at - now - interval) * 1000).rounded(.up), 60_000)))
            }
            if display.options.statistics != nil { timeout = timeout < 0 ? 1000 : min(timeout, 1000) }
            try wait(timeout: timeout)
            statistics.pacing = display.output.pacing
            statistics.tick(now: currentMediaTime())
        }
    }

    /// The media time at which the next deadline (`Display.nextDeadline`: a scene timeline's next entry) is due; nil
    /// when there is none or the clock never reaches it. A deadline the clock has already passed without a frame
    /// drawn at or past it (the first frame's flip took longer than the time to the entry, on a slow machine) is
    /// due now: the clock will not reach it again, and waiting for it would leave the entry undrawn for good.
    func deadlineMedia(now: Double) -> Double? {
        guard let deadline = display.nextDeadline?() else { return nil }
        let clock = display.clock
        if let at = clock.mediaTime(reaching: deadline, from: now) { return at }
        let backwards = clock.rate < 0
        let time = clock.time(atMedia: now)
        let passed = backwards ? deadline > time : deadline <= time
        // A frame drawn at or past it already had its chance: no frame after frame for an entry that stays.
        let covered = lastFrameTime.map { backwards ? $0 <= deadline : $0 >= deadline } ?? false
        return passed && !covered ? now : nil
    }

    /// Polls the output, the wake pipe and the sources; handles what is readable.
    mutating func wait(timeout: Int32) throws {
        let outputFDs = display.output.eventDescriptors
        var fds = outputFDs.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        fds.append(pollfd(fd: display.wake.readEnd, events: Int16(POLLIN), revents: 0))
        for source in display.sources { fds.append(pollfd(fd: source.fd, events: Int16(POLLIN), revents: 0)) }
        let ready = poll(&fds, nfds_t(fds.count), timeout)
        if ready < 0, errno != EINTR {
            throw DisplayError("poll failed: \(String(cString: strerror(errno)))")
        }
        // Events are read whether or not poll saw them: Xlib and Wayland queue events read along with replies.
        try handle(display.output.dispatchEvents())
        if fds[outputFDs.count].revents != 0, display.wake.drain() { dirty = true }
        for (index, source) in display.sources.enumerated() where fds[outputFDs.count + 1 + index].revents != 0 {
            source.handler()
        }
    }

    mutating func handle(_ events: [DisplayEvent]) throws {
        for event in events {
            switch event {
            case .resized, .exposed:
                presentWhole = true
                dirty = true
            case .closeRequested:
                display.stopped.set()
            case .frameShown:
                break
            }
        }
    }

    /// Makes, draws and presents one frame for the refresh interval that `now` falls in.
    mutating func drawFrame(now: Double) throws {
        let interval = self.interval
        // Ticks missed while the last frame was late are skipped; the clock goes on.
        let missed = max(0, Int(((now - nextTick) / interval).rounded(.down)))
        statistics.skipped += missed
        let tick = nextTick + Double(missed) * interval
        nextTick = tick + interval
        let shownAt = tick + interval
        let time = display.clock.time(atMedia: shownAt)
        lastFrameTime = time
        onFrame?(time)
        try layOut()
        let (plan, animated) = try display.renderer.livePlan(stage, scale: layout!.scale, at: time)
        self.animated = animated
        tilesPending = animated && display.renderer.planCache(for: stage).tiles.needsFrames
        dirty = false
        var damage: DamageRegion
        if !presentWhole, let planDamage = plan.damage, planDamage.since == presentedPlan {
            damage = planDamage.region
        } else {
            damage = .full(width: plan.width, height: plan.height)
        }
        if damage.isEmpty {
            // Nothing changed: nothing drawn or presented; the output keeps showing the last frame.
            presentedPlan = plan.identity == 0 ? nil : plan.identity
            statistics.tick(now: currentMediaTime())
            return
        }
        let started = currentMediaTime()
        if let gles = display.windowRenderer {
            try display.output.willSwapBuffers()
            let changed = try gles.present(plan)
            damage = changed
            try display.output.didSwapBuffers(damage: changed)
        } else {
            let image = try frameImage(width: plan.width, height: plan.height)
            try display.renderer.render(plan, into: image, redrawing: damage)
            try display.output.present(image, damage: damage)
        }
        presentedPlan = plan.identity == 0 ? nil : plan.identity
        presentWhole = plan.identity == 0
        display.didPresent?()
        let finished = currentMediaTime()
        statistics.pacing = display.output.pacing
        statistics.frame(duration: finished - started, redrawn: damage.area, pixels: plan.width * plan.height,
                         presentedAt: finished)
        statistics.tick(now: finished)
    }

    /// The CPU path's frame of the output's size; a new one (drawn whole) after a resize.
    mutating func frameImage(width: Int, height: Int) throws -> Image {
        if let frame, frame.width == width, frame.height == height { return frame }
        let image = try Image(width: width, height: height)
        frame = image
        presentWhole = true
        return image
    }

    /// Fits the root to the output (position, transform, the stage's size and colour) when the root's size or
    /// colour or the output's size changed since the last frame.
    mutating func layOut() throws {
        let rootSize = root.bounds.size
        let background = root.backgroundColor
        let outputSize = display.output.size
        if let laidOutFor, laidOutFor.root == rootSize, laidOutFor.background == background,
            laidOutFor.output == outputSize
        {
            return
        }
        guard outputSize.width > 0, outputSize.height > 0 else {
            throw DisplayError("\(display.output.kind.rawValue): the output has no size (\(outputSize))")
        }
        let layout = DisplayLayout(root: rootSize, output: outputSize, fit: display.options.fit,
                                   rotation: display.options.rotation, noneScale: display.scale)
        Transaction.begin()
        Transaction.setDisableActions(true)
        stage.bounds = CGRect(origin: .zero, size: layout.stageSize)
        // The letterbox is the root's colour over black: frames are opaque on every output.
        let colour = background ?? .black
        stage.backgroundColor = Color(red: colour.red * colour.alpha, green: colour.green * colour.alpha,
                                      blue: colour.blue * colour.alpha, alpha: 1)
        root.position = layout.rootPosition
        root.transform = layout.rootTransform
        Transaction.commit()
        self.layout = layout
        laidOutFor = (rootSize, background, outputSize)
        presentWhole = true
    }

    /// Takes the root off the stage and reports the last statistics.
    mutating func finish() {
        observation?.cancel()
        observation = nil
        Transaction.begin()
        Transaction.setDisableActions(true)
        root.removeFromSuperlayer()
        Transaction.commit()
        statistics.pacing = display.output.pacing
        statistics.flush(now: currentMediaTime())
    }
}
