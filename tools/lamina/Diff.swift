import ArgumentParser
import Foundation
import Lamina

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare two PNG (or JPEG) images pixel by pixel.",
        discussion: """
            Prints the largest and mean channel difference (straight RGBA, 0-255) and how many pixels differ. \
            Exit status 0 when no channel of any pixel differs by more than the tolerance, 1 when some do or the \
            sizes differ, 2 when an image cannot be read.
            """)

    @Argument(help: "The first image.") var first: String
    @Argument(help: "The second image.") var second: String

    @Option(help: "Largest per-channel difference that still counts as equal.")
    var tolerance: Int = 0

    @Option(help: "Write a difference image (PNG): red where pixels differ, dim grey where they agree.")
    var output: String?

    mutating func run() throws {
        guard tolerance >= 0 else { throw CLIFailure.badInput("--tolerance must be 0 or more") }
        let a = try load(first), b = try load(second)
        guard let difference = ImageDifference(a, b, tolerance: tolerance) else {
            print("sizes differ: \(a.width)x\(a.height) vs \(b.width)x\(b.height)")
            throw CLIFailure(message: "images differ in size", code: 1)
        }
        print("max channel difference: \(difference.maxChannelDifference)")
        print("mean channel difference: \(String(format: "%.4f", difference.meanChannelDifference))")
        print("differing pixels: \(difference.differingPixels) of \(difference.pixelCount)")
        print("pixels over tolerance \(tolerance): \(difference.pixelsOverTolerance)")
        if let output {
            guard let picture = try ImageDifference.visualize(a, b) else { return }
            // Atomic (FileOutput): a failed write leaves an old difference image as it was.
            do { try picture.writePNG(to: URL(fileURLWithPath: output)) } catch {
                throw CLIFailure.failed("\(error)")
            }
        }
        if difference.pixelsOverTolerance > 0 { throw CLIFailure(message: "images differ", code: 1) }
    }

    private func load(_ path: String) throws -> Image {
        do { return try Image(contentsOfFile: path) } catch { throw CLIFailure.badInput("\(error)") }
    }
}
