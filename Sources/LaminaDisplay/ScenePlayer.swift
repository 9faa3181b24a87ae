import Foundation
import LaminaCore
import LaminaLayers
import LaminaScene

/// `lamina play`: a scene file on a `Display`, with its timeline on the clock from the start of play, hot reload
/// (the file or a file it uses changes, or SIGHUP), control lines (changes of the layers, and playback lines that
/// pause, seek and scale the clock), and SIGTERM/SIGINT ending play cleanly (docs/kiosk.md).
public final class ScenePlayer {
    let path: String
    let sceneOptions: SceneOptions
    let display: Display
    let control: ControlChannel?
    /// Where errors of reloads go (stderr in `lamina play`).
    let report: (String) -> Void
    /// The scene on screen and the layer that holds its root (so a reload swaps roots in one transaction).
    private(set) var scene: Scene
    let holder = Layer()
    var watcher: FileWatcher?
    /// Reloads so far (good and bad), for tests and `--stats`.
    public private(set) var reloads = 0
    public private(set) var failedReloads = 0

    /// Loads the scene (throws `SceneError`: exit status 2), unless `loaded` is the file's scene already, and sets up
    /// the watcher and the control channel.
    public init(path: String, loaded: Scene? = nil, sceneOptions: SceneOptions = .init(), display: Display,
                control: ControlChannel? = nil, report: @escaping (String) -> Void) throws {
        self.path = path
        self.sceneOptions = sceneOptions
        self.display = display
        self.control = control
        self.report = report
        scene = try loaded ?? Scene.load(contentsOf: URL(fileURLWithPath: path), options: sceneOptions)
        let url = URL(fileURLWithPath: path)
        let sceneName = url.lastPathComponent
        do {
            watcher = try FileWatcher(folder: url.deletingLastPathComponent().path) { name in
                if name == sceneName { return true }
                let lower = name.lowercased()
                return [".png", ".jpg", ".jpeg", ".json"].contains { lower.hasSuffix($0) }
            }
        } catch {
            report("lamina: hot reload is off: \(error)")
        }
    }

    /// Plays until SIGTERM, SIGINT, a closed window or `display.stop()`. Throws `DisplayError` when the output fails.
    public func run() throws {
        let signals = ProcessSignals.shared
        signals.install()
        display.addSource(signals.descriptor) { [unowned self] in
            for number in signals.take() {
                if number == SIGHUP { reload(reason: "SIGHUP") } else { display.stop() }
            }
        }
        if let watcher {
            display.addSource(watcher.descriptor) { [unowned self] in
                guard watcher.changed() else { return }
                // Editors write in steps (truncate, write, rename): settle for a moment, then read once.
                usleep(50_000)
                _ = watcher.changed()
                reload(reason: "a file changed")
            }
        }
        if let control {
            display.addSource(control.descriptor) { [unowned self] in
                control.service { line, number in apply(controlLine: line, number: number) }
            }
        }
        show(scene)
        display.nextDeadline = { [unowned self] in nextTimelineTime() }
        try display.run(holder) { [unowned self] time in
            scene.advance(to: time)
        }
    }

    /// The scene time at which the timeline next changes the layers, in the direction the clock runs: the next entry
    /// forwards; backwards, the last applied one (going below it takes it back; one at 0 stays, as the clock does).
    func nextTimelineTime() -> Double? {
        let timeline = scene.timeline
        let times = timeline.times
        let applied = timeline.appliedCount
        if display.clock.rate >= 0 { return applied < times.count ? times[applied] : nil }
        return applied > 0 && times[applied - 1] > 0 ? times[applied - 1] : nil
    }

    /// Puts `scene` on screen from the next frame, its timeline starting now (at time 0; a paused clock stays paused,
    /// and the rate stays).
    func show(_ scene: Scene) {
        Transaction.begin()
        Transaction.setDisableActions(true)
        holder.bounds = CGRect(origin: .zero, size: scene.size)
        holder.backgroundColor = scene.root.backgroundColor
        holder.sublayers = [scene.root]
        scene.root.position = CGPoint(x: scene.size.width / 2, y: scene.size.height / 2)
        Transaction.commit()
        self.scene = scene
        display.clock.seek(to: 0, atMedia: currentMediaTime())
    }

    /// Loads the scene again; a bad edit keeps the last good scene on screen and reports file:line:column.
    func reload(reason: String) {
        reloads += 1
        do {
            let loaded = try Scene.load(contentsOf: URL(fileURLWithPath: path), options: sceneOptions)
            show(loaded)
            report("lamina: reloaded \(path) (\(reason))")
        } catch {
            failedReloads += 1
            report("lamina: \(error)\nlamina: kept the last good scene; waiting for the next edit")
        }
        display.setNeedsFrame()
    }

    /// One control line: a playback line (`PlaybackCommand`) changes the clock; any other is applied at once as one
    /// transaction at the scene's time now. Gives the answer line.
    func apply(controlLine line: String, number: Int) -> String {
        do {
            let now = currentMediaTime()
            if let command = try PlaybackCommand.parse(line, lineNumber: number) {
                perform(command, atMedia: now)
            } else {
                try scene.apply(controlLine: line, lineNumber: number, at: display.clock.time(atMedia: now))
            }
            display.setNeedsFrame()
            return "{\"ok\":true}"
        } catch {
            return ControlChannel.errorLine(error.description)
        }
    }

    /// Pauses, plays, seeks or scales the clock at media time `media`; the next frame shows the scene at the clock's
    /// time (the timeline going back when the time does).
    func perform(_ command: PlaybackCommand, atMedia media: Double) {
        switch command {
        case .seek(let time): display.clock.seek(to: time, atMedia: media)
        case .pause: display.clock.pause(atMedia: media)
        case .play: display.clock.play(atMedia: media)
        case .rate(let rate): display.clock.setRate(rate, atMedia: media)
        }
    }

    /// The scene time the clock reads now (for tests and tools).
    public var sceneTime: Double { display.clock.time(atMedia: currentMediaTime()) }
}
