import CPixman
import Foundation
import Lamina
import LaminaBench
@testable import LaminaCPU
import LaminaTestSupport
import Testing

/// The CPU renderer prepares a frame's quads on every core (`CPUPreparedQuads`' parallel pass, then a serial pass
/// in plan order): the prepared quads, texture slots, coverage cache, mip chains, budget reservations, errors,
/// pixels and statistics must be those of the serial preparation.
@Suite struct CPUParallelPreparationTests {
    /// A 240 x 180 scene of `count` layers of many kinds: rotated sprites with and without antialiased edges, solid
    /// rounded cards (some twice at one place, so two quads share a coverage), blended cards (groups), images
    /// minified through mip levels (three images, each shown by several layers) and scaled images, all sharing a
    /// few textures. Images are new on each call (mip chains are kept on the image).
    static func mixedScene(count: Int, seed: UInt64) throws -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 240, height: 180)
        root.backgroundColor = Color(hex: "#304050")
        let sheet = TestImages.quadrants(width: 32, height: 32)
        let large = [TestImages.quadrants(width: 256, height: 128), TestImages.quadrants(width: 160, height: 200),
                     TestImages.nineSlice(cell: 40)]
        let filters = ["multiplyBlendMode", "screenBlendMode", "destinationOut", "plusDarker"]
        var random = SplitMix64(seed: seed)
        for index in 0..<count {
            let layer = Layer(frame: CGRect(x: CGFloat(random.below(2600)) / 10 - 10,
                                            y: CGFloat(random.below(2000)) / 10 - 10,
                                            width: CGFloat(6 + random.below(40)),
                                            height: CGFloat(6 + random.below(30))))
            switch index % 7 {
            case 0, 1:
                layer.contents = sheet
                layer.contentsRect = CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
                layer.transform = Transform3D(rotationAngle: CGFloat(index) * 0.07)
                layer.allowsEdgeAntialiasing = index % 2 == 0
            case 2:
                layer.backgroundColor = Color(red: 0.9, green: CGFloat(index % 10) / 10, blue: 0.2, alpha: 0.7)
                layer.cornerRadius = CGFloat(2 + random.below(8))
                root.addSublayer(layer)
                if index % 3 == 0 {
                    // The same card again, at the same place: one coverage key for two quads.
                    let twin = Layer(frame: layer.frame)
                    twin.backgroundColor = Color(red: 0.1, green: 0.3, blue: 0.9, alpha: 0.4)
                    twin.cornerRadius = layer.cornerRadius
                    root.addSublayer(twin)
                }
                continue
            case 3:
                layer.backgroundColor = Color(red: 0.2, green: 0.8, blue: 0.5, alpha: 0.85)
                layer.cornerRadius = 4
                layer.compositingFilter = filters[index % filters.count]
            case 4:
                // Minified through mip levels (trilinear).
                layer.contents = large[index % large.count]
                layer.minificationFilter = .trilinear
            case 5:
                // Scaled (bilinear) or a nine-slice.
                layer.contents = large[(index / 7) % large.count]
                if index % 2 == 0 {
                    layer.contentsCenter = CGRect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3)
                }
            default:
                // A whole-pixel copy of a quarter of the sheet.
                layer.frame = CGRect(x: layer.frame.minX.rounded(), y: layer.frame.minY.rounded(), width: 16,
                                     height: 16)
                layer.contents = sheet
                layer.contentsRect = CGRect(x: 0.5, y: index % 2 == 0 ? 0 : 0.5, width: 0.5, height: 0.5)
                layer.opacity = index % 3 == 0 ? 0.5 : 1
            }
            root.addSublayer(layer)
        }
        return root
    }

    /// Renders `root` twice (the second frame finds the first's coverages in the cache) with the preparation
    /// forced serial and forced parallel: the same bytes and statistics every frame.
    func compare(_ root: Layer, threads: Int, label: String) throws {
        let plan = try Planner().plan(root)
        let serial = CPURenderer(threads: threads), parallel = CPURenderer(threads: threads)
        serial.preparation = .serial
        parallel.preparation = .parallel
        for frame in 0..<2 {
            let expected = try serial.render(plan), actual = try parallel.render(plan)
            let difference = try #require(ImageDifference(expected, actual))
            #expect(difference.differingPixels == 0,
                    "\(label), \(threads) threads, frame \(frame): \(difference.differingPixels) pixels differ")
            var serialStatistics = serial.statistics, parallelStatistics = parallel.statistics
            serialStatistics.prepareSeconds = 0
            parallelStatistics.prepareSeconds = 0
            #expect(serialStatistics == parallelStatistics, "\(label), \(threads) threads, frame \(frame)")
            #expect(serial.lastPreparationWorkers == 1)
            #expect(parallel.lastPreparationWorkers == threads, "\(label): prepared on every thread")
        }
    }

    @Test(arguments: [2, 3, 8])
    func parallelPreparationMakesTheSerialPixels(threads: Int) throws {
        try compare(Self.mixedScene(count: 420, seed: 7), threads: threads, label: "mixed")
        try compare(CPUFastPathTests.scene(count: 400, seed: 4), threads: threads, label: "sprites")
    }

    /// Every prepared quad, its fast form and the slot sources, side by side.
    static func expectSame(_ a: CPUPreparedQuads, _ b: CPUPreparedQuads, sharedCache: Bool = false) {
        #expect(a.count == b.count)
        for index in 0..<min(a.count, b.count) {
            let x = a[index], y = b[index]
            let fx = a.fast(index), fy = b.fast(index)
            #expect(x.quadPointer == y.quadPointer && x.solid == y.solid && x.opacityMask == y.opacityMask)
            let offsets = (x.blit.map { [$0.offset.x, $0.offset.y] }, y.blit.map { [$0.offset.x, $0.offset.y] })
            #expect(x.blit?.slot == y.blit?.slot && offsets.0 == offsets.1 && x.scaled?.slot == y.scaled?.slot,
                    "quad \(index): slots \(String(describing: x.blit?.slot)) \(String(describing: y.blit?.slot))")
            #expect(x.pixelBounds == y.pixelBounds && x.mip == y.mip && x.mipLevels.count == y.mipLevels.count,
                    "quad \(index)")
            #expect(zip(x.mipLevels, y.mipLevels).allSatisfy { $0 === $1 }, "quad \(index): one mip chain")
            switch (x.coverage, y.coverage) {
            case (.none, .none): break
            case (.box(let p), .box(let q)): #expect(p == q)
            case (.boxes(let p, _), .boxes(let q, _)): #expect(p == q)
            case (.analytic(let p), .analytic(let q)):
                #expect(p.mask == q.mask && p.full == q.full && p.pieces == q.pieces, "quad \(index)")
                if sharedCache { #expect(p === q, "quad \(index): taken from the cache") }
            default: Issue.record("quad \(index): \(x.coverage) against \(y.coverage)")
            }
            #expect(fx.kind == fy.kind && fx.slot == fy.slot && fx.offset == fy.offset && fx.box == fy.box
                        && fx.opacity == fy.opacity && (fx.texels == nil) == (fy.texels == nil), "quad \(index)")
            var (tx, ty) = (fx.transform, fy.transform)
            #expect(withUnsafeBytes(of: &tx) { Array($0) } == withUnsafeBytes(of: &ty) { Array($0) }
                        && (fx.edges == nil) == (fy.edges == nil), "quad \(index)")
        }
        #expect(a.slotSources.count == b.slotSources.count)
        for (p, q) in zip(a.slotSources, b.slotSources) {
            #expect(p.image === q.image && p.clamp == q.clamp && (p.texels == nil) == (q.texels == nil))
        }
    }

    @Test func thePreparedQuadsAreTheSerialOnes() throws {
        let plan = try Planner().plan(Self.mixedScene(count: 420, seed: 11))
        func prepare(threads: Int, coverages: FrameCache<CoverageKey, CPUPreparedQuad.Coverage>) throws
            -> CPUPreparedQuads {
            try CPUPreparedQuads(plan.quads, width: plan.width, height: plan.height, coverages: coverages,
                                 slots: CPUTextureSlots(), budget: MemoryBudget(), threads: threads)
        }
        let serialCache = FrameCache<CoverageKey, CPUPreparedQuad.Coverage>()
        let parallelCache = FrameCache<CoverageKey, CPUPreparedQuad.Coverage>()
        let serial = try prepare(threads: 1, coverages: serialCache)
        let parallel = try prepare(threads: 4, coverages: parallelCache)
        #expect(serial.workers == 1 && parallel.workers == 4)
        Self.expectSame(serial, parallel)
        // The two passes on one thread (the figures' split) make them too.
        Self.expectSame(serial, try CPUPreparedQuads(
            plan.quads, width: plan.width, height: plan.height, coverages: FrameCache(), slots: CPUTextureSlots(),
            budget: MemoryBudget(), threads: 1, twoPasses: true))
        // The scene takes the paths compared: copies with slots, scaled copies, analytic coverage, mip levels.
        #expect(parallel.slotSources.count >= 3)
        #expect(parallel.contains { $0.scaled != nil })
        #expect(parallel.contains { $0.blit != nil })
        #expect(parallel.contains { $0.mip != nil })
        // Quads with one coverage key share one coverage, as serially.
        var shared = 0
        for index in 1..<parallel.count {
            if case .analytic(let p) = parallel[index].coverage, case .analytic(let q) = parallel[index - 1].coverage,
               p === q {
                shared += 1
                guard case .analytic(let r) = serial[index].coverage, case .analytic(let s) = serial[index - 1].coverage
                else { continue }
                #expect(r === s)
            }
        }
        #expect(shared > 3, "twins share their coverage")
        // The next frame takes every coverage from the cache, in parallel as serially.
        serialCache.endFrame()
        parallelCache.endFrame()
        let again = try prepare(threads: 4, coverages: parallelCache)
        Self.expectSame(parallel, again, sharedCache: true)
        Self.expectSame(try prepare(threads: 1, coverages: serialCache), again)
    }

    /// A plan whose mip chains the budget cannot all hold: quads of two images minified (trilinear) after many
    /// sprites; the first image's chain fits, the second's does not.
    static func mipPlan() throws -> (plan: RenderPlan, first: Image, second: Image) {
        let root = try mixedScene(count: 0, seed: 1)
        let first = TestImages.quadrants(width: 128, height: 128)
        let second = TestImages.quadrants(width: 256, height: 256)
        let sheet = TestImages.quadrants(width: 32, height: 32)
        for index in 0..<600 {
            let layer = Layer(frame: CGRect(x: index % 200, y: index / 200 * 40, width: 16, height: 16))
            layer.contents = sheet
            if index == 300 || index == 450 || index == 500 {
                layer.contents = index == 300 ? first : second
                layer.minificationFilter = .trilinear
            }
            root.addSublayer(layer)
        }
        return (try Planner().plan(root), first, second)
    }

    @Test(arguments: [CPUPreparation.serial, .parallel])
    func theFirstFailingQuadThrowsItsError(preparation: CPUPreparation) throws {
        let (plan, first, second) = try Self.mipPlan()
        let output = plan.width * plan.height * 4
        // Room for the output and the first chain (128 x 128: 21,844 bytes of levels 1...), not the second's.
        let budget = MemoryBudget(limit: output + 30000)
        let renderer = CPURenderer(threads: 4)
        renderer.preparation = preparation
        renderer.memoryBudget = budget
        do {
            _ = try renderer.render(plan)
            Issue.record("\(preparation): no error")
        } catch let error as MemoryLimitError {
            #expect(error.what.contains("\(second)"), "\(preparation): \(error)")
            #expect(error.requested == 87380 && error.inUse == output + 21844, "\(preparation): \(error)")
        }
        // The first chain was built and stays reserved; the second was not; the output's bytes came back.
        #expect(budget.inUse == 21844, "\(preparation)")
        #expect(try first.mipChain().count == 8)
        #expect(try second.mipChain().count == 9)
    }

    @Test func smallFramesArePreparedSerially() throws {
        #expect(CPUPreparation.automatic.threads(8, quads: CPUPreparation.parallelMinimum - 1) == 1)
        #expect(CPUPreparation.automatic.threads(8, quads: CPUPreparation.parallelMinimum) == 8)
        // One thread prepares serially; two in parallel (as fast or faster, measured in release builds).
        #expect(CPUPreparation.automatic.threads(1, quads: 100_000) == 1)
        #expect(CPUPreparation.automatic.threads(2, quads: 100_000) == 2)
        #expect(CPUPreparation.automatic.threads(CPUPreparation.parallelMinimumThreads, quads: 100_000)
                    == CPUPreparation.parallelMinimumThreads)
        #expect(CPUPreparation.serial.threads(8, quads: 100_000) == 1)
        #expect(CPUPreparation.parallel.threads(8, quads: 2) == 8)
        #expect(CPUPreparation(rawValue: "serial") == .serial && CPUPreparation(rawValue: "parallel") == .parallel)
        let renderer = CPURenderer(threads: 4)
        renderer.preparation = .automatic
        _ = try renderer.render(Planner().plan(CPUFastPathTests.scene(count: 100, seed: 2)))
        #expect(renderer.statistics.quads < CPUPreparation.parallelMinimum && renderer.lastPreparationWorkers == 1)
        _ = try renderer.render(Planner().plan(CPUFastPathTests.scene(count: 400, seed: 2)))
        #expect(renderer.statistics.quads >= CPUPreparation.parallelMinimum && renderer.lastPreparationWorkers == 4)
        // One thread prepares on the calling thread, whatever is asked.
        let single = CPURenderer(threads: 1)
        single.preparation = .parallel
        _ = try single.render(Planner().plan(CPUFastPathTests.scene(count: 400, seed: 2)))
        #expect(single.lastPreparationWorkers == 1)
    }

    /// Prints the preparation time of `lamina bench` scenes, serial against parallel (medians of 5, each with empty
    /// caches, as in a frame where everything moved), and checks that both prepare the same quads. Opt-in, as it
    /// takes a while: `LAMINA_PREPARE_FIGURES=1 swift test --filter CPUParallelPreparationTests/preparationFigures`
    /// (docs/benchmarks.md, "Preparing quads on every core (2026-11-27)").
    @Test(.enabled(if: ProcessInfo.processInfo.environment["LAMINA_PREPARE_FIGURES"] != nil))
    func preparationFigures() throws {
        let threads = Processors.active
        for scene in [BenchScene.sprites10k, .roundedSprites10k, .nineslice2k, .sprites100k] {
            for size in [CGSize(width: 1920, height: 1080), CGSize(width: 32, height: 18)]
            where scene != .roundedSprites10k || size.width < 64 || ProcessInfo.processInfo.environment[
                "LAMINA_PREPARE_FIGURES"] == "all" {
                let scale = size.width < 64 ? size.width / 1920 : 1
                let layout = size.width < 64 ? CGSize(width: 1920, height: 1080) : size
                let plan = try Planner(scale: scale).plan(scene.makeRoot(size: layout))
                func prepare(_ threads: Int, twoPasses: Bool = false) throws
                    -> (CPUPreparedQuads, Double, workers: Double, finishing: Double) {
                    var times: [(total: Double, workers: Double, finishing: Double)] = []
                    var last: CPUPreparedQuads?
                    for _ in 0..<5 {
                        let start = DispatchTime.now().uptimeNanoseconds
                        let quads = try CPUPreparedQuads(
                            plan.quads, width: plan.width, height: plan.height, coverages: FrameCache(),
                            slots: CPUTextureSlots(), budget: MemoryBudget(), threads: threads,
                            twoPasses: twoPasses)
                        times.append((Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6,
                                      quads.passSeconds.workers * 1e3, quads.passSeconds.finishing * 1e3))
                        last = quads
                    }
                    let median = times.sorted { $0.total < $1.total }[2]
                    return (try #require(last), median.total, median.workers, median.finishing)
                }
                let (serial, serialMs, _, _) = try prepare(1)
                let (parallel, parallelMs, workersMs, finishingMs) = try prepare(threads)
                // The workers' pass alone on one thread: how much of the work they take off the calling thread.
                let (_, _, oneWorkerMs, oneFinishingMs) = try prepare(1, twoPasses: true)
                Self.expectSame(serial, parallel)
                let figures = String(
                    format: """
                        serial %.1f ms, %d threads %.1f ms (x%.2f: workers %.1f, finishing %.1f); \
                        one worker %.1f + finishing %.1f
                        """,
                    serialMs, threads, parallelMs, serialMs / parallelMs, workersMs, finishingMs, oneWorkerMs,
                    oneFinishingMs)
                print("prepare \(scene.rawValue) \(plan.width)x\(plan.height) (\(plan.quads.count) quads): \(figures)")
            }
        }
    }
}
