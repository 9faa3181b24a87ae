import Foundation
import LaminaCore

// Damage (docs/architecture.md, "Damage"): which target pixels a plan draws differently from the last plan of the
// same cache. It comes from what planning already knows, so its cost grows with what changed, not with the tree:
// - A subtree whose `contentVersion`, placement, opacity and clip did not change is copied from the last plan to
//   the same place (`PlanRun.reuse`): a run of quads (and their groups) that draws the same pixels.
// - A layer planned again whose quads come out equal to quads it had (a parent whose child moved plans its own
//   background again) is matched with them, by value.
// - Copied runs that changed their order (a re-ordered sublayer) keep their pixels only where the order of what
//   overlaps is the same: the longest sequence of runs in the old order is kept, the others count as changed.
// Every other quad, new or gone, damages its `damageBounds`; every group not copied whole damages its bounds.
// Textures whose pixels changed in place (`Image.markModified()`) damage the quads that sample them.

/// Quads copied from the last plan (`old`, its indices) to this one (`new`) unchanged, with the groups among them.
struct ReusedRun {
    var old: Range<Int>
    var new: Range<Int>
    var oldGroups: Range<Int>
    var newGroups: Range<Int>
}

/// An image a plan sampled, and its generation then (weak: the cache must not keep images alive).
struct SampledImage {
    weak var image: Image?
    var generation: UInt64
}

/// A shadow a plan drew, and the generations of its silhouette's images then (`ShadowSource.textureStamp`).
struct SampledShadow {
    weak var source: ShadowSource?
    var stamp: UInt64
}

extension PlanRun {
    /// Records quads copied unchanged; a run that continues the last one (in both plans) extends it.
    func noteReused(old: Range<Int>, new: Range<Int>, oldGroups: Range<Int>, newGroups: Range<Int>) {
        if let last = reusedRuns.last, last.old.upperBound == old.lowerBound, last.new.upperBound == new.lowerBound,
            last.oldGroups.upperBound == oldGroups.lowerBound, last.newGroups.upperBound == newGroups.lowerBound
        {
            reusedRuns[reusedRuns.count - 1].old = last.old.lowerBound..<old.upperBound
            reusedRuns[reusedRuns.count - 1].new = last.new.lowerBound..<new.upperBound
            reusedRuns[reusedRuns.count - 1].oldGroups = last.oldGroups.lowerBound..<oldGroups.upperBound
            reusedRuns[reusedRuns.count - 1].newGroups = last.newGroups.lowerBound..<newGroups.upperBound
        } else {
            reusedRuns.append(ReusedRun(old: old, new: new, oldGroups: oldGroups, newGroups: newGroups))
        }
    }

    /// The damage of `plan` (groups in the order they were made) against `last` (the same); nil when there is no
    /// last plan of the same size to measure against.
    func damage(of plan: RenderPlan, last: RenderPlan?) -> PlanDamage? {
        let modifications = Image.sampledModificationCount
        guard let cache, let last, last.identity != 0, last.width == plan.width, last.height == plan.height else {
            markSampled(plan.quads[...])
            cache?.sampledModifications = modifications
            return nil
        }
        let (width, height) = (plan.width, plan.height)
        let whole = PixelBox(x0: 0, y0: 0, x1: width, y1: height)
        var region = DamageRegion()
        func isWhole() -> Bool { region.rects.count == 1 && region.rects[0] == whole }
        var runs = matchPlannedAgain(plan, last: last)
        runs = Self.inOrder(runs)
        // New quads and groups outside the kept runs.
        var position = 0
        for run in runs + [ReusedRun(old: last.quads.count..<last.quads.count,
                                     new: plan.quads.count..<plan.quads.count, oldGroups: 0..<0, newGroups: 0..<0)] {
            let fresh = plan.quads[position..<run.new.lowerBound]
            markSampled(fresh)
            if !isWhole() { for index in fresh.indices { plan.damageBounds(ofQuad: index).map { region.add($0) } } }
            position = run.new.upperBound
        }
        // Gone quads: the last plan's outside the kept runs (in increasing old order, as `inOrder` keeps them).
        position = 0
        for run in runs.sorted(by: { $0.old.lowerBound < $1.old.lowerBound }) + [ReusedRun(
            old: last.quads.count..<last.quads.count, new: 0..<0, oldGroups: 0..<0, newGroups: 0..<0)]
        {
            if !isWhole() {
                for index in position..<max(position, run.old.lowerBound) {
                    last.damageBounds(ofQuad: index).map { region.add($0) }
                }
            }
            position = max(position, run.old.upperBound)
        }
        if !isWhole() {
            addGroups(plan.groups, keeping: runs.map(\.newGroups), to: &region)
            addGroups(last.groups, keeping: runs.map(\.oldGroups), to: &region)
        }
        if modifications != cache.sampledModifications, !isWhole() { addChangedImages(of: plan, to: &region) }
        cache.sampledModifications = modifications
        return PlanDamage(region: region, since: last.identity)
    }

    /// The copied runs, with the quads planned again that equal quads of the same layer in the last plan (among
    /// those no run copied) matched to them as runs of one; in the order of this plan. Matching is skipped when
    /// many quads were planned (a frame where most things changed damages most of the target anyway).
    private func matchPlannedAgain(_ plan: RenderPlan, last: RenderPlan) -> [ReusedRun] {
        let limit = 8192
        var freshCount = plan.quads.count - reusedRuns.reduce(0) { $0 + $1.new.count }
        let goneCount = last.quads.count - reusedRuns.reduce(0) { $0 + $1.old.count }
        guard freshCount > 0, goneCount > 0, freshCount <= limit, goneCount <= limit else { return reusedRuns }
        var gone: [Quad: [Int]] = [:]
        var position = 0
        for run in reusedRuns.sorted(by: { $0.old.lowerBound < $1.old.lowerBound }) + [ReusedRun(
            old: last.quads.count..<last.quads.count, new: 0..<0, oldGroups: 0..<0, newGroups: 0..<0)]
        {
            for index in position..<max(position, run.old.lowerBound) where last.quads[index].layerID != nil {
                gone[last.quads[index], default: []].append(index)
            }
            position = max(position, run.old.upperBound)
        }
        guard !gone.isEmpty else { return reusedRuns }
        var runs: [ReusedRun] = []
        runs.reserveCapacity(reusedRuns.count + 16)
        position = 0
        freshCount = 0
        func match(upTo end: Int) {
            for index in position..<end where plan.quads[index].layerID != nil {
                guard var candidates = gone[plan.quads[index]], !candidates.isEmpty else { continue }
                let old = candidates.removeFirst()
                gone[plan.quads[index]] = candidates
                runs.append(ReusedRun(old: old..<(old + 1), new: index..<(index + 1), oldGroups: 0..<0,
                                      newGroups: 0..<0))
            }
        }
        for run in reusedRuns {
            match(upTo: run.new.lowerBound)
            runs.append(run)
            position = run.new.upperBound
        }
        match(upTo: plan.quads.count)
        return runs
    }

    /// The runs (in this plan's order) whose old positions increase along the longest such sequence: those keep
    /// their order against each other, so where only they draw, the pixels are the last frame's.
    static func inOrder(_ runs: [ReusedRun]) -> [ReusedRun] {
        if zip(runs, runs.dropFirst()).allSatisfy({ $0.old.upperBound <= $1.old.lowerBound }) { return runs }
        // Longest increasing subsequence by old start (patience sorting), O(n log n).
        var tails: [Int] = []  // index into runs of the smallest tail of each length
        var previous = [Int](repeating: -1, count: runs.count)
        for (index, run) in runs.enumerated() {
            var (low, high) = (0, tails.count)
            while low < high {
                let middle = (low + high) / 2
                if runs[tails[middle]].old.upperBound <= run.old.lowerBound { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var kept: [ReusedRun] = []
        var index = tails.last ?? -1
        while index >= 0 {
            kept.append(runs[index])
            index = previous[index]
        }
        return kept.reversed()
    }

    /// Adds the bounds of the groups outside `keeping` (ranges of group indices).
    private func addGroups(_ groups: [PlanGroup], keeping: [Range<Int>], to region: inout DamageRegion) {
        var kept = [Bool](repeating: false, count: groups.count)
        for range in keeping { for index in range where index < groups.count { kept[index] = true } }
        for (index, group) in groups.enumerated() where !kept[index] { region.add(group.bounds) }
    }

    /// Notes that the plan samples the images of `quads`, so that changing them in place is seen.
    func markSampled(_ quads: ArraySlice<Quad>) {
        var last: Image?
        for quad in quads {
            switch quad.paint {
            case .texture(let texture) where texture.image !== last:
                texture.image.markSampled()
                last = texture.image
            case .shadow(let source):
                source.forEachImage { $0.markSampled() }
            default:
                break
            }
        }
    }

    /// Adds the quads of `plan` whose images changed in place since they were last compared (or were not compared),
    /// and records the generations now seen for the next frame.
    func addChangedImages(of plan: RenderPlan, to region: inout DamageRegion) {
        guard let cache else { return }
        let modifications = Image.sampledModificationCount
        defer { cache.sampledModifications = modifications }
        guard modifications != cache.sampledModifications else { return }
        var seen: [ObjectIdentifier: SampledImage] = [:]
        var decided: [ObjectIdentifier: Bool] = [:]
        var last: (image: Image, changed: Bool)?
        var shadows: [ObjectIdentifier: SampledShadow] = [:]
        defer { cache.shadowStamps = shadows }
        for quad in plan.quads {
            if case .shadow(let source) = quad.paint {
                // A shadow changes with the images its silhouette samples.
                let key = ObjectIdentifier(source), stamp = source.textureStamp
                let known = cache.shadowStamps[key]
                if known?.source !== source || known?.stamp != stamp {
                    quad.damageBounds(width: plan.width, height: plan.height).map { region.add($0) }
                }
                shadows[key] = SampledShadow(source: source, stamp: stamp)
                continue
            }
            guard case .texture(let texture) = quad.paint else { continue }
            let image = texture.image
            let changed: Bool
            if let last, last.image === image {
                changed = last.changed
            } else {
                let key = ObjectIdentifier(image)
                if let known = decided[key] {
                    changed = known
                } else {
                    let generation = image.generation
                    changed = cache.imageGenerations[key].map { $0.image !== image || $0.generation != generation }
                        ?? true
                    decided[key] = changed
                    seen[key] = SampledImage(image: image, generation: generation)
                }
                last = (image, changed)
            }
            if changed { quad.damageBounds(width: plan.width, height: plan.height).map { region.add($0) } }
        }
        cache.imageGenerations = seen
    }
}
