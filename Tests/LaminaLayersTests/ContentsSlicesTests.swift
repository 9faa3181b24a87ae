import Foundation
import Testing

@testable import LaminaLayers

/// The columns (or rows) of a nine-slice stay in order whatever the rounding (random tree 63374, issue 29: the
/// fixed ends, shrunk to fit, came out an ulp longer than the destination and the planner trapped on a
/// reversed range).
struct ContentsSlicesTests {
    @Test func shrunkFixedEndsNeverPassTheDestinationsEnd() {
        // A centre at 1: all of the image is the left end, 83.92 points shrunk into 46.74, and
        // 83.92 x (46.74 / 83.92) is 46.740000000000009.
        let slices = ContentsLayout.slices(centre: 1, extent: 0, sizeInPoints: 83.92, sizeInPixels: 83.92,
                                           destinationStart: 14.23, destinationLength: 46.74)
        #expect(slices.map(\.destination) == [14.23...(14.23 + 46.74)])
        #expect(slices.map(\.source) == [0...1])
    }

    @Test func aSizeThatIsNotFiniteGivesTheMiddleAlone() {
        for size in [CGFloat.infinity, .nan] {
            let slices = ContentsLayout.slices(centre: 0.25, extent: 0.5, sizeInPoints: size, sizeInPixels: size,
                                               destinationStart: 2, destinationLength: 10)
            #expect(slices.map(\.destination) == [2...12], "\(size)")
        }
    }
}
