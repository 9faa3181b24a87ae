import CDRM
import CGBM
import Foundation
import LaminaCore

/// A DRM/KMS display (docs/kiosk.md, "DRM/KMS"): one connector of a card, in one mode, driven by one CRTC.
///
/// The CPU path shows frames from two dumb buffers that take turns, copying only damaged pixels; the GPU path gives
/// EGL a GBM surface and flips its buffers (DRMOutput+GBM.swift). Both set the CRTC with the first frame and then
/// page-flip with an event, which `dispatchEvents()` turns into `.frameShown`. Atomic modesetting is used where the
/// driver has it, the legacy calls otherwise (or when the first atomic commit fails). `close()` puts back the CRTC
/// as it was (the console's framebuffer, usually).
public final class DRMOutput: DisplayOutput {
    public let kind = DisplayOutputKind.drm
    public let summary: String
    public let size: PixelSize
    public let refreshRate: Double
    public var eventDescriptors: [Int32] { closed ? [] : [card.fd] }
    public internal(set) var isWaitingForFrame = false
    public var supportsEGLWindow: Bool { true }

    let card: DRMCard
    let connector: DRMCard.Connector
    let crtc: UInt32
    let mode: drmModeModeInfo
    let log: @Sendable (String) -> Void
    /// The CRTC as it was before us, put back by `close()`.
    private var savedCrtc: UnsafeMutablePointer<drmModeCrtc>?
    var atomic: DRMAtomic?
    /// Whether the CRTC shows one of our framebuffers yet (the first frame sets it; later ones flip).
    var crtcIsSet = false
    private var closed = false
    /// drmModeDirtyFB answered ENOSYS (the driver scans out from memory it reads itself): not called again.
    var dirtyUnsupported = false
    /// Called when a flip completes (the GPU path releases the buffer the flip replaced).
    var flipCompleted: (() -> Void)?

    // The CPU path.
    var dumbBuffers: [DRMDumbBuffer] = []
    var backBuffer = 0
    var bufferDamage = AlternatingBufferDamage()

    // The GPU path (DRMOutput+GBM.swift).
    var gbm: DRMGBMState?

    /// Opens the card and picks the connector, mode and CRTC (`options`); `gpu`: the GLES renderer will draw into
    /// a GBM surface (`makeEGLWindow()`), so no dumb buffers are made.
    public init(options: DisplayOutputOptions, gpu: Bool) throws {
        let selection = try Self.select(options)
        card = selection.card
        connector = selection.connector
        crtc = selection.crtc
        mode = selection.mode
        log = options.log
        size = mode.size
        refreshRate = mode.refreshRate
        savedCrtc = drmModeGetCrtc(card.fd, crtc)
        // LAMINA_DRM_LEGACY=1 keeps to the legacy calls (for drivers whose atomic support misbehaves, and to test
        // that path where atomic works).
        if ProcessInfo.processInfo.environment["LAMINA_DRM_LEGACY"] != "1", let index = card.crtcIndex(crtc) {
            atomic = DRMAtomic(fd: card.fd, connector: connector.id, crtc: crtc, crtcIndex: index, mode: mode)
        }
        summary = "drm \(card.path) \(connector.name) \(mode.label)\(atomic == nil ? " (legacy)" : " (atomic)")"
        log("drm: \(summary), CRTC \(crtc)")
        if gpu {
            gbm = try DRMGBMState(fd: card.fd, size: size, devicePath: card.path)
            flipCompleted = { [unowned self] in self.gbm?.flipDone() }
        } else {
            dumbBuffers = try (0..<2).map { _ in try DRMDumbBuffer(fd: card.fd, size: size, devicePath: card.path) }
        }
    }

    deinit { close() }

    public func present(_ frame: Image, damage: DamageRegion) throws {
        guard !closed else { throw DisplayError("\(card.path): the output is closed") }
        guard !dumbBuffers.isEmpty else { throw DisplayError("\(card.path): opened for the GPU path, not for images") }
        guard frame.width == size.width, frame.height == size.height else {
            throw DisplayError("\(card.path): a \(frame.width)x\(frame.height) frame for a \(size) display")
        }
        let buffer = dumbBuffers[backBuffer]
        let region = bufferDamage.region(for: backBuffer, damage: damage, size: size)
        PixelPacking.xrgb8888.copy(region, of: frame, into: buffer.pixels, bytesPerRow: buffer.bytesPerRow)
        try show(framebuffer: buffer.framebuffer, damage: region)
        backBuffer = 1 - backBuffer
    }

    public func dispatchEvents() throws -> [DisplayEvent] {
        guard !closed else { return [] }
        var shown: [DisplayEvent] = []
        while hasPendingEvent(timeoutMilliseconds: 0) {
            var context = drmEventContext()
            context.version = 2
            context.page_flip_handler = { _, _, seconds, microseconds, userData in
                guard let userData else { return }
                let output = Unmanaged<DRMOutput>.fromOpaque(userData).takeUnretainedValue()
                output.lastFlipTime = Double(seconds) + Double(microseconds) / 1e6
            }
            lastFlipTime = nil
            guard drmHandleEvent(card.fd, &context) == 0 else {
                throw DisplayError("\(card.path): reading DRM events failed: \(String(cString: strerror(errno)).lowercased())")
            }
            if let flipTime = lastFlipTime {
                isWaitingForFrame = false
                flipCompleted?()
                shown.append(.frameShown(mediaTime: Self.mediaTime(ofMonotonic: flipTime)))
            }
        }
        return shown
    }

    /// The time of the flip event being handled (CLOCK_MONOTONIC seconds), set by the C callback.
    var lastFlipTime: Double?

    func hasPendingEvent(timeoutMilliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: card.fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, timeoutMilliseconds) > 0 && descriptor.revents & Int16(POLLIN) != 0
    }

    /// A CLOCK_MONOTONIC time (DRM event stamps) as media time: how long ago it was, back from the media clock now.
    static func mediaTime(ofMonotonic time: Double) -> Double? {
        var now = timespec()
        guard clock_gettime(CLOCK_MONOTONIC, &now) == 0 else { return nil }
        let age = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 - time
        guard age >= 0, age < 1 else { return nil }
        return currentMediaTime() - age
    }

    public func close() {
        guard !closed else { return }
        giveBackScreen()
        closed = true
        atomic = nil
        dumbBuffers = []
        // The GBM surface, then the device (the EGL surface and display made on them are gone: `Display` releases
        // its renderer first); the card's descriptor goes with `card`.
        gbm = nil
        flipCompleted = nil
    }

    /// Puts back the CRTC as it was and gives the GBM buffers locked for scanout back to their surface: the first
    /// step of the teardown (docs/reliability.md, "Displays"), which `Display` takes before it releases its
    /// renderer, since destroying the EGL window surface destroys those buffers (and removing the framebuffer on
    /// screen would turn the CRTC off). Safe to call twice; `close()` calls it.
    func giveBackScreen() {
        guard !closed else { return }
        // A flip still pending would make the restore fail with EBUSY: let it land first.
        if isWaitingForFrame, hasPendingEvent(timeoutMilliseconds: 500) { _ = try? dispatchEvents() }
        if let saved = savedCrtc {
            var connectorID = connector.id
            var savedMode = saved.pointee.mode
            let code: Int32
            if saved.pointee.mode_valid != 0 {
                code = drmModeSetCrtc(card.fd, saved.pointee.crtc_id, saved.pointee.buffer_id, saved.pointee.x,
                                      saved.pointee.y, &connectorID, 1, &savedMode)
            } else {
                code = drmModeSetCrtc(card.fd, crtc, 0, 0, 0, nil, 0, nil)
            }
            if code != 0 { log("drm: restoring CRTC \(crtc) failed: \(DRMDumbBuffer.reason(code))") }
            drmModeFreeCrtc(saved)
            savedCrtc = nil
        }
        gbm?.releaseFramebuffers()
    }
}
