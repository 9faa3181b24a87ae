import LaminaCore

/// Whether `pixel` is within `tolerance` of (r, g, b, a) in every channel: probes of renders whose edges or blends
/// may round a step either way.
public func near(_ pixel: RGBA8, _ r: Int, _ g: Int, _ b: Int, _ a: Int = 255, tolerance: Int = 3) -> Bool {
    abs(Int(pixel.r) - r) <= tolerance && abs(Int(pixel.g) - g) <= tolerance && abs(Int(pixel.b) - b) <= tolerance
        && abs(Int(pixel.a) - a) <= tolerance
}
