import Foundation
import Lamina
import LaminaBench
import LaminaTestSupport
import Testing

@testable import LaminaGLES

/// A short soak (`lamina soak` runs the long one, docs/benchmarks.md "Soak"): the changing tree for a few hundred
/// frames, checking that what each renderer caches stays bounded by what recent frames used, the figure a leak
/// would make grow. Memory itself is not asserted here (it is noisy over a short run); counts are exact.
struct SoakTests {
    static let frames = 120

    /// Distinct shadows a frame paints, with those inside shadows' silhouettes (a shadowed layer in a shadowed group).
    func shadowSources(_ plan: RenderPlan) -> Set<ShadowSource> {
        var sources = Set<ShadowSource>()
        for quad in plan.quads {
            guard case .shadow(let source) = quad.paint, sources.insert(source).inserted else { continue }
            sources.formUnion(shadowSources(source.silhouette))
        }
        return sources
    }

    @Test func theSoakTreeStaysTheSameSize() throws {
        let scene = try SoakScene()
        var counts: [Int] = []
        for _ in 0..<200 {
            try scene.advance()
            counts.append(scene.layerCount)
        }
        // Six image layers, the drawn layer, the group and its three children, the root, and twelve transient layers
        // with at most one child each.
        #expect(counts.dropFirst(12).allSatisfy { (24...36).contains($0) }, "\(counts)")
    }

    @Test func cpuCachesHoldOnlyWhatTheLastFramesUsed() throws {
        let renderer = CPURenderer(threads: 2)
        let scene = try SoakScene()
        let target = try Image(width: Int(SoakScene.size.width), height: Int(SoakScene.size.height))
        var recent: [Set<ShadowSource>] = []
        var largest = 0
        for _ in 0..<Self.frames {
            try scene.advance()
            let plan = try Planner().plan(scene.root)
            try renderer.render(plan, into: target)
            // Shadows unused for four frames are released: the cache never holds more than the last four frames'.
            recent = Array((recent + [shadowSources(plan)]).suffix(4))
            let bound = recent.reduce(Set<ShadowSource>()) { $0.union($1) }.count
            #expect(renderer.cachedShadowCount <= bound)
            largest = max(largest, renderer.cachedShadowCount)
        }
        #expect(largest > 0)
    }

    @Test(.enabled(if: GLESAvailability.skipReason == nil, "no EGL display"))
    func glesCachesHoldOnlyWhatTheLastFramesUsedAndLiveImages() throws {
        let renderer = try #require(GLESAvailability.renderer())
        let scene = try SoakScene()
        let target = try Image(width: Int(SoakScene.size.width), height: Int(SoakScene.size.height))
        var recent: [Set<ShadowSource>] = []
        var (textures, pages) = (0, 0)
        for frame in 1...Self.frames {
            try scene.advance()
            let plan = try Planner().plan(scene.root)
            try renderer.render(plan, into: target)
            recent = Array((recent + [shadowSources(plan)]).suffix(4))
            let bound = recent.reduce(Set<ShadowSource>()) { $0.union($1) }.count
            #expect(renderer.cachedShadowCount <= bound, "frame \(frame)")
            // Textures are kept for images that still exist: the tree's (six image layers, mask images of the
            // twelve transient layers, the drawn layer's backing image) and the antialiased edges of the last two
            // frames, so the count stays under a fixed bound however many images the run has made.
            #expect(renderer.cachedTextureCount <= 120, "frame \(frame): \(renderer.cachedTextureCount) textures")
            #expect(renderer.atlasPageCount <= 2, "frame \(frame): \(renderer.atlasPageCount) atlas pages")
            #expect(renderer.textures.residentBytes <= 8 << 20, "frame \(frame)")
            textures = max(textures, renderer.cachedTextureCount)
            pages = max(pages, renderer.atlasPageCount)
        }
        #expect(textures > 10 && pages >= 1)
        #expect(renderer.textureUploads > Self.frames, "every frame replaces or rewrites images")
    }
}
