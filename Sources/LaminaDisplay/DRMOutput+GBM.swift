import CDRM
import CEGL
import CGBM
import Foundation
import LaminaCore

/// The GPU path on DRM (the kmscube loop): a GBM device on the card and a scanout surface EGL draws into; after each
/// swap the new front buffer is locked, given a framebuffer (made once per buffer object and kept on it as user
/// data), and flipped to; the buffer it replaces goes back to the surface when the flip has completed.
final class DRMGBMState {
    let fd: Int32
    let device: OpaquePointer
    let surface: OpaquePointer
    /// On screen now, released when the next flip completes.
    var shown: OpaquePointer?
    /// Flipped to, not yet on screen.
    var pending: OpaquePointer?

    init(fd: Int32, size: PixelSize, devicePath: String) throws {
        guard let device = gbm_create_device(fd) else {
            throw DisplayError("\(devicePath): cannot make a GBM device: \(String(cString: strerror(errno)).lowercased())")
        }
        let flags = GBM_BO_USE_SCANOUT.rawValue | GBM_BO_USE_RENDERING.rawValue
        guard let surface = gbm_surface_create(device, UInt32(size.width), UInt32(size.height), DRMFormat.xrgb8888,
                                               flags) else {
            gbm_device_destroy(device)
            throw DisplayError("\(devicePath): cannot make a \(size) XRGB8888 GBM scanout surface")
        }
        self.fd = fd
        self.device = device
        self.surface = surface
    }

    /// The framebuffer of `bo`, made on first sight and removed with the buffer object (its destroy callback).
    func framebuffer(for bo: OpaquePointer, devicePath: String) throws -> UInt32 {
        if let data = gbm_bo_get_user_data(bo) {
            return data.assumingMemoryBound(to: DRMBufferFramebuffer.self).pointee.id
        }
        var handles: (UInt32, UInt32, UInt32, UInt32) = (gbm_bo_get_handle(bo).u32, 0, 0, 0)
        var pitches: (UInt32, UInt32, UInt32, UInt32) = (gbm_bo_get_stride(bo), 0, 0, 0)
        var offsets: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        var id: UInt32 = 0
        let code = withUnsafePointer(to: &handles) { h in
            withUnsafePointer(to: &pitches) { p in
                withUnsafePointer(to: &offsets) { o in
                    drmModeAddFB2(fd, gbm_bo_get_width(bo), gbm_bo_get_height(bo), gbm_bo_get_format(bo),
                                  UnsafeRawPointer(h).assumingMemoryBound(to: UInt32.self),
                                  UnsafeRawPointer(p).assumingMemoryBound(to: UInt32.self),
                                  UnsafeRawPointer(o).assumingMemoryBound(to: UInt32.self), &id, 0)
                }
            }
        }
        guard code == 0 else {
            throw DisplayError("\(devicePath): cannot make a framebuffer for a GBM buffer: \(DRMDumbBuffer.reason(code))")
        }
        let record = UnsafeMutablePointer<DRMBufferFramebuffer>.allocate(capacity: 1)
        record.initialize(to: DRMBufferFramebuffer(fd: fd, id: id))
        gbm_bo_set_user_data(bo, record) { _, data in
            guard let data else { return }
            let record = data.assumingMemoryBound(to: DRMBufferFramebuffer.self)
            if record.pointee.id != 0 { drmModeRmFB(record.pointee.fd, record.pointee.id) }
            record.deinitialize(count: 1)
            record.deallocate()
        }
        return id
    }

    /// The flip to `pending` completed: the buffer it replaced can be drawn into again.
    func flipDone() {
        guard let pending else { return }
        if let shown { gbm_surface_release_buffer(surface, shown) }
        shown = pending
        self.pending = nil
    }

    /// Gives back the locked buffers (close): their framebuffers go with the surface's buffer objects.
    func releaseFramebuffers() {
        if let pending { gbm_surface_release_buffer(surface, pending) }
        if let shown { gbm_surface_release_buffer(surface, shown) }
        pending = nil
        shown = nil
    }

    /// Gives back the buffers locked for scanout (their framebuffers go with them), then destroys the surface and
    /// the device, in that order (docs/reliability.md, "Displays"). EGL's window surface and display made on them
    /// must be gone first: `Display` releases its renderer (eglDestroySurface, eglTerminate) before it closes the
    /// output. The card's descriptor is closed after this, by `DRMCard`.
    deinit {
        releaseFramebuffers()
        gbm_surface_destroy(surface)
        gbm_device_destroy(device)
    }
}

/// What a GBM buffer object carries as user data: its framebuffer on the card.
struct DRMBufferFramebuffer {
    var fd: Int32
    var id: UInt32
}

extension DRMOutput {
    public func makeEGLWindow() throws -> EGLWindowTarget {
        guard let gbm else { throw DisplayError("\(card.path): opened for the CPU path, not for EGL") }
        return EGLWindowTarget(platform: UInt32(EGL_PLATFORM_GBM_KHR), nativeDisplay: UnsafeMutableRawPointer(gbm.device),
                               nativeWindow: UnsafeMutableRawPointer(gbm.surface),
                               visualID: Int32(bitPattern: DRMFormat.xrgb8888))
    }

    public func didSwapBuffers(damage: DamageRegion) throws {
        guard let gbm else { throw DisplayError("\(card.path): opened for the CPU path, not for EGL") }
        guard let bo = gbm_surface_lock_front_buffer(gbm.surface) else {
            throw DisplayError("\(card.path): no front buffer after eglSwapBuffers (GBM surface lock failed)")
        }
        let framebuffer: UInt32
        do {
            framebuffer = try gbm.framebuffer(for: bo, devicePath: card.path)
        } catch {
            gbm_surface_release_buffer(gbm.surface, bo)
            throw error
        }
        gbm.pending = bo
        do {
            try show(framebuffer: framebuffer, damage: damage)
        } catch {
            gbm.pending = nil
            gbm_surface_release_buffer(gbm.surface, bo)
            throw error
        }
    }
}
