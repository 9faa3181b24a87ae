import Foundation
import LaminaBench
import LaminaCore
import LaminaImageIO
import Testing

/// The memory decoding takes besides the image (docs/reliability.md, "Hostile images"): the file's bytes, once, and
/// the decoder's own, bounded (a few megabytes for PNG; for a JPEG that keeps its coefficients, what
/// `decodingLimit` allows). Measured as the growth of the peak resident memory (Linux's high-water mark, reset by
/// writing 5 to /proc/self/clear_refs) in a process of its own, so that other tests do not blur it.
@Suite struct DecodingMemoryTests {
    /// Peak resident growth while `body` runs, in bytes.
    static func peakGrowth(_ body: () throws -> Void) rethrows -> Int {
        let fd = open("/proc/self/clear_refs", O_WRONLY)
        if fd >= 0 {
            _ = write(fd, "5", 1)
            close(fd)
        }
        let before = ProcessMemory.statusKilobytes("VmRSS:") ?? 0
        try body()
        return ((ProcessMemory.statusKilobytes("VmHWM:") ?? 0) - before) * 1024
    }

    /// Each worst case in turn, in a child process that prints its figures and exits 1 when one passes its bound.
    @Test func decodingTakesTheFileOnceAndABoundedAmount() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let folder = NSTemporaryDirectory() + "lamina-decoding-memory-\(getpid())"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            var failed = false
            func check(_ name: String, _ path: String, bound: Int, least: Int = 0, image: Int) throws {
                let file = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
                var decoded: Image?
                let growth = try DecodingMemoryTests.peakGrowth { decoded = try? Image(contentsOfFile: path) }
                let above = growth - (decoded == nil ? 0 : image)
                print("\(name): file \(MemorySize.describe(file)), peak growth above the image "
                      + "\(MemorySize.describe(above)) (bound \(MemorySize.describe(bound)))")
                if above > bound || above < least { failed = true }
                decoded = nil
            }
            let slack = 8 << 20
            // A PNG of 16 x 16 pixels and 32 MiB of private chunks, which are cut out in place: once the file.
            let chunk = [UInt8](repeating: 0x41, count: 64 << 10)
            let flood = PNGBombTests.png(extra: Array(repeating: ("prVt", chunk), count: 512))
            let floodPath = folder + "/flood.png"
            try flood.write(to: URL(fileURLWithPath: floodPath))
            try check("PNG with 32 MiB of chunks to drop", floodPath, bound: flood.count + slack, image: 1024)
            // A PNG whose image data inflates 64 MiB past its rows: refused after inflating 1 MiB into 64 KiB.
            let bomb = PNGBombTests.png(surplus: 64 << 20)
            let bombPath = folder + "/bomb.png"
            try bomb.write(to: URL(fileURLWithPath: bombPath))
            try check("PNG bomb", bombPath, bound: bomb.count + slack, image: 0)
            // A 2048 x 2048 progressive 4:4:4 JPEG: libjpeg keeps 24 MiB of coefficients, which the measure must see.
            let coefficients = 2048 * 2048 * 3 * 2
            try check("progressive JPEG 2048x2048", Fixture.path("progressive-2048.jpg"),
                      bound: coefficients + slack, least: coefficients - (4 << 20), image: 2048 * 2048 * 4)
            exit(failed ? 1 : 0)
        }
        if let output = result?.standardOutputContent {
            print(String(decoding: output, as: UTF8.self))
        }
    }
}
