import Foundation
import LaminaCore
import LaminaCPU
import LaminaGLES
import LaminaLayers

/// A screen that shows a layer tree, frame after frame (docs/kiosk.md): the kiosk's API, as `lamina play` uses it.
///
///     let display = try Display(output: .auto, backend: .auto)
///     let root = Layer()
///     root.bounds = CGRect(origin: .zero, size: display.size)
///     try display.run(root) { time in /* change layers for the frame shown at `time` */ }
///
/// - Frames are paced by the output (page flips, frame callbacks, else a timer at the refresh rate), at most
///   `Options.maxFramesPerSecond`. Each frame's animation time is the time it will be shown; a late frame is
///   skipped, the clock never slowed.
/// - Nothing changed, nothing drawn: with no animation running and no change committed, the loop sleeps until a
///   change (any thread's transaction wakes it), an output event, `stop()`.
/// - Only the damage is redrawn and presented; on the GPU path frames go to the window surface, not read back.
/// - The root is fitted to the output (`Options.fit`, `Options.rotation`) by setting its position and transform,
///   as a window sets its root view's frame; its bounds are the scene's size.
/// - `stop()` and `setNeedsFrame()` may be called from any thread (hence Sendable); the rest belongs to the thread
///   that runs it.
public final class Display: @unchecked Sendable {
    /// Which renderer draws the frames.
    public enum Backend: String, CaseIterable, Sendable {
        /// GLES on a hardware GPU, the CPU renderer otherwise (as for `lamina render`).
        case auto, cpu, gles
    }

    public struct Options: Sendable {
        public var fit: DisplayFit = .contain
        public var rotation: DisplayRotation = .none
        /// A cap below the output's refresh rate; nil: the refresh rate.
        public var maxFramesPerSecond: Double?
        /// Pixels per point for `size` and for `DisplayFit.none`.
        public var scale: CGFloat = 1
        /// Device, connector and mode of the output.
        public var output = DisplayOutputOptions()
        /// Called about once a second (`lamina play --stats`) with the figures of that second.
        public var statistics: (@Sendable (DisplayStatistics) -> Void)?

        public init(fit: DisplayFit = .contain, rotation: DisplayRotation = .none, maxFramesPerSecond: Double? = nil,
                    scale: CGFloat = 1, output: DisplayOutputOptions = .init(),
                    statistics: (@Sendable (DisplayStatistics) -> Void)? = nil) {
            self.fit = fit
            self.rotation = rotation
            self.maxFramesPerSecond = maxFramesPerSecond
            self.scale = scale
            self.output = output
            self.statistics = statistics
        }
    }

    public let output: DisplayOutput
    public let options: Options
    /// "cpu" or "gles".
    public let backendName: String
    /// The output's size in points (pixels / `scale`), turned with the rotation: the size a root fills exactly.
    public var size: CGSize {
        let w = CGFloat(output.size.width) / scale, h = CGFloat(output.size.height) / scale
        return options.rotation.swapsAxes ? CGSize(width: h, height: w) : CGSize(width: w, height: h)
    }
    /// Pixels per point.
    public var scale: CGFloat { options.scale }

    /// Released before the output is given back (deinit): EGL's surface and display refer to the output's window.
    private(set) var renderer: Renderer!
    /// The GLES renderer of a window surface: frames are presented by swapping, never read back.
    private(set) var windowRenderer: GLESRenderer?
    let wake: WakePipe
    var sources: [(fd: Int32, handler: () -> Void)] = []
    /// The frames' clock: media time as it is for the API; `lamina play`'s starts at 0 when play starts, and playback
    /// lines pause, seek and scale it (SceneClock.swift).
    package var clock = SceneClock()
    /// The next time (animation clock) at which something is due although nothing changed (a scene timeline's
    /// next entry).
    package var nextDeadline: (() -> Double?)?
    /// Called after each frame is presented (`lamina play --stats` times the first).
    package var didPresent: (() -> Void)?
    let stopped = LockedFlag()

    /// Opens `output` (`.auto`: Wayland when WAYLAND_DISPLAY is set, else X11 when DISPLAY is set, else the first DRM
    /// card with a connected display, else /dev/fb0) and makes the renderer. Throws `DisplayError` naming the output
    /// and why.
    public init(output kind: DisplayOutputKind = .auto, backend: Backend = .auto, options: Options = .init()) throws {
        self.options = options
        let wantsGLES: Bool
        switch backend {
        case .cpu: wantsGLES = false
        case .gles: wantsGLES = true
        case .auto: wantsGLES = (try? EGLDisplayConnection.shared().isSoftware == false) ?? false
        }
        output = try DisplayOutputs.open(kind, options: options.output, gpu: wantsGLES)
        wake = try WakePipe()
        let log = options.output.log
        if wantsGLES {
            let glesOptions = GLESRenderer.Options(log: log)
            do {
                if output.supportsEGLWindow {
                    let target = try output.makeEGLWindow()
                    let connection = try EGLDisplayConnection.platform(target.platform, nativeDisplay: target.nativeDisplay,
                                                                       name: output.kind.rawValue)
                    let window = GLESWindowRequest(nativeWindow: target.nativeWindow, visualID: target.visualID,
                                                   needsAlpha: target.needsAlpha)
                    let gles = try GLESRenderer(window: window, on: connection, options: glesOptions)
                    // `run` may be called on another thread than this one.
                    gles.glContext.releaseCurrent()
                    windowRenderer = gles
                    renderer = gles
                } else {
                    windowRenderer = nil
                    let gles = try GLESRenderer(options: glesOptions)
                    gles.glContext.releaseCurrent()
                    renderer = gles
                }
            } catch {
                output.close()
                throw DisplayError("\(output.kind.rawValue): the GLES renderer failed: \(error)")
            }
            backendName = "gles"
        } else {
            windowRenderer = nil
            renderer = CPURenderer()
            backendName = "cpu"
        }
        log("display: \(output.summary), \(backendName) renderer")
    }

    deinit {
        // DRM: the CRTC put back and the scanout buffers given back to the GBM surface while it still has them; then
        // the renderer's EGL surface and display, then the window or GBM surface and device they were made on
        // (docs/reliability.md, "Displays").
        (output as? DRMOutput)?.giveBackScreen()
        windowRenderer = nil
        renderer = nil
        output.close()
    }

    /// Stops `run` after the frame in progress; from any thread (or a signal's handler thread).
    public func stop() {
        stopped.set()
        wake.signal()
    }

    /// Wakes the loop for a frame now, from any thread (changes in transactions wake it by themselves).
    public func setNeedsFrame() { wake.signal() }

    /// Polls `fd` with the output's events; `handler` runs on the loop's thread when it is readable.
    package func addSource(_ fd: Int32, handler: @escaping () -> Void) {
        sources.append((fd, handler))
    }

    /// Shows `root` until `stop()`, a closed window or an output failure. `onFrame` is called before each frame with
    /// the time the frame will be shown (media time), on the calling thread, where the program may change layers
    /// (as with CADisplayLink). Throws `DisplayError` when the output fails; the output is given back either way.
    public func run(_ root: Layer, onFrame: ((Double) -> Void)? = nil) throws {
        var loop = FrameLoop(display: self, root: root, onFrame: onFrame)
        defer {
            loop.finish()
            // A GLES context stays current on the thread that made it current until that thread lets it go, and EGL
            // destroys a context (and its window surface) current elsewhere only when it is let go there: had this
            // thread kept it, a Display released on another thread would leave them for this thread's next
            // eglMakeCurrent, after the output has disconnected from its server (docs/reliability.md, "Displays").
            (renderer as? GLESRenderer)?.glContext.releaseCurrent()
        }
        try loop.run()
    }
}

/// A flag set from any thread.
final class LockedFlag: @unchecked Sendable {
    private var value = false
    private let lock = NSLock()

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
    func reset() { lock.withLock { value = false } }
}

/// A non-blocking pipe that wakes the frame loop's poll: written from any thread (and from signal handlers, where
/// only write(2) is allowed), drained by the loop.
final class WakePipe: @unchecked Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    init() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            throw DisplayError("cannot make the frame loop's wake pipe: \(String(cString: strerror(errno)))")
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        (readEnd, writeEnd) = (fds[0], fds[1])
    }

    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)  // A full pipe already wakes the loop.
    }

    /// Empties the pipe; true when anything was in it.
    @discardableResult
    func drain() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64)
        var any = false
        while read(readEnd, &buffer, buffer.count) > 0 { any = true }
        return any
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }
}
