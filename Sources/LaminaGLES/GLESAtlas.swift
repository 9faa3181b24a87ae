import CEGL
import Foundation
import LaminaCore

/// A shelf packer for one square atlas page: boxes go left to right on horizontal shelves stacked from the top.
/// Freed boxes become free ranges of their shelf again; a shelf left empty merges with empty neighbours and can
/// be split for boxes of any height, and empty shelves at the bottom are given back, so a page whose images come
/// and go does not fill up with holes. The page can grow (its boxes stay where they are). Pure bookkeeping (no
/// GL), so it is tested on its own.
///
/// Every box keeps `gap` free texels to its right and below it. The shader never reads outside a quad's clamp
/// rectangle, so the gap is not needed for correct pixels; it keeps neighbours visibly apart when debugging a
/// page and costs little. The packer works in a square of `side + gap`, so the gap of a box that ends at the
/// page's right or bottom edge falls outside the page and an image of exactly `side` texels still fits.
struct GLESShelfPacker {
    struct Shelf {
        var y: Int
        var height: Int
        /// Free x ranges, sorted, disjoint and coalesced.
        var free: [Range<Int>]
        /// Boxes placed on this shelf.
        var used: Int
    }

    /// The page's side in texels.
    private(set) var side: Int
    let gap: Int
    /// Stacked from y = 0 with no space between them; `top` is where the next one would start.
    private(set) var shelves: [Shelf] = []
    private(set) var top = 0
    /// Boxes placed and not freed.
    private(set) var live = 0

    init(side: Int, gap: Int = 1) {
        self.side = side
        self.gap = gap
    }

    private var extent: Int { side + gap }

    /// Makes the page `newSide` texels square: the shelves get longer and there is room below them.
    mutating func grow(to newSide: Int) {
        guard newSide > side else { return }
        let (old, new) = (extent, newSide + gap)
        for index in shelves.indices {
            if let last = shelves[index].free.last, last.upperBound == old {
                shelves[index].free[shelves[index].free.count - 1] = last.lowerBound..<new
            } else {
                shelves[index].free.append(old..<new)
            }
        }
        side = newSide
    }

    /// The corner of a new `width` x `height` box, or nil when the page has no room for it.
    mutating func allocate(width: Int, height: Int) -> (x: Int, y: Int)? {
        let w = width + gap, h = height + gap
        guard width > 0, height > 0, w <= extent, h <= extent else { return nil }
        // A shelf in use takes boxes up to a third shorter than itself: reusing it beats opening a shelf, but
        // a much taller shelf would waste most of its height on them.
        var best: (index: Int, range: Int)?
        for (index, shelf) in shelves.enumerated()
        where shelf.used > 0 && shelf.height >= h && shelf.height * 2 <= h * 3 {
            if let best, shelves[best.index].height <= shelf.height { continue }
            if let range = shelf.free.firstIndex(where: { $0.count >= w }) { best = (index, range) }
        }
        if let best { return place(w, onShelf: best.index, range: best.range) }
        // An empty shelf (freed earlier) takes any box that fits in its height; what is left below becomes an
        // empty shelf of its own.
        if let index = shelves.firstIndex(where: { $0.used == 0 && $0.height >= h }) {
            let shelf = shelves[index]
            if shelf.height > h {
                shelves[index].height = h
                shelves.insert(Shelf(y: shelf.y + h, height: shelf.height - h, free: [0..<extent], used: 0),
                               at: index + 1)
            }
            return place(w, onShelf: index, range: 0)
        }
        guard top + h <= extent else { return nil }
        shelves.append(Shelf(y: top, height: h, free: [0..<extent], used: 0))
        top += h
        return place(w, onShelf: shelves.count - 1, range: 0)
    }

    private mutating func place(_ w: Int, onShelf index: Int, range: Int) -> (x: Int, y: Int) {
        let r = shelves[index].free[range]
        if r.count == w {
            shelves[index].free.remove(at: range)
        } else {
            shelves[index].free[range] = r.lowerBound + w..<r.upperBound
        }
        shelves[index].used += 1
        live += 1
        return (r.lowerBound, shelves[index].y)
    }

    /// Frees the box of `width` texels at (x, y) that `allocate` returned.
    mutating func free(x: Int, y: Int, width: Int) {
        guard let index = shelves.firstIndex(where: { $0.y == y }) else {
            assertionFailure("no shelf at y = \(y)")
            return
        }
        let range = x..<x + width + gap
        var free = shelves[index].free
        let at = free.firstIndex(where: { $0.lowerBound >= range.upperBound }) ?? free.count
        free.insert(range, at: at)
        if at + 1 < free.count, free[at + 1].lowerBound == free[at].upperBound {
            free[at] = free[at].lowerBound..<free[at + 1].upperBound
            free.remove(at: at + 1)
        }
        if at > 0, free[at - 1].upperBound == free[at].lowerBound {
            free[at - 1] = free[at - 1].lowerBound..<free[at].upperBound
            free.remove(at: at)
        }
        shelves[index].free = free
        shelves[index].used -= 1
        live -= 1
        if shelves[index].used == 0 { shelfEmptied(index) }
    }

    /// Merges an emptied shelf with its empty neighbours, and gives back empty shelves at the bottom of the stack.
    private mutating func shelfEmptied(_ index: Int) {
        var i = index
        shelves[i].free = [0..<extent]
        if i + 1 < shelves.count, shelves[i + 1].used == 0 {
            shelves[i].height += shelves[i + 1].height
            shelves.remove(at: i + 1)
        }
        if i > 0, shelves[i - 1].used == 0 {
            shelves[i - 1].height += shelves[i].height
            shelves.remove(at: i)
            i -= 1
        }
        if i == shelves.count - 1 {
            top = shelves[i].y
            shelves.removeLast()
        }
    }
}

/// One page of the atlas: a square RGBA8 texture and the packer of its texels.
final class GLESAtlasPage {
    /// Replaced by a larger texture when the page grows.
    var texture: GLuint
    var packer: GLESShelfPacker
    var side: Int { packer.side }

    init(texture: GLuint, side: Int) {
        self.texture = texture
        packer = GLESShelfPacker(side: side)
    }
}

/// Where an atlased image lives: its page and the page texel of its texel (0, 0).
struct GLESAtlasSlot {
    let page: GLESAtlasPage
    let x: Int
    let y: Int
    let width: Int
    let height: Int
}

/// Small images share a few large textures (pages), so that quads of different small images share a texture
/// and batch into one draw call. A quad drawn from a slot uses the page's texture with its target-to-texel map
/// translated by the slot's corner and its clamp rectangle moved with it; the shader clamps every read to that
/// rectangle, so nothing outside the image's own texels is ever read.
///
/// Images with both sides at most `maxImageSize` (256 by default; 0 turns the atlas off) go to the atlas; larger
/// ones keep textures of their own, where batching across images would save little and packing would waste a
/// lot. A page starts 512 texels square (1 MB) and, when full, doubles (its texels copied on the GPU) up to
/// `pageSide` (2,048 by default: 16 MB, within every GLES 3 driver's GL_MAX_TEXTURE_SIZE); then another page is
/// started. Pages that hold no image at the end of a frame are deleted.
final class GLESAtlas {
    /// The side pages grow to.
    let pageSide: Int
    let maxImageSize: Int
    private(set) var pages: [GLESAtlasPage] = []
    /// The textures of pages that grew during this frame: batches encoded before the growth still draw from
    /// them, so they are deleted only when the frame is over (and their names cannot come back meanwhile).
    private var retired: [GLuint] = []
    /// Reads a page's texels when it grows.
    private var copyFramebuffer: GLuint = 0
    static let initialPageSide = 512
    /// The budget pages reserve from (the texture cache's).
    var memory: GLESMemory?

    init(pageSide: Int, maxImageSize: Int) {
        self.pageSide = max(1, pageSide)
        self.maxImageSize = min(max(0, maxImageSize), self.pageSide)
    }

    deinit { removeAll() }

    /// Whether an image of this size goes to the atlas.
    func accepts(width: Int, height: Int) -> Bool {
        width <= maxImageSize && height <= maxImageSize
    }

    /// A slot in a page as it is, or nil when none has room.
    func allocate(width: Int, height: Int) -> GLESAtlasSlot? {
        for page in pages {
            if let corner = page.packer.allocate(width: width, height: height) {
                return GLESAtlasSlot(page: page, x: corner.x, y: corner.y, width: width, height: height)
            }
        }
        return nil
    }

    /// A slot in a page grown for it, or nil when every page is as large as pages get.
    func allocateGrowing(width: Int, height: Int) throws -> GLESAtlasSlot? {
        for page in pages {
            while page.side < pageSide {
                try grow(page)
                if let corner = page.packer.allocate(width: width, height: height) {
                    return GLESAtlasSlot(page: page, x: corner.x, y: corner.y, width: width, height: height)
                }
            }
        }
        return nil
    }

    /// A slot in a new page, as small as holds the image.
    func allocateInNewPage(width: Int, height: Int) throws -> GLESAtlasSlot? {
        var side = min(Self.initialPageSide, pageSide)
        while side < width || side < height { side = min(side * 2, pageSide) }
        let page = GLESAtlasPage(texture: try makeTexture(side: side), side: side)
        pages.append(page)
        guard let corner = page.packer.allocate(width: width, height: height) else { return nil }
        return GLESAtlasSlot(page: page, x: corner.x, y: corner.y, width: width, height: height)
    }

    func free(_ slot: GLESAtlasSlot) {
        slot.page.packer.free(x: slot.x, y: slot.y, width: slot.width)
    }

    /// Deletes the textures pages grew out of, and the pages that hold no image. Called between frames, when no
    /// batch refers to them.
    func endFrame() {
        if !retired.isEmpty {
            glDeleteTextures(GLsizei(retired.count), &retired)
            retired.removeAll()
        }
        guard pages.contains(where: { $0.packer.live == 0 }) else { return }
        var ids = pages.filter { $0.packer.live == 0 }.map(\.texture)
        glDeleteTextures(GLsizei(ids.count), &ids)
        pages.removeAll { $0.packer.live == 0 }
    }

    func removeAll() {
        var ids = pages.map(\.texture) + retired
        if !ids.isEmpty { glDeleteTextures(GLsizei(ids.count), &ids) }
        pages.removeAll()
        retired.removeAll()
        if copyFramebuffer != 0 {
            glDeleteFramebuffers(1, &copyFramebuffer)
            copyFramebuffer = 0
        }
    }

    /// Doubles a page (up to `pageSide`): a new texture, the used rows of the old one copied into it on the GPU
    /// (glCopyTexSubImage2D copies RGBA8 texels unchanged). Slots keep their corners.
    private func grow(_ page: GLESAtlasPage) throws {
        let side = min(page.side * 2, pageSide)
        let texture = try makeTexture(side: side)
        let rows = min(page.packer.top, page.side)
        if rows > 0 {
            var previous: GLint = 0
            glGetIntegerv(GLenum(GL_READ_FRAMEBUFFER_BINDING), &previous)
            if copyFramebuffer == 0 { glGenFramebuffers(1, &copyFramebuffer) }
            glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), copyFramebuffer)
            glFramebufferTexture2D(GLenum(GL_READ_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D),
                                   page.texture, 0)
            glBindTexture(GLenum(GL_TEXTURE_2D), texture)
            glCopyTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, 0, 0, 0, 0, GLsizei(page.side), GLsizei(rows))
            glFramebufferTexture2D(GLenum(GL_READ_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D),
                                   0, 0)
            glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), GLuint(previous))
            let error = glGetError()
            guard error == GLenum(GL_NO_ERROR) else {
                var id = texture
                glDeleteTextures(1, &id)
                throw RenderError.failed("growing an atlas page to \(side)x\(side): \(GLESError.name(error))")
            }
        }
        retired.append(page.texture)
        page.texture = texture
        page.packer.grow(to: side)
    }

    /// A side x side RGBA8 texture for a page (its texels undefined until written: nothing reads them before).
    private func makeTexture(side: Int) throws -> GLuint {
        var texture: GLuint = 0
        glGenTextures(1, &texture)
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        try memory?.reserve(texture, bytes: side * side * 4, for: "a \(side)x\(side) atlas page")
        glTexStorage2D(GLenum(GL_TEXTURE_2D), 1, GLenum(GL_RGBA8), GLsizei(side), GLsizei(side))
        // texelFetch ignores filters, but a texture whose filter wants mipmaps it lacks is incomplete.
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        let error = glGetError()
        guard error == GLenum(GL_NO_ERROR) else {
            glDeleteTextures(1, &texture)
            let what = "a \(side)x\(side) atlas page (\(side * side * 4) bytes)"
            if error == GLenum(GL_OUT_OF_MEMORY) { throw RenderError.failed("out of GPU memory allocating \(what)") }
            throw RenderError.failed("allocating \(what): \(GLESError.name(error))")
        }
        return texture
    }
}
