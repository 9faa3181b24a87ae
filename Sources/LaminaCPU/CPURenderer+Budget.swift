import LaminaCore

/// The CPU renderer's offscreen memory against its `memoryBudget`, reserved for a whole frame before the bands
/// start (the bands allocate and free their buffers as they go, on several threads; reserving the most they can
/// hold at once keeps every allocation inside the budget without a lock on the drawing path).
extension CPURenderer {
    /// Reserves the most that the group and mask buffers of the plan's groups (`nesting`) can take at once when
    /// the frame is drawn in areas over the rows `bands`: for each area, the deepest chain of open groups (each buffer
    /// covers the group's columns and its rows within the area, twice for a group with a mask), summed over the
    /// `concurrent` largest, which may draw at the same time. Released by the caller when the frame is done.
    func reserveGroupBuffers(_ nesting: PlanNesting, rows bands: [Range<Int>], concurrent: Int) throws
        -> MemoryReservation
    {
        let groups = nesting.groups
        guard !groups.isEmpty else { return try memoryBudget.reserve(0, for: "") }
        var peaks: [Int] = []
        var largest = (width: 0, height: 0, bytes: 0)
        for group in groups {
            let (width, height) = (max(0, group.bounds.x1 - group.bounds.x0), max(0, group.bounds.y1 - group.bounds.y0))
            if width * height * 4 > largest.bytes { largest = (width, height, width * height * 4) }
        }
        for band in bands {
            let (top, bottom) = (band.lowerBound, band.upperBound)
            // The buffers open at once follow the plan's nesting: one per open group, taken at its begin (twice for
            // a group with a mask), given back at its end.
            var open: [Int] = []
            var sum = 0
            var peak = 0
            for event in nesting.events {
                switch event.step {
                case .begin(let group):
                    let width = max(0, group.bounds.x1 - group.bounds.x0)
                    let height = max(0, min(group.bounds.y1, bottom) - max(group.bounds.y0, top))
                    let (area, overflow) = width.multipliedReportingOverflow(by: height)
                    let bytes = overflow ? Int.max / 4 : area * 4 * (group.maskStart == nil ? 1 : 2)
                    open.append(bytes)
                    sum = sum.addingReportingOverflow(bytes).overflow ? Int.max / 4 : sum + bytes
                    peak = max(peak, sum)
                case .end:
                    sum -= open.removeLast()
                case .beginMask, .quad:
                    break
                }
            }
            peaks.append(peak)
        }
        var total = 0
        for peak in peaks.sorted(by: >).prefix(max(1, concurrent)) {
            total = total.addingReportingOverflow(peak).overflow ? Int.max / 2 : total + peak
        }
        let deepest = nesting.depth
        let count = groups.count
        return try memoryBudget.reserve(
            total,
            for: "the offscreen memory of \(count) group\(count == 1 ? "" : "s") and masks (nested \(deepest) deep, "
                + "the largest \(largest.width)x\(largest.height))")
    }
}
