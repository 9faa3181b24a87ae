import CEGL
import Foundation
import LaminaCore

// The span table of quads drawn by coverage (GLESPass+Spans.swift): an RG32I texture on unit 1, 4096 rows of the
// table per texture line, uploaded after each encoding that has rows and grown (doubling its lines) when a frame
// needs more. Small: 8 bytes a covered row, about 0.7 MB for 1,000 turned 64-pixel sprites.

extension GLESRenderer {
    static let spanTableWidth = 4096

    func makeSpanTable() {
        makeSpanTexture(lines: 1)
        // Every program that reads the table finds it on unit 1.
        for program in compiled.quads.values where program.uniform("u_spans") >= 0 {
            glUseProgram(program.id)
            glUniform1i(program.uniform("u_spans"), 1)
        }
        glUseProgram(0)
    }

    private func makeSpanTexture(lines: Int) {
        if tables.spanTexture != 0 { glDeleteTextures(1, &tables.spanTexture) }
        glGenTextures(1, &tables.spanTexture)
        glBindTexture(GLenum(GL_TEXTURE_2D), tables.spanTexture)
        // Integer textures are complete only with nearest filters.
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        glTexStorage2D(GLenum(GL_TEXTURE_2D), 1, GLenum(GL_RG32I), GLsizei(Self.spanTableWidth), GLsizei(lines))
        tables.spanLines = lines
    }

    func releaseSpanTable() {
        if tables.spanTexture != 0 { glDeleteTextures(1, &tables.spanTexture) }
        tables.spanTexture = 0
        tables.spanLines = 0
    }

    /// Uploads `rows` (x0, x1 pairs) to the table, growing it first when needed, and leaves it bound on unit 1.
    func uploadSpanTable(_ rows: [Int32]) {
        let count = rows.count / 2
        let lines = max(1, (count + Self.spanTableWidth - 1) / Self.spanTableWidth)
        if lines > tables.spanLines || tables.spanTexture == 0 {
            var grown = max(tables.spanLines, 1)
            while grown < lines { grown *= 2 }
            makeSpanTexture(lines: grown)
        }
        glActiveTexture(GLenum(GL_TEXTURE1))
        glBindTexture(GLenum(GL_TEXTURE_2D), tables.spanTexture)
        rows.withUnsafeBufferPointer { table in
            uploadTableRows(table.baseAddress!, count: count, width: Self.spanTableWidth, bytesPerTexel: 8,
                            format: GLenum(GL_RG_INTEGER), type: GLenum(GL_INT))
        }
        glActiveTexture(GLenum(GL_TEXTURE0))
    }

    /// Binds the table on unit 1 (programs read it only for instances drawn by coverage, but an integer sampler
    /// must always find an integer texture).
    func bindSpanTable() {
        glActiveTexture(GLenum(GL_TEXTURE1))
        glBindTexture(GLenum(GL_TEXTURE_2D), tables.spanTexture)
        glActiveTexture(GLenum(GL_TEXTURE0))
    }
}
