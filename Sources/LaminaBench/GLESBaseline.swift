import CEGL
import Foundation
import LaminaCore
import LaminaGLES

/// The benchmark's baseline: a minimal hand-written GL loop that draws the same textured quads with one
/// instanced draw call, one texture and the GPU's own bilinear sampler, with no Lamina code in between
/// (no plan, no coverage, no clamp). `lamina bench --backend gles` prints Lamina's frame time against it.
public final class GLESBaseline {
    private let context: GLESContext
    private var program: GLuint = 0
    private var vertexArray: GLuint = 0
    private var buffer: GLuint = 0
    private var texture: GLuint = 0
    private var framebuffer: GLuint = 0
    private var target: GLuint = 0
    private var instances: [Float] = []
    private let width: Int, height: Int, textureSize: (Int, Int)
    /// Floats per instance: 8 (destination, source), 13 with a rounded rectangle (4 more and the radius).
    private let stride: Int

    /// Prepares to draw `quads` (destination rectangle in target pixels, source rectangle in texels of
    /// `image`) into a `width` x `height` framebuffer; with `rounded` (one per quad), each quad is seen through its
    /// rounded rectangle, with antialiased coverage in the fragment shader.
    public init(image: Image, quads: [(destination: CGRect, source: CGRect)], rounded: [RoundedRect]? = nil,
                width: Int, height: Int) throws {
        context = try GLESContext(connection: EGLDisplayConnection.shared())
        self.width = width
        self.height = height
        textureSize = (image.width, image.height)
        precondition(rounded == nil || rounded!.count == quads.count, "one rounded rectangle per quad")
        stride = rounded == nil ? 8 : 13
        let name = rounded == nil ? "baseline" : "baseline-rounded"
        let vertex = try GLESShaders.compile("\(name).vert", type: GLenum(GL_VERTEX_SHADER))
        let fragment = try GLESShaders.compile("\(name).frag", type: GLenum(GL_FRAGMENT_SHADER))
        program = glCreateProgram()
        glAttachShader(program, vertex)
        glAttachShader(program, fragment)
        glBindAttribLocation(program, 0, "a_rect")
        glBindAttribLocation(program, 1, "a_source")
        glBindAttribLocation(program, 2, "a_shape")
        glBindAttribLocation(program, 3, "a_radius")
        glLinkProgram(program)
        glDeleteShader(vertex)
        glDeleteShader(fragment)
        glGenTextures(1, &texture)
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_LINEAR)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_LINEAR)
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(image.width), GLsizei(image.height), 0,
                     GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), image.baseAddress)
        glGenTextures(1, &target)
        glBindTexture(GLenum(GL_TEXTURE_2D), target)
        glTexStorage2D(GLenum(GL_TEXTURE_2D), 1, GLenum(GL_RGBA8), GLsizei(width), GLsizei(height))
        glGenFramebuffers(1, &framebuffer)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), target, 0)
        glGenVertexArrays(1, &vertexArray)
        glGenBuffers(1, &buffer)
        instances.reserveCapacity(quads.count * stride)
        for (index, quad) in quads.enumerated() {
            let d = quad.destination, s = quad.source
            instances += [d.minX, d.minY, d.maxX, d.maxY, s.minX, s.minY, s.maxX, s.maxY].map { Float($0) }
            if let shape = rounded?[index] {
                let r = shape.rect
                instances += [r.minX, r.minY, r.maxX, r.maxY, shape.radius].map { Float($0) }
            }
        }
        guard glGetError() == GLenum(GL_NO_ERROR) else { throw RenderError.failed("setting up the GL baseline") }
    }

    deinit {
        try? context.makeCurrent()
        glDeleteProgram(program)
        glDeleteVertexArrays(1, &vertexArray)
        glDeleteBuffers(1, &buffer)
        glDeleteTextures(1, &texture)
        glDeleteTextures(1, &target)
        glDeleteFramebuffers(1, &framebuffer)
    }

    /// The last frame's pixels (premultiplied, in the byte order the image was uploaded in: an Image's BGRA), for
    /// comparing the baseline's picture with Lamina's.
    public func snapshot() throws -> Image {
        try context.makeCurrent()
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        let image = try Image(width: width, height: height)
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 4)
        glReadPixels(0, 0, GLsizei(width), GLsizei(height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE),
                     image.baseAddress)
        image.markModified()
        guard glGetError() == GLenum(GL_NO_ERROR) else { throw RenderError.failed("reading the GL baseline back") }
        return image
    }

    /// Draws one frame: upload the instance data, clear, one instanced draw, glFinish.
    public func drawFrame() throws {
        try context.makeCurrent()
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glViewport(0, 0, GLsizei(width), GLsizei(height))
        glClearColor(0, 0, 0, 1)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        glEnable(GLenum(GL_BLEND))
        glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        glUseProgram(program)
        glUniform2f(glGetUniformLocation(program, "u_targetSize"), GLfloat(width), GLfloat(height))
        glUniform2f(glGetUniformLocation(program, "u_textureSize"), GLfloat(textureSize.0), GLfloat(textureSize.1))
        glUniform1i(glGetUniformLocation(program, "u_image"), 0)
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glBindVertexArray(vertexArray)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffer)
        instances.withUnsafeBytes {
            glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STREAM_DRAW))
        }
        for location in 0..<(stride == 8 ? 2 : 4) {
            glEnableVertexAttribArray(GLuint(location))
            glVertexAttribDivisor(GLuint(location), 1)
            glVertexAttribPointer(GLuint(location), location == 3 ? 1 : 4, GLenum(GL_FLOAT), GLboolean(GL_FALSE),
                                  GLsizei(stride * 4), UnsafeRawPointer(bitPattern: location * 16))
        }
        glDrawArraysInstanced(GLenum(GL_TRIANGLE_STRIP), 0, 4, GLsizei(instances.count / stride))
        glFinish()
        guard glGetError() == GLenum(GL_NO_ERROR) else { throw RenderError.failed("drawing the GL baseline") }
    }
}
