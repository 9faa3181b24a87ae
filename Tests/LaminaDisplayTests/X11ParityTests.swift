import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// The same still scene played on X11 by each renderer gives the same screen within the renderers' parity
/// (SEMANTICS' "Parity": ImageDifference.meetsParity), read back from Xvfb: the window path (GLES into the
/// window surface, the present shader's flip and swizzle) against the CPU path (MIT-SHM puts).
@Suite(.serialized) struct X11ParityTests {
    static let scene = """
        {"size": [320, 240], "backgroundColor": "#182838",
         "layers": [{"frame": [20, 20, 120, 80], "backgroundColor": "#e04010", "cornerRadius": 16},
                    {"frame": [170, 40, 100, 100], "backgroundColor": "#30c060", "opacity": 0.6,
                     "transform": [{"rotate": 30}]},
                    {"frame": [40, 130, 240, 70], "backgroundColor": "#ffffff", "borderWidth": 6,
                     "borderColor": "#2040ff", "shadowOpacity": 0.8, "shadowRadius": 6, "shadowOffset": [4, 4]}]}
        """

    func screen(backend: String, folder: URL) throws -> Image? {
        guard let x = try XvfbDisplay.start() else { return nil }
        let play = try PlayProcess(["play", folder.appendingPathComponent("scene.json").path, "--output", "x11",
                                    "--backend", backend], environment: ["DISPLAY": x.name])
        // The letterbox-free corner and the rounded box's middle show once the first frame is up.
        #expect(try x.waitFor([(x: 2, y: 2, colour: "#182838"), (x: 160, y: 120, colour: "#e04010")])
                    == ["#182838", "#e04010"], "\(play.stderr)")
        usleep(200_000)
        let image = try x.screen()
        #expect(play.stop() == 0)
        return image
    }

    @Test func bothRenderersShowTheSameScreen() throws {
        let folder = try X11PlayTests.folder(Self.scene)
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let cpu = try screen(backend: "cpu", folder: folder),
            let gles = try screen(backend: "gles", folder: folder)
        else { return }
        let difference = ImageDifference(cpu, gles, tolerance: 2, premultiplied: true)
        #expect(ImageDifference.meetsParity(cpu, gles), "\(String(describing: difference))")
        // Probe pixels of the scene at scale 2 (640 x 480 from 320 x 240): the box, the border, the backdrop.
        for (image, name) in [(cpu, "cpu"), (gles, "gles")] {
            #expect(image.rgba(x: 160, y: 120) == RGBA8(r: 0xE0, g: 0x40, b: 0x10, a: 255), "\(name)")
            #expect(image.rgba(x: 300, y: 330) == RGBA8(r: 255, g: 255, b: 255, a: 255), "\(name)")
            #expect(image.rgba(x: 84, y: 263) == RGBA8(r: 0x20, g: 0x40, b: 0xFF, a: 255), "\(name)")
            #expect(image.rgba(x: 620, y: 20) == RGBA8(r: 0x18, g: 0x28, b: 0x38, a: 255), "\(name)")
        }
    }
}
