import CEGL
import Foundation
import Lamina
import LaminaTestSupport
import Testing

@testable import LaminaGLES

/// Texture uploads through the pixel-unpack buffer ring (GLESUnpackRing.swift): the same texels as uploads from
/// memory, first uploads and re-uploads alike, and the buffers are released with the renderer's GL objects.
@Suite(.enabled(if: GLESAvailability.skipReason == nil, "no EGL display: \(GLESAvailability.skipReason ?? "")"))
struct GLESUnpackTests {
    func bytes(_ image: Image) -> [UInt8] {
        Array(UnsafeRawBufferPointer(start: image.baseAddress, count: image.byteCount))
    }

    @Test func uploadsThroughTheRingGiveTheSamePixels() throws {
        let staged = try #require(GLESAvailability.renderer(options: .init(uploadsThroughUnpackBuffers: true)))
        let direct = try #require(GLESAvailability.renderer(options: .init(uploadsThroughUnpackBuffers: false)))
        #expect(staged.uploadsThroughUnpackBuffers && !direct.uploadsThroughUnpackBuffers)
        // 300 x 200 (240 KB: above the ring's minimum, past the atlas), drawn scaled; and a tiled one whose
        // tiles start inside its rows (rows are repacked into the buffer).
        let big = TestImages.quadrants(width: 300, height: 200)
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 160)
        let layer = Layer(frame: CGRect(x: 5, y: 5, width: 190, height: 150))
        layer.contents = big
        root.addSublayer(layer)
        for frame in 0..<3 {
            if frame > 0 {
                for x in 0..<300 { big.setWord(0xFF00_0000 | UInt32(frame * 40) << 8 | UInt32(x % 256), x: x, y: frame * 9) }
                big.markModified()
            }
            #expect(bytes(try staged.render(root)) == bytes(try direct.render(root)), "frame \(frame)")
        }
        let ring = try #require(staged.textures.unpackRing)
        #expect(ring.uploads == 3)

        let tiledStaged = try #require(GLESAvailability.renderer(options: .init(maxTextureSize: 160,
                                                                                 uploadsThroughUnpackBuffers: true)))
        let tiledDirect = try #require(GLESAvailability.renderer(options: .init(maxTextureSize: 160,
                                                                                 uploadsThroughUnpackBuffers: false)))
        #expect(bytes(try tiledStaged.render(root)) == bytes(try tiledDirect.render(root)))
        #expect(try #require(tiledStaged.textures.unpackRing).uploads > 0)
    }

    @Test func theRingsBuffersAreReleasedWithTheGLObjects() throws {
        let renderer = try #require(GLESAvailability.renderer(options: .init(uploadsThroughUnpackBuffers: true)))
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 64, height: 64)
        let layer = Layer(frame: root.bounds)
        layer.contents = TestImages.quadrants(width: 300, height: 300)
        root.addSublayer(layer)
        _ = try renderer.render(root)
        let ring = try #require(renderer.textures.unpackRing)
        let names = ring.buffers.filter { $0 != 0 }
        #expect(names.count == 1)
        try renderer.glContext.makeCurrent()
        #expect(names.allSatisfy { glIsBuffer($0) == GLboolean(GL_TRUE) })
        renderer.releaseGLObjects()
        #expect(ring.buffers.allSatisfy { $0 == 0 })
        #expect(names.allSatisfy { glIsBuffer($0) == GLboolean(GL_FALSE) })
    }
}
