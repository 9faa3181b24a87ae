import LaminaDisplay
import Testing

/// `--mode WxH[@HZ]`: what parses and what is refused.
struct DisplayModeTests {
    @Test func modesParseWithAndWithoutARate() {
        #expect(DisplayMode(parsing: "1920x1080") == DisplayMode(width: 1920, height: 1080))
        #expect(DisplayMode(parsing: "1280x800@75") == DisplayMode(width: 1280, height: 800, refreshRate: 75))
        #expect(DisplayMode(parsing: "640x480@59.94")?.refreshRate == 59.94)
        #expect(DisplayMode(parsing: "1280x800@75")?.description == "1280x800@75")
        #expect(DisplayMode(parsing: "640x480@59.94")?.description == "640x480@59.94")
    }

    @Test(arguments: ["", "x", "1920", "1920x", "x1080", "0x10", "-5x10", "1920x1080@", "1920x1080@0",
                      "1920x1080@fast", "1920x1080@60@60", "99999x10", "1920X1080"])
    func badModesAreRefused(_ text: String) {
        #expect(DisplayMode(parsing: text) == nil)
    }
}
