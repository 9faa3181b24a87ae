import CDRM
@testable import LaminaDisplay
import Testing

/// `--mode` on DRM: the preferred mode by default, a size's best rate, a named rate, and the error listing the
/// connector's modes; refresh rates from the pixel clock and totals.
struct DRMModeSelectionTests {
    static func mode(_ width: Int, _ height: Int, clock: UInt32, htotal: Int, vtotal: Int, vrefresh: UInt32,
                     preferred: Bool = false) -> drmModeModeInfo {
        var mode = drmModeModeInfo()
        mode.hdisplay = UInt16(width)
        mode.vdisplay = UInt16(height)
        mode.clock = clock
        mode.htotal = UInt16(htotal)
        mode.vtotal = UInt16(vtotal)
        mode.vrefresh = vrefresh
        mode.type = preferred ? UInt32(DRM_MODE_TYPE_PREFERRED | DRM_MODE_TYPE_DRIVER) : UInt32(DRM_MODE_TYPE_DRIVER)
        return mode
    }

    // 59.81 Hz named 60; 60 Hz; 30 Hz; a mode whose vrefresh the driver left 0 (60.004 Hz from its timings).
    static let connector = DRMCard.Connector(
        id: 40, name: "HDMI-A-1", isConnected: true,
        modes: [mode(1920, 1080, clock: 74250, htotal: 2200, vtotal: 1125, vrefresh: 30),
                mode(1280, 800, clock: 83500, htotal: 1680, vtotal: 831, vrefresh: 60, preferred: true),
                mode(1920, 1080, clock: 148_500, htotal: 2200, vtotal: 1125, vrefresh: 60),
                mode(1024, 768, clock: 65000, htotal: 1344, vtotal: 806, vrefresh: 0)],
        encoderID: 0, encoderIDs: [])

    func pick(_ text: String?) throws -> drmModeModeInfo {
        try DRMOutput.pickMode(text.map { DisplayMode(parsing: $0)! }, on: Self.connector, path: "/dev/dri/card9")
    }

    @Test func thePreferredModeByDefault() throws {
        let mode = try pick(nil)
        #expect(mode.size == PixelSize(width: 1280, height: 800))
        #expect(abs(mode.refreshRate - 59.81) < 0.01)
        #expect(mode.label == "1280x800@60")
    }

    @Test func aSizeGetsItsHighestRateAndARateIsMatchedWithinHalfAHertz() throws {
        #expect(try pick("1920x1080").clock == 148_500)
        #expect(try pick("1920x1080@30").clock == 74250)
        #expect(try pick("1920x1080@60.3").clock == 148_500)
        // By the worked-out rate or by the rate the mode is named with.
        #expect(try pick("1280x800@59.81").clock == 83500)
        #expect(try pick("1280x800@60").clock == 83500)
        let unnamed = try pick("1024x768")
        #expect(abs(unnamed.refreshRate - 60.004) < 0.001)
        #expect(unnamed.label == "1024x768@60")
    }

    @Test func aMissingModeNamesTheModesThereAre() {
        #expect(throws: DisplayError("/dev/dri/card9: connector HDMI-A-1 has no mode 800x600 (modes: 1920x1080@30, "
                                     + "1280x800@60, 1920x1080@60, 1024x768@60)")) { try pick("800x600") }
        #expect(throws: DisplayError("/dev/dri/card9: connector HDMI-A-1 has no mode 1920x1080@50 (modes: "
                                     + "1920x1080@30, 1280x800@60, 1920x1080@60, 1024x768@60)")) {
            try pick("1920x1080@50")
        }
    }

    @Test func interlacedModesRefreshTwiceTheFrameRate() {
        var mode = Self.mode(1920, 1080, clock: 74250, htotal: 2200, vtotal: 1125, vrefresh: 0)
        #expect(abs(mode.refreshRate - 30) < 0.001)
        mode.flags = UInt32(DRM_MODE_FLAG_INTERLACE)
        #expect(abs(mode.refreshRate - 60) < 0.001)
        mode.clock = 0
        #expect(mode.refreshRate == 60)  // no timings at all: 60, the rate outputs assume
    }
}
