import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// Renderers reserve their output, offscreen buffers and GPU textures from `memoryBudget` before allocating
/// them; over the limit is a `MemoryLimitError` naming what asked (issue 13, part 4).
@Suite struct MemoryBudgetRenderTests {
    /// A 100x60 white root with an 80x40 group at opacity 0.5 (one offscreen buffer).
    func groupScene() -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 60)
        root.backgroundColor = .white
        let group = Layer(frame: CGRect(x: 10, y: 10, width: 80, height: 40))
        group.opacity = 0.5
        let red = Layer(frame: CGRect(x: 0, y: 0, width: 50, height: 40))
        red.backgroundColor = .red
        let green = Layer(frame: CGRect(x: 30, y: 0, width: 50, height: 40))
        green.backgroundColor = .green
        group.sublayers = [red, green]
        root.addSublayer(group)
        return root
    }

    func limitError(_ body: () throws -> Image) -> MemoryLimitError? {
        do {
            let image = try body()
            Issue.record("rendered \(image) within the budget")
        } catch let error as MemoryLimitError {
            return error
        } catch {
            Issue.record("threw \(error), not MemoryLimitError")
        }
        return nil
    }

    @Test func theOutputImageIsReservedFirst() throws {
        for renderer in ReferenceScenes.renderers() {
            renderer.memoryBudget = MemoryBudget(limit: 1000)
            let error = limitError { try renderer.render(groupScene()) }
            #expect(error?.description == "memory limit 1000 bytes exceeded: the 100x60 output image needs 23.4 KiB, "
                + "0 bytes already in use (raise it with --memory-limit or MemoryBudget(limit:))", "\(renderer.name)")
        }
    }

    @Test func cpuGroupBuffersAreReservedBeforeTheBandsStart() throws {
        for threads in [1, 4] {
            let renderer = CPURenderer(threads: threads)
            let budget = MemoryBudget(limit: 30000)
            renderer.memoryBudget = budget
            let error = limitError { try renderer.render(groupScene()) }
            // The bands split the group's rows between them: together they hold one 80x40 buffer.
            #expect(error == MemoryLimitError(
                limit: 30000, requested: 80 * 40 * 4, inUse: 100 * 60 * 4,
                what: "the offscreen memory of 1 group and masks (nested 1 deep, the largest 80x40)"), "\(threads)")
            #expect(budget.inUse == 0)
        }
    }

    @Test func withinTheBudgetTheBytesComeBackWhenTheImageGoes() throws {
        for renderer in ReferenceScenes.renderers() {
            let budget = MemoryBudget(limit: 1 << 20)
            renderer.memoryBudget = budget
            // A plan drawn into a new image (live frames keep their images: `render(root)`).
            var image: Image? = try renderer.render(renderer.plan(groupScene()))
            let pixel = try #require(image?.rgba(x: 50, y: 30))
            #expect(pixel.maxChannelDifference(to: RGBA8(r: 128, g: 255, b: 128, a: 255)) <= 1, "\(renderer.name)")
            // The group's buffer: whole on the GPU; on the CPU, its rows in the bands drawn at once (one per thread).
            #expect(budget.peak > 100 * 60 * 4, "\(renderer.name)")
            if renderer.name == "gles" { #expect(budget.peak >= 100 * 60 * 4 + 80 * 40 * 4) }
            let held = budget.inUse
            image = nil
            // The output image's bytes come back; a GLES renderer keeps its render targets for the next frame.
            #expect(budget.inUse == held - 100 * 60 * 4, "\(renderer.name)")
            if renderer.name == "cpu" { #expect(budget.inUse == 0) }
        }
    }

    @Test func glesRenderTargetsAndTexturesAreReserved() throws {
        guard let renderer = GLESAvailability.renderer(options: .init(atlasMaxImageSize: 0)) else { return }
        renderer.memoryBudget = MemoryBudget(limit: 50000)
        // Output 24000 bytes and the renderer's 100x60 target 24000; the 80x40 group's buffer (80x48, its size
        // bucket) does not fit.
        let error = limitError { try renderer.render(groupScene()) }
        #expect(error == MemoryLimitError(limit: 50000, requested: 15360, inUse: 48000,
                                          what: "a 80x48 group buffer"))
        #expect(renderer.memoryBudget.inUse == 24000)

        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        let picture = Layer(frame: root.bounds)
        picture.contents = try Image(width: 64, height: 64, color: .blue)
        root.addSublayer(picture)
        renderer.memoryBudget = MemoryBudget(limit: 10000)
        let texture = limitError { try renderer.render(root) }
        #expect(texture?.what == "the texture of Image(64x64)")
        #expect(texture?.requested == 64 * 64 * 4)
    }

    @Test func glesAtlasPagesAreReserved() throws {
        guard let renderer = GLESAvailability.renderer() else { return }
        renderer.memoryBudget = MemoryBudget(limit: 100_000)
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        let picture = Layer(frame: root.bounds)
        picture.contents = try Image(width: 8, height: 8, color: .blue)
        root.addSublayer(picture)
        let error = limitError { try renderer.render(root) }
        #expect(error?.what == "a 512x512 atlas page")
    }

    @Test func cpuShadowBuffersAreReserved() throws {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
        let casting = Layer(frame: CGRect(x: 10, y: 10, width: 20, height: 20))
        casting.backgroundColor = .red
        casting.shadowOpacity = 1
        casting.shadowRadius = 3
        root.addSublayer(casting)
        let renderer = CPURenderer()
        renderer.memoryBudget = MemoryBudget(limit: 40 * 40 * 4 + 100)
        let error = limitError { try renderer.render(root) }
        // The silhouette, the first of the shadow's buffers (MemoryBudgetKindsTests checks each).
        #expect(error?.what.hasSuffix("silhouette of a shadow") == true, "\(String(describing: error))")
    }

    @Test func glesImagesWiderThanTheDriverTakesAreTiled() throws {
        guard let gles = GLESAvailability.renderer() else { return }
        // One texel more than GL_MAX_TEXTURE_SIZE, two rows: left half red, right half blue.
        let width = gles.maxTextureSize + 1
        let image = try Image(width: width, height: 2, limits: PixelLimits(maxDimension: .max, maxPixels: .max))
        for y in 0..<2 { for x in 0..<width {
            image.setRGBA(x < width / 2 ? RGBA8(r: 255, g: 0, b: 0, a: 255) : RGBA8(r: 0, g: 0, b: 255, a: 255), x: x, y: y)
        } }
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 10)
        let strip = Layer(frame: root.bounds)
        strip.contents = image
        root.addSublayer(strip)
        let picture = try gles.render(root)
        #expect(picture.rgba(x: 10, y: 5) == RGBA8(r: 255, g: 0, b: 0, a: 255))
        #expect(picture.rgba(x: 90, y: 5) == RGBA8(r: 0, g: 0, b: 255, a: 255))
        #expect(gles.cachedTextureCount == 1)
    }
}
