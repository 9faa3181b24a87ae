import FuzzSupport
import Foundation
import LaminaImageIO

/// The zip reader and the dotLottie reader on arbitrary bytes: entries or a named error, never a trap, an
/// out-of-bounds access or an allocation past the limits. Every entry is read; what is read must have the
/// size the central directory declares, within the limits. The same bytes are read as a data URL's payload.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzZip(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = FuzzDriver.data(bytes, count)
    // Small limits keep a mutated size field from asking for more memory than libFuzzer allows.
    let limits = ZipLimits(maxEntries: 200, maxEntrySize: 4 << 20, maxTotalSize: 16 << 20, maxNameLength: 512)
    if let archive = try? ZipArchive(data: data, limits: limits) {
        let names = archive.entryNames
        if Set(names).count != names.count { FuzzDriver.fail("duplicate names were accepted: \(names)") }
        for name in names {
            guard let contents = try? archive.contents(of: name) else { continue }
            if contents.count > limits.maxEntrySize || contents.count != archive.uncompressedSize(of: name) {
                FuzzDriver.fail("entry \(name) read \(contents.count) bytes, declared \(archive.uncompressedSize(of: name) ?? -1)")
            }
        }
    }
    do {
        let lottie = try DotLottie(data: data, limits: limits)
        if lottie.animationIDs.isEmpty || !lottie.animationIDs.contains(lottie.defaultAnimationID) {
            FuzzDriver.fail("the default animation \(lottie.defaultAnimationID) is not among \(lottie.animationIDs)")
        }
        for id in lottie.animationIDs { _ = try? lottie.animationData(id: id) }
        _ = try? lottie.imageData(path: "/images/img_0.png")
        _ = try? lottie.imageData(path: "i/img_0.png")
    } catch {
        if error.description.isEmpty { FuzzDriver.fail("an error without a message") }
    }
    // The bytes as the payload of a data URL (Lottie's embedded images).
    let text = String(decoding: data.prefix(4096), as: UTF8.self)
    for prefix in ["data:image/png;base64,", "data:,"] {
        if let url = try? DataURL(prefix + text, limit: 1 << 16), url.data.count > 1 << 16 {
            FuzzDriver.fail("a data URL decoded past its limit")
        }
    }
    return 0
}

@main enum FuzzZipMain {
    static func main() { FuzzDriver.run(fuzzZip) }
}
