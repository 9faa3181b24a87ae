import Foundation
import LaminaCore
import LaminaDrawing
import Testing

/// preferredSize (CATextLayer.preferredFrameSize()), custom drawing with Pango, and text made on several threads.
@Suite struct TextMeasureTests {
    @Test func preferredSizeIsPangosLogicalExtent() {
        for (text, family) in [("Preferred size", "DejaVu Sans"), ("Two\nlines here", "DejaVu Serif")] {
            let size = TextProbe.style(text, font: family).preferredSize()
            let logical = TextProbe.reference(text, family: family, size: 24).logical
            #expect(TextProbe.near(size.width, CGFloat(logical.width), 1), "\(text)")
            #expect(TextProbe.near(size.height, CGFloat(logical.height), 1), "\(text)")
            #expect(size.width == size.width.rounded(.up))
        }
        let text = "A wrapped paragraph of several words"
        let unwrapped = TextProbe.style(text, wrapped: true).preferredSize()
        let wrapped = TextProbe.style(text, wrapped: true).preferredSize(wrappingWidth: 120)
        #expect(unwrapped == TextProbe.style(text).preferredSize(), "no width: one line")
        #expect(wrapped.width <= 120)
        #expect(wrapped.height >= 3 * unwrapped.height - 1)
        #expect(TextProbe.style(text).preferredSize(wrappingWidth: 120) == unwrapped, "unwrapped ignores the width")
        #expect(TextProbe.style("").preferredSize() == .zero)
    }

    @Test func drawingContextDrawsTheSameAsThePicture() throws {
        let style = TextProbe.style("Custom drawing", color: Color(red: 0, green: 0.5, blue: 1))
        let bounds = CGRect(x: 10, y: 5, width: 200, height: 40)
        let picture = try #require(try style.picture(bounds: bounds, density: 1))
        let image = try Image(width: 220, height: 50)
        let context = try DrawingContext(image: image)
        context.draw(style, in: bounds)
        context.flush()
        let bytes = TextProbe.bytes(image)
        let expected = TextProbe.bytes(picture.image)
        for y in 0..<40 {
            #expect(Array(bytes[(y + 5) * 880 + 40 ..< (y + 5) * 880 + 840]) == Array(expected[y * 800 ..< y * 800 + 800]))
        }
        // drawText: the top-left of the first line at the point, not clipped.
        let free = try Image(width: 220, height: 50)
        let freeContext = try DrawingContext(image: free)
        freeContext.drawText("Custom drawing", at: CGPoint(x: 10, y: 5), font: "DejaVu Sans", fontSize: 24,
                             color: Color(red: 0, green: 0.5, blue: 1))
        freeContext.flush()
        #expect(TextProbe.bytes(free) == bytes)
    }

    @Test func textOnSeveralThreadsAtOnce() throws {
        let styles = ["Thread one", "スレッド二", "שלוש", "four fi fl"].map { TextProbe.style($0, font: "DejaVu Sans") }
        let bounds = CGRect(x: 0, y: 0, width: 160, height: 40)
        let expected = try styles.map { TextProbe.bytes(try $0.picture(bounds: bounds, density: 1)!.image) }
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for round in 0..<25 {
                let index = (worker + round) % styles.count
                let image = try? styles[index].picture(bounds: bounds, density: 1)?.image
                results.record(image.map(TextProbe.bytes) == expected[index])
            }
        }
        #expect(results.failures == 0)
        #expect(results.count == 200)
        // Threads that end free their Pango context; new ones make theirs.
        for _ in 0..<4 {
            let thread = Thread { results.record((try? styles[0].picture(bounds: bounds, density: 1)).map { TextProbe.bytes($0!.image) } == expected[0]) }
            thread.start()
            while !thread.isFinished { usleep(1000) }
        }
        #expect(results.failures == 0)
    }
}

private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var count = 0
    private(set) var failures = 0
    func record(_ ok: Bool) {
        lock.lock()
        count += 1
        if !ok { failures += 1 }
        lock.unlock()
    }
}
