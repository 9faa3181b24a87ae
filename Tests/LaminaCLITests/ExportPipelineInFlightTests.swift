import Foundation
import Lamina
import Testing

@testable import lamina

/// `ExportPipeline` with workers that keep frames in flight (`ExportFrameSource`, as a GLES job does through its
/// readback ring): every frame comes out once and in order, a thread whose window is full hands over the frames it
/// holds instead of waiting for itself, and a failure still writes the frames before it.
@Suite struct ExportPipelineInFlightTests {
    /// A source that returns a frame only once `depth` frames are in flight (the oldest), like a readback ring;
    /// frame `failing` fails when it is begun.
    final class Ring: ExportFrameSource {
        let depth: Int
        let failing: Int?
        let taken: Highest
        private var held: [Int] = []

        init(depth: Int, failing: Int? = nil, taken: Highest) {
            self.depth = depth
            self.failing = failing
            self.taken = taken
        }

        static func data(_ number: Int) -> Data { withUnsafeBytes(of: Int64(number).littleEndian) { Data($0) } }

        func begin(_ number: Int) -> [(Int, Result<Data, Error>)] {
            taken.note(number)
            if number == failing { return finish() + [(number, .failure(Broken()))] }
            held.append(number)
            usleep(useconds_t((number * 7919) % 4) * 200)
            guard held.count >= depth else { return [] }
            let oldest = held.removeFirst()
            return [(oldest, .success(Self.data(oldest)))]
        }

        func finish() -> [(Int, Result<Data, Error>)] {
            defer { held.removeAll() }
            return held.map { ($0, .success(Self.data($0))) }
        }

        var framesInFlight: Int { held.count }
    }

    struct Broken: Error, Equatable {}

    @Test(arguments: [(1, 2), (1, 5), (2, 3), (3, 8)])
    func framesInFlightComeOutOnceInOrderWithinTheWindow(jobs: Int, depth: Int) throws {
        // One job's window is 2 frames: with a ring of 5 it must hand its frames over before it has filled the ring.
        let pipeline = ExportPipeline(frames: 3..<40, jobs: jobs)
        let taken = Highest()
        var seen: [Int] = []
        try pipeline.run(makeSource: { _ in Ring(depth: depth, taken: taken) }, consume: { number, data in
            #expect(data == Ring.data(number))
            #expect(taken.value < number + pipeline.window)
            seen.append(number)
        })
        #expect(seen == Array(3..<40))
    }

    @Test func aFailedFrameStillWritesTheFramesInFlightBeforeIt() {
        let pipeline = ExportPipeline(frames: 0..<60, jobs: 2)
        var seen: [Int] = []
        #expect(throws: Broken()) {
            try pipeline.run(makeSource: { _ in Ring(depth: 3, failing: 23, taken: Highest()) },
                             consume: { number, _ in seen.append(number) })
        }
        #expect(seen == Array(0..<23))
    }
}
