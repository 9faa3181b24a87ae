import Foundation
import LaminaCore
@testable import LaminaDisplay

/// Test helpers that drive a `WaylandOutput` as the frame loop would: poll its descriptor, dispatch its events.
enum WaylandFrames {
    /// Dispatches events until `done(events so far)` holds or `timeout` passes (a hang guard, not a timing
    /// assertion); returns every event seen. Throws when the connection fails.
    @discardableResult
    static func pump(_ output: WaylandOutput, timeout: Double = 10,
                     until done: ([DisplayEvent]) -> Bool) throws -> [DisplayEvent] {
        var events: [DisplayEvent] = []
        let deadline = Date().addingTimeInterval(timeout)
        while !done(events), Date() < deadline {
            var descriptors = output.eventDescriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            _ = poll(&descriptors, nfds_t(descriptors.count), 50)
            events += try output.dispatchEvents()
        }
        return events
    }

    /// Pumps until the frame presented last is shown; true when it was within `timeout`.
    static func waitUntilShown(_ output: WaylandOutput, timeout: Double = 10) throws -> Bool {
        let events = try pump(output, timeout: timeout) { events in
            events.contains { if case .frameShown = $0 { return true } else { return false } }
        }
        return !output.isWaitingForFrame && events.contains(.frameShown(mediaTime: nil))
    }

    /// The rows of the buffer presented last that differ from `frame` (at most 5).
    static func bufferRowsDiffering(_ output: WaylandOutput, from frame: Image) -> [Int] {
        guard let buffer = output.lastBuffer else { return [-1] }
        var rows: [Int] = []
        for y in 0..<frame.height where rows.count < 5 {
            if memcmp(buffer.memory + y * buffer.stride, frame.baseAddress + y * frame.bytesPerRow, frame.width * 4) != 0 {
                rows.append(y)
            }
        }
        return rows
    }

    /// A `width` x `height` image of one opaque colour word (0xFFRRGGBB).
    static func solid(width: Int, height: Int, word: UInt32) throws -> Image {
        let image = try Image(width: width, height: height)
        fill(image, PixelBox(x0: 0, y0: 0, x1: width, y1: height), word: word)
        return image
    }

    /// Sets every pixel of `box` to `word`.
    static func fill(_ image: Image, _ box: PixelBox, word: UInt32) {
        for y in box.y0..<box.y1 {
            for x in box.x0..<box.x1 { image.setWord(word, x: x, y: y) }
        }
        image.markModified()
    }

    /// The pixels of `box` in `picture` whose word is not `word` (at most `limit` of them, as "(x, y) 0x…").
    static func mismatches(in picture: Image, _ box: PixelBox, word: UInt32, tolerance: Int = 0,
                           limit: Int = 5) -> [String] {
        var found: [String] = []
        for y in box.y0..<box.y1 {
            for x in box.x0..<box.x1 {
                let seen = picture.word(x: x, y: y)
                let close = (0..<4).allSatisfy { channel in
                    let a = Int((seen >> (channel * 8)) & 0xFF), b = Int((word >> (channel * 8)) & 0xFF)
                    return abs(a - b) <= tolerance
                }
                if !close {
                    found.append("(\(x), \(y)) 0x\(String(seen, radix: 16))")
                    if found.count >= limit { return found }
                }
            }
        }
        return found
    }
}
