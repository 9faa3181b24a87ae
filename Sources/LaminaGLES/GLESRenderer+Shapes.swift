import CEGL
import Foundation
import LaminaCore

// The shape table of quads whose coverage the fragment shader computes (GLESPass+Shapes.swift): an RGBA32F texture on
// unit 2, 8 texels (32 floats, `ShapeCoverage.write`) a shape, 4096 texels a line, uploaded after each encoding that
// has shapes and grown (doubling its lines) when a frame needs more. 128 bytes a shape: 1.3 MB for 10,000 rounded
// sprites, against the 100 one-pixel instances a sprite took when the CPU worked out its edge pixels.

/// The texture and size of the shape table.
final class GLESShapeTable {
    static let width = 4096
    static let texelsPerShape = ShapeCoverage.tableFloats / 4

    private(set) var texture: GLuint = 0
    private(set) var lines = 0

    /// Creates the texture (one line), in the current context.
    func make() {
        makeTexture(lines: 1)
    }

    private func makeTexture(lines: Int) {
        if texture != 0 { glDeleteTextures(1, &texture) }
        glGenTextures(1, &texture)
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        // Float textures are read with texelFetch alone; nearest keeps them complete.
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        glTexStorage2D(GLenum(GL_TEXTURE_2D), 1, GLenum(GL_RGBA32F), GLsizei(Self.width), GLsizei(lines))
        self.lines = lines
    }

    /// Forgets the texture (deleted when `deleting`; after a context loss its name is already gone).
    func release(deleting: Bool = true) {
        if deleting, texture != 0 { glDeleteTextures(1, &texture) }
        texture = 0
        lines = 0
    }

    /// Uploads `table` (`ShapeCoverage.tableFloats` floats a shape), growing the texture first when needed, and
    /// leaves it bound on unit 2.
    func upload(_ table: [Float]) {
        let texels = table.count / 4
        let needed = max(1, (texels + Self.width - 1) / Self.width)
        if needed > lines || texture == 0 {
            var grown = max(lines, 1)
            while grown < needed { grown *= 2 }
            makeTexture(lines: grown)
        }
        glActiveTexture(GLenum(GL_TEXTURE2))
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        table.withUnsafeBufferPointer { floats in
            uploadTableRows(floats.baseAddress!, count: texels, width: Self.width, bytesPerTexel: 16,
                            format: GLenum(GL_RGBA), type: GLenum(GL_FLOAT))
        }
        glActiveTexture(GLenum(GL_TEXTURE0))
    }

    /// Binds the table on unit 2 (read only by the shape programs' vertex shader, but a sampler must always find a
    /// complete texture).
    func bind() {
        glActiveTexture(GLenum(GL_TEXTURE2))
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glActiveTexture(GLenum(GL_TEXTURE0))
    }
}

extension GLESRenderer {
    /// The program of `kind`, compiled on first use (most frames use a few of the programs: never a shape, say,
    /// over whose continuous corner llvmpipe takes a while; and compiling all of them made each renderer slow to make
    /// on NVIDIA's driver), with its table samplers on units 1 and 2.
    func program(_ kind: GLESProgram.Kind) throws -> GLESProgram {
        if let program = compiled.quads[kind] { return program }
        let program = try GLESProgram(kind, pixelMaps: evaluatesTextureMapsPerPixel)
        glUseProgram(program.id)
        if program.uniform("u_spans") >= 0 { glUniform1i(program.uniform("u_spans"), 1) }
        if program.uniform("u_shapes") >= 0 { glUniform1i(program.uniform("u_shapes"), 2) }
        compiled.quads[kind] = program
        return program
    }
}
