import CEGL
import Foundation
import LaminaCore

/// One GL texture holding a rectangle of an image's texels, byte for byte (premultiplied B, G, R, A in an
/// RGBA8 texture: the shaders read .rgba as B, G, R, A and the framebuffer stores them the same way, so
/// nothing is swizzled or converted on upload or read-back).
struct GLESTile: Equatable {
    let texture: GLuint
    /// The texels of the image this texture holds (its texel (0, 0) is the image's (x0, y0)).
    let stored: TexelRect
    /// The texels this tile answers for: `stored` less the one-texel border it shares with its neighbours,
    /// so a bilinear sample anywhere in `core` finds its four texels in this tile.
    let core: TexelRect
    /// The texel of `texture` that holds the image's texel (stored.x0, stored.y0): (0, 0) for a texture of its
    /// own, the slot's corner for an atlas page.
    var originX = 0
    var originY = 0

    /// Image texel + (offsetX, offsetY) = texture texel.
    var offsetX: Int { originX - stored.x0 }
    var offsetY: Int { originY - stored.y0 }
}

/// The textures of one image: one tile, several when the image is larger than GL_MAX_TEXTURE_SIZE, or one slot
/// of an atlas page.
final class GLESTextureEntry {
    weak var image: Image?
    var generation: UInt64
    var tiles: [GLESTile]
    /// Where the image lives when it is atlased; its one tile then names the page's texture.
    let slot: GLESAtlasSlot?
    let bytes: Int
    var lastUsedFrame: UInt64

    init(image: Image, tiles: [GLESTile], slot: GLESAtlasSlot? = nil, bytes: Int, frame: UInt64) {
        self.image = image
        self.generation = image.generation
        self.tiles = tiles
        self.slot = slot
        self.bytes = bytes
        self.lastUsedFrame = frame
    }
}

/// One texture holding an image's whole mip chain (MipChain.swift), chain level k in GL level k, for trilinear
/// minification. GL's own glGenerateMipmap is not used: its filter is the driver's, and both renderers must sample
/// the same bytes.
final class GLESMipEntry {
    weak var image: Image?
    var generation: UInt64
    let texture: GLuint
    let bytes: Int
    var lastUsedFrame: UInt64

    init(image: Image, texture: GLuint, bytes: Int, frame: UInt64) {
        self.image = image
        self.generation = image.generation
        self.texture = texture
        self.bytes = bytes
        self.lastUsedFrame = frame
    }
}

/// Textures cached per Image identity and generation: uploaded once, uploaded again (into the same texture or
/// atlas slot) only when the image's generation changes, released when the image is gone or, least recently used
/// first, when the cache holds more than its byte budget at the end of a frame. Small images are packed into the
/// pages of `atlas`; larger ones get textures (or tiles) of their own.
final class GLESTextureCache {
    private var entries: [ObjectIdentifier: GLESTextureEntry] = [:]
    /// Mip textures, made only for images drawn with trilinear minification; kept and evicted like `entries`.
    private var mipEntries: [ObjectIdentifier: GLESMipEntry] = [:]
    /// The largest texture side the driver takes (or a smaller one, for tests of tiling).
    let maxTextureSize: Int
    /// Bytes of images kept between frames (what the images hold; an atlas page's unused texels are not
    /// counted, and pages left empty are deleted at the end of the frame).
    let budget: Int
    let atlas: GLESAtlas
    /// The budget of every texture the renderer makes (GLESRenderer+Budget.swift).
    let memory = GLESMemory()
    /// Pixel-unpack buffers for large uploads (GLESUnpackRing.swift); nil: every upload from the image's memory.
    var unpackRing: GLESUnpackRing?
    private(set) var frame: UInt64 = 0
    /// Image uploads (first uploads and re-uploads), since the renderer was made.
    private(set) var uploads = 0
    /// Bytes uploaded in the current frame.
    private(set) var bytesUploadedThisFrame = 0
    /// Nanoseconds spent uploading in the current frame.
    private(set) var uploadNanosecondsThisFrame: UInt64 = 0

    /// `atlasPageSize` is limited to `maxTextureSize`; `atlasMaxImageSize` 0 turns the atlas off.
    init(maxTextureSize: Int, budget: Int, atlasPageSize: Int = 2048, atlasMaxImageSize: Int = 256) {
        self.maxTextureSize = maxTextureSize
        self.budget = budget
        atlas = GLESAtlas(pageSide: min(atlasPageSize, maxTextureSize), maxImageSize: atlasMaxImageSize)
        atlas.memory = memory
    }

    deinit { removeAll() }

    var residentBytes: Int {
        entries.values.reduce(0) { $0 + $1.bytes } + mipEntries.values.reduce(0) { $0 + $1.bytes }
    }
    /// The number of mip textures held.
    var mipTextureCount: Int { mipEntries.count }
    var count: Int { entries.count }

    /// The atlas slot holding `image`, nil when it has none (not cached, or a texture of its own).
    func slot(for image: Image) -> GLESAtlasSlot? {
        guard let entry = entries[ObjectIdentifier(image)], entry.image === image else { return nil }
        return entry.slot
    }

    func beginFrame() {
        frame += 1
        lastAnswer = nil
        bytesUploadedThisFrame = 0
        uploadNanosecondsThisFrame = 0
    }

    /// While non-nil, every image asked for and the tiles it got (GLESRenderer+Encoding.swift: what an encoded
    /// frame depends on).
    var recorded: [ObjectIdentifier: (image: Image, tiles: [GLESTile])]? {
        didSet { if recorded == nil || recorded!.isEmpty { lastAnswer = nil } }
    }
    /// Set when a mip texture was asked for while recording (the reuse check does not follow mip textures).
    var recordedMips = false

    /// The last answer of `tiles(for:)`, while nothing has changed the cache since: sprites of one image follow one
    /// another, and the image asked again answers with the same tiles, its side effects (marked used this frame,
    /// recorded, uploaded) done by the first ask. Two table lookups a sprite were a third of a one-thread encoding
    /// (`animated-1k` on GLES; the parallel encoding's prefetch keeps its own). The image is held, so that its
    /// identifier cannot pass to another. Forgotten when the frame or the recording starts, when an entry is
    /// released, and when a mip texture is asked for (which may upload).
    private var lastAnswer: (image: Image, generation: UInt64, tiles: [GLESTile])?

    /// The tiles of `image`, uploading it first if it is new or changed.
    func tiles(for image: Image) throws -> [GLESTile] {
        if let last = lastAnswer, last.image === image, last.generation == image.generation { return last.tiles }
        let tiles = try tilesUnrecorded(for: image)
        if recorded != nil { recorded![ObjectIdentifier(image)] = (image, tiles) }
        lastAnswer = (image, image.generation, tiles)
        return tiles
    }

    private func tilesUnrecorded(for image: Image) throws -> [GLESTile] {
        let key = ObjectIdentifier(image)
        if let entry = entries[key] {
            if entry.image === image {
                entry.lastUsedFrame = frame
                if let slot = entry.slot, entry.tiles[0].texture != slot.page.texture {
                    // The page grew into a new texture (which holds the same texels at the same place).
                    entry.tiles = [Self.tile(slot)]
                }
                if entry.generation != image.generation {
                    try reupload(image, into: entry)
                }
                return entry.tiles
            }
            // The identifier was reused by a new image after the old one was freed.
            release(entry)
            entries[key] = nil
        }
        let entry = try atlas.accepts(width: image.width, height: image.height) ? uploadToAtlas(image) : upload(image)
        entries[key] = entry
        return entry.tiles
    }

    /// Frees what is over budget (least recently used first, never what this frame used) and what belongs to
    /// images that no longer exist; then deletes atlas pages left empty.
    func endFrame() {
        lastAnswer = nil
        releaseGoneImages()
        var total = residentBytes
        if total > budget {
            for (key, entry) in entries.sorted(by: { $0.value.lastUsedFrame < $1.value.lastUsedFrame }) {
                guard total > budget, entry.lastUsedFrame < frame else { break }
                total -= entry.bytes
                release(entry)
                entries[key] = nil
            }
            for (key, entry) in mipEntries.sorted(by: { $0.value.lastUsedFrame < $1.value.lastUsedFrame }) {
                guard total > budget, entry.lastUsedFrame < frame else { break }
                total -= entry.bytes
                var id = entry.texture
                glDeleteTextures(1, &id)
                mipEntries[key] = nil
            }
        }
        atlas.endFrame()
    }

    func removeAll() {
        lastAnswer = nil
        for entry in entries.values where entry.slot == nil { release(entry) }
        entries.removeAll()
        var mipTextures = mipEntries.values.map(\.texture)
        glDeleteTextures(GLsizei(mipTextures.count), &mipTextures)
        mipEntries.removeAll()
        atlas.removeAll()
        unpackRing?.removeAll()
    }

    private func releaseGoneImages() {
        for (key, entry) in entries where entry.image == nil {
            release(entry)
            entries[key] = nil
        }
        for (key, entry) in mipEntries where entry.image == nil {
            var id = entry.texture
            glDeleteTextures(1, &id)
            mipEntries[key] = nil
        }
    }

    /// The mip texture of `image`, uploading its chain first if it is new or changed; nil when the image is larger
    /// than the largest texture (its quads are then sampled as linear).
    func mipTexture(for image: Image) throws -> GLuint? {
        lastAnswer = nil
        if recorded != nil { recordedMips = true }
        guard image.width <= maxTextureSize, image.height <= maxTextureSize else { return nil }
        let key = ObjectIdentifier(image)
        if let entry = mipEntries[key] {
            if entry.image === image {
                entry.lastUsedFrame = frame
                if entry.generation != image.generation {
                    glBindTexture(GLenum(GL_TEXTURE_2D), entry.texture)
                    try transferMipChain(image)
                    entry.generation = image.generation
                    uploads += 1
                }
                return entry.texture
            }
            var id = entry.texture
            glDeleteTextures(1, &id)
            mipEntries[key] = nil
        }
        var texture: GLuint = 0
        glGenTextures(1, &texture)
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        // texelFetch ignores filters, but a complete mipmapped texture makes every level readable.
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST_MIPMAP_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        try memory.reserve(texture, bytes: image.byteCount / 3 * 4, for: "the mip chain of \(image)")
        let bytes: Int
        do {
            bytes = try transferMipChain(image)
        } catch {
            glDeleteTextures(1, &texture)
            throw error
        }
        uploads += 1
        mipEntries[key] = GLESMipEntry(image: image, texture: texture, bytes: bytes, frame: frame)
        return texture
    }

    /// Uploads every level of `image`'s mip chain into the bound texture (allocating each level); returns the bytes.
    @discardableResult
    private func transferMipChain(_ image: Image) throws -> Int {
        let levels = try image.mipChain(budget: memory.budget)
        let start = DispatchTime.now().uptimeNanoseconds
        defer { uploadNanosecondsThisFrame += DispatchTime.now().uptimeNanoseconds - start }
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_BASE_LEVEL), 0)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAX_LEVEL), GLint(levels.count - 1))
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
        glPixelStorei(GLenum(GL_UNPACK_ROW_LENGTH), 0)
        var bytes = 0
        for (level, levelImage) in levels.enumerated() {
            glTexImage2D(GLenum(GL_TEXTURE_2D), GLint(level), GL_RGBA8, GLsizei(levelImage.width),
                         GLsizei(levelImage.height), 0, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE),
                         levelImage.baseAddress)
            bytes += levelImage.byteCount
        }
        let error = glGetError()
        if error == GLenum(GL_OUT_OF_MEMORY) {
            throw RenderError.failed("out of GPU memory uploading the mip chain of \(image) (\(bytes) bytes)")
        }
        guard error == GLenum(GL_NO_ERROR) else {
            throw RenderError.failed("uploading the mip chain of \(image): \(GLESError.name(error))")
        }
        bytesUploadedThisFrame += bytes
        return bytes
    }

    /// Deletes an entry's textures, or gives its atlas slot back.
    private func release(_ entry: GLESTextureEntry) {
        lastAnswer = nil
        if let slot = entry.slot {
            atlas.free(slot)
        } else {
            var ids = entry.tiles.map(\.texture)
            glDeleteTextures(GLsizei(ids.count), &ids)
        }
        entry.tiles = []
    }

    /// The tile layout of a width x height image: cores of at most maxTextureSize - 2 texels (one border
    /// texel each side), or one tile holding everything when it fits.
    static func layout(width: Int, height: Int, maxTextureSize: Int) -> [(stored: TexelRect, core: TexelRect)] {
        if width <= maxTextureSize && height <= maxTextureSize {
            let all = TexelRect(x0: 0, y0: 0, x1: width, y1: height)
            return [(all, all)]
        }
        let step = max(1, maxTextureSize - 2)
        func ranges(_ size: Int) -> [(core: Range<Int>, stored: Range<Int>)] {
            if size <= maxTextureSize { return [(0..<size, 0..<size)] }
            return stride(from: 0, to: size, by: step).map { start in
                let end = min(size, start + step)
                return (start..<end, max(0, start - 1)..<min(size, end + 1))
            }
        }
        var result: [(TexelRect, TexelRect)] = []
        for row in ranges(height) {
            for column in ranges(width) {
                result.append((
                    TexelRect(x0: column.stored.lowerBound, y0: row.stored.lowerBound, x1: column.stored.upperBound,
                              y1: row.stored.upperBound),
                    TexelRect(x0: column.core.lowerBound, y0: row.core.lowerBound, x1: column.core.upperBound,
                              y1: row.core.upperBound)))
            }
        }
        return result
    }

    private func upload(_ image: Image) throws -> GLESTextureEntry {
        var tiles: [GLESTile] = []
        do {
            for (stored, core) in Self.layout(width: image.width, height: image.height, maxTextureSize: maxTextureSize) {
                var texture: GLuint = 0
                glGenTextures(1, &texture)
                tiles.append(GLESTile(texture: texture, stored: stored, core: core))
                glBindTexture(GLenum(GL_TEXTURE_2D), texture)
                try memory.reserve(texture, bytes: stored.width * stored.height * 4, for: "the texture of \(image)")
                // The shaders read texels with texelFetch, which ignores filters; but a texture whose filter wants
                // mipmaps it lacks is incomplete, so set plain ones.
                glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
                glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
                try transfer(image, stored, allocate: true)
            }
        } catch {
            var ids = tiles.map(\.texture)
            glDeleteTextures(GLsizei(ids.count), &ids)
            throw error
        }
        uploads += 1
        return GLESTextureEntry(image: image, tiles: tiles, bytes: image.byteCount, frame: frame)
    }

    /// Uploads a small image into a slot of an atlas page: a free slot of a page in use; else one given back by
    /// an image gone since the last frame ended (so a scene that replaces its images every frame reuses the
    /// slots of those it replaced rather than growing or opening pages); else a slot in a page grown for it;
    /// else a slot of a new page.
    private func uploadToAtlas(_ image: Image) throws -> GLESTextureEntry {
        let (w, h) = (image.width, image.height)
        var found = atlas.allocate(width: w, height: h)
        if found == nil {
            releaseGoneImages()
            found = atlas.allocate(width: w, height: h)
        }
        if found == nil { found = try atlas.allocateGrowing(width: w, height: h) }
        if found == nil { found = try atlas.allocateInNewPage(width: w, height: h) }
        guard let slot = found else {
            throw RenderError.failed("a \(w)x\(h) image does not fit an empty \(atlas.pageSide)-texel atlas page")
        }
        let tile = Self.tile(slot)
        glBindTexture(GLenum(GL_TEXTURE_2D), tile.texture)
        do {
            try transfer(image, tile.stored, allocate: false, at: (slot.x, slot.y))
        } catch {
            atlas.free(slot)
            throw error
        }
        uploads += 1
        return GLESTextureEntry(image: image, tiles: [tile], slot: slot, bytes: image.byteCount, frame: frame)
    }

    /// The one tile of an atlased image: all its texels, in its page's current texture at the slot's corner.
    private static func tile(_ slot: GLESAtlasSlot) -> GLESTile {
        let all = TexelRect(x0: 0, y0: 0, x1: slot.width, y1: slot.height)
        return GLESTile(texture: slot.page.texture, stored: all, core: all, originX: slot.x, originY: slot.y)
    }

    /// Uploads a changed image into the textures (or the atlas slot) it already has: its size cannot change.
    private func reupload(_ image: Image, into entry: GLESTextureEntry) throws {
        for tile in entry.tiles {
            glBindTexture(GLenum(GL_TEXTURE_2D), tile.texture)
            try transfer(image, tile.stored, allocate: false, at: (tile.originX, tile.originY))
        }
        entry.generation = image.generation
        uploads += 1
    }

    /// Copies the texels of `rect` into the bound texture with their first at `at`, or into a texture of their
    /// own that is allocated first.
    private func transfer(_ image: Image, _ rect: TexelRect, allocate: Bool, at: (x: Int, y: Int) = (0, 0)) throws {
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
        glPixelStorei(GLenum(GL_UNPACK_ROW_LENGTH), GLint(image.width))
        defer { glPixelStorei(GLenum(GL_UNPACK_ROW_LENGTH), 0) }
        let first = image.baseAddress.advanced(by: rect.y0 * image.bytesPerRow + rect.x0 * 4)
        let start = DispatchTime.now().uptimeNanoseconds
        defer { uploadNanosecondsThisFrame += DispatchTime.now().uptimeNanoseconds - start }
        // Large uploads through a pixel-unpack buffer when the ring is on: the texels are then read from offset 0
        // of the bound buffer.
        var source: UnsafeRawPointer? = UnsafeRawPointer(first)
        var staged = false
        if let ring = unpackRing, rect.width * rect.height * 4 >= GLESUnpackRing.minimumBytes,
            ring.stage(UnsafeRawPointer(first), width: rect.width, height: rect.height, bytesPerRow: image.bytesPerRow)
        {
            (source, staged) = (nil, true)
        }
        defer { if staged { glBindBuffer(GLenum(GL_PIXEL_UNPACK_BUFFER), 0) } }
        if allocate {
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(rect.width), GLsizei(rect.height), 0,
                         GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), source)
        } else {
            glTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, GLint(at.x), GLint(at.y), GLsizei(rect.width),
                            GLsizei(rect.height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), source)
        }
        let error = glGetError()
        if error == GLenum(GL_OUT_OF_MEMORY) {
            throw RenderError.failed(
                "out of GPU memory uploading a \(rect.width)x\(rect.height) texture (\(rect.width * rect.height * 4) bytes)")
        }
        guard error == GLenum(GL_NO_ERROR) else {
            throw RenderError.failed("uploading a \(rect.width)x\(rect.height) texture: \(GLESError.name(error))")
        }
        bytesUploadedThisFrame += rect.width * rect.height * 4
    }
}

/// GL error names for messages.
enum GLESError {
    static func name(_ code: GLenum) -> String {
        switch Int32(code) {
        case GL_NO_ERROR: return "GL_NO_ERROR"
        case GL_INVALID_ENUM: return "GL_INVALID_ENUM"
        case GL_INVALID_VALUE: return "GL_INVALID_VALUE"
        case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION"
        case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION"
        case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY"
        case GL_CONTEXT_LOST_KHR: return "GL_CONTEXT_LOST"
        default: return String(format: "GL error 0x%04X", code)
        }
    }
}

/// Uploads `count` texels at `texels` (`componentsPerTexel` values of `valueSize` bytes each) into the texture bound
/// to GL_TEXTURE_2D, as a table of rows of `width` texels: the whole rows, then the last part row. For the per-frame
/// lookup tables the shaders read by index (span rows, shape entries).
func uploadTableRows(_ texels: UnsafeRawPointer, count: Int, width: Int, bytesPerTexel: Int, format: GLenum,
                     type: GLenum) {
    glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
    glPixelStorei(GLenum(GL_UNPACK_ROW_LENGTH), 0)
    let whole = count / width
    if whole > 0 {
        glTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, 0, 0, GLsizei(width), GLsizei(whole), format, type, texels)
    }
    let rest = count - whole * width
    if rest > 0 {
        glTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, 0, GLint(whole), GLsizei(rest), 1, format, type,
                        texels + whole * width * bytesPerTexel)
    }
}
