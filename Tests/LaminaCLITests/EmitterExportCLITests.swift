import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// An emitter exported with `lamina export` (docs/semantics.md, "Emitter layers"): particles are a pure function of
/// the time, so frames exported in shards, or out of order by several jobs, are the bytes of the whole export.
@Suite struct EmitterExportCLITests {
    static let scene = ##"""
        {"size": [60, 40], "backgroundColor": "#000000",
         "layers": [{"type": "emitter", "frame": [0, 0, 60, 40], "emitterPosition": [30, 20], "seed": 9,
                     "emitterShape": "circle", "emitterSize": [10, 10], "emitterMode": "outline",
                     "emitterCells": [{"contents": "dot.png", "birthRate": 40, "lifetime": 1, "lifetimeRange": 0.5,
                                       "velocity": 20, "velocityRange": 10, "emissionRange": 3.14159,
                                       "spin": 2, "spinRange": 1, "scale": 0.5, "scaleRange": 0.25,
                                       "color": [1, 0.6, 0.2, 1], "redRange": 0.3, "alphaSpeed": -0.5,
                                       "emitterCells": [{"contents": "dot.png", "birthRate": 4, "lifetime": 0.5,
                                                         "velocity": 5, "scale": 0.5}]}]}]}
        """##

    @Test func shardsAndJobsGiveTheWholeExportsBytes() throws {
        let folder = try CLI.temporaryFolder()
        try Image(width: 8, height: 8, color: .white).writePNG(to: folder.appendingPathComponent("dot.png"))
        try Self.scene.write(to: folder.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
        func export(_ arguments: [String]) throws {
            let result = try CLI.run(["export", "s.json", "--backend", "cpu", "--duration", "0.5", "--fps", "20",
                                      "--start", "1", "--scale", "2"] + arguments, in: folder)
            #expect(result.status == 0, "\(result.stderr)")
        }
        func files(_ name: String) throws -> [String: Data] {
            let sub = folder.appendingPathComponent(name)
            var found: [String: Data] = [:]
            for file in try FileManager.default.contentsOfDirectory(atPath: sub.path) where file.hasSuffix(".png") {
                found[file] = try Data(contentsOf: sub.appendingPathComponent(file))
            }
            return found
        }
        try export(["-o", "whole/%04d.png", "--jobs", "1"])
        try export(["-o", "jobs/%04d.png", "--jobs", "3"])
        for k in 0..<3 { try export(["-o", "shards/%04d.png", "--shard", "\(k)/3"]) }
        let whole = try files("whole")
        #expect(whole.count == 10)
        #expect(try files("jobs") == whole)
        #expect(try files("shards") == whole)
        // The frames differ from one another: the particles move.
        #expect(Set(whole.values).count == whole.count)
    }
}
