import CDRM
import Foundation
import LaminaCore

/// Showing a framebuffer: the first time a modeset (atomic, or drmModeSetCrtc), then page flips that complete with
/// an event (isWaitingForFrame until `dispatchEvents()` reads it).
extension DRMOutput {
    func show(framebuffer: UInt32, damage: DamageRegion) throws {
        let userData = Unmanaged.passUnretained(self).toOpaque()
        if let atomic {
            let code = atomic.commit(framebuffer: framebuffer, modeset: !crtcIsSet, damage: damage, userData: userData)
            if code == 0 {
                if !crtcIsSet { hideCursor() }
                crtcIsSet = true
                isWaitingForFrame = true
                return
            }
            guard !crtcIsSet else { throw flipError(code) }
            // Some drivers list the atomic API but refuse our commit: the legacy calls are the safe way.
            log("drm: the first atomic commit failed (\(DRMDumbBuffer.reason(code))); using legacy modesetting")
            atomic.abandon()
            self.atomic = nil
        }
        if !crtcIsSet {
            var connectorID = connector.id
            var mode = mode
            let code = drmModeSetCrtc(card.fd, crtc, framebuffer, 0, 0, &connectorID, 1, &mode)
            guard code == 0 else {
                let errorCode = code == -1 ? errno : -code
                if errorCode == EACCES || errorCode == EPERM {
                    throw DisplayError("\(card.path): cannot set the mode: another program is the display's master "
                                       + "(a display server or another kiosk; stop it or run from a free console)")
                }
                throw DisplayError("\(card.path): cannot set mode \(mode.label) on \(connector.name): "
                                   + DRMDumbBuffer.reason(code))
            }
            crtcIsSet = true
            hideCursor()
            // drmModeSetCrtc is synchronous: the frame is up, no event comes.
            isWaitingForFrame = false
            flipCompleted?()
            markDirty(framebuffer: framebuffer, damage: damage)
            return
        }
        let code = drmModePageFlip(card.fd, crtc, framebuffer, UInt32(DRM_MODE_PAGE_FLIP_EVENT), userData)
        guard code == 0 else { throw flipError(code) }
        isWaitingForFrame = true
        markDirty(framebuffer: framebuffer, damage: damage)
    }

    /// No pointer over the picture (kiosks expect none): the CRTC's cursor is turned off, whatever the last
    /// program left there.
    private func hideCursor() {
        _ = drmModeSetCursor(card.fd, crtc, 0, 0, 0)
    }

    private func flipError(_ code: Int32) -> DisplayError {
        DisplayError("\(card.path): page flip on \(connector.name) failed: \(DRMDumbBuffer.reason(code))")
    }

    /// drmModeDirtyFB for drivers that upload damaged parts (virtual and USB displays); most scan out memory
    /// directly and answer ENOSYS, after which it is not called again.
    func markDirty(framebuffer: UInt32, damage: DamageRegion) {
        guard !dirtyUnsupported, !damage.isEmpty else { return }
        var clips = damage.rects.map { box in
            drmModeClip(x1: UInt16(clamping: box.x0), y1: UInt16(clamping: box.y0), x2: UInt16(clamping: box.x1),
                        y2: UInt16(clamping: box.y1))
        }
        let code = drmModeDirtyFB(card.fd, framebuffer, &clips, UInt32(clips.count))
        if code != 0 {
            let errorCode = code == -1 ? errno : -code
            if errorCode == ENOSYS || errorCode == EOPNOTSUPP || errorCode == EINVAL { dirtyUnsupported = true }
        }
    }
}
