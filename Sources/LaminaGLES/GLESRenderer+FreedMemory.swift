import Foundation
import LaminaCore

// Giving freed texture memory back to the system. A software driver such as llvmpipe keeps textures in ordinary
// malloc'd memory. glibc serves blocks above its mmap threshold with mmap and returns them on free, but it raises
// that threshold to the size of each such block freed (up to 32 MB), so after the first atlas page (1 to 16 MB)
// is deleted, pages and large targets come from the heap, whose freed space glibc keeps resident. A 30,000-frame
// soak on llvmpipe grew by 12 MB in one step this way (docs/benchmarks.md, "Soak") while the bytes in use stayed
// flat. After a frame that deleted at least 1 MB of atlas pages, the renderer asks glibc to return free heap
// pages (malloc_trim): rare (pages are deleted only when the images in them are gone), and a no-op elsewhere.

extension GLESRenderer {
    /// glibc's malloc_trim, looked up at run time: nil with other C libraries.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        guard let symbol = dlsym(nil, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()

    /// Bytes of the atlas pages held now.
    var atlasBytes: Int { textures.atlas.pages.reduce(0) { $0 + $1.side * $1.side * 4 } }

    /// Ends the texture cache's frame and, when it deleted at least 1 MB of atlas pages, returns free heap memory
    /// to the system.
    func endTextureFrame() {
        let before = atlasBytes
        textures.endFrame()
        if before - atlasBytes >= 1 << 20 { _ = Self.mallocTrim?(0) }
    }
}
