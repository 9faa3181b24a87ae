import CEGL
import Foundation

/// Driver messages through KHR_debug, printed to stderr when LAMINA_GL_DEBUG is set.
enum GLESDebug {
    static func install() {
        guard let callback: PFNGLDEBUGMESSAGECALLBACKKHRPROC = EGLDisplayConnection.procedure("glDebugMessageCallbackKHR")
        else { return }
        glEnable(GLenum(GL_DEBUG_OUTPUT_KHR))
        callback({ _, _, _, _, length, message, _ in
            guard let message else { return }
            let text = String(decoding: UnsafeRawBufferPointer(start: message, count: Int(length)), as: UTF8.self)
            FileHandle.standardError.write(Data("lamina: gl: \(text)\n".utf8))
        }, nil)
    }
}
