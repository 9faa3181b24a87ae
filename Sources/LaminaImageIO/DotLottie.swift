import Foundation

/// A dotLottie archive (`.lottie`): a zip holding `manifest.json`, one or more Lottie animations and their
/// images (docs/archives.md).
///
/// Both layouts are read: version 1 (`animations/ID.json`, `images/`, the default animation named by
/// `activeAnimationId`) and version 2 (`a/ID.json`, `i/`, the default named by `initial.animation`). The
/// manifest's `animations` array lists the ids; anything else in it (themes, state machines, playback
/// settings) is ignored.
public struct DotLottie: Sendable {
    /// The archive itself, for entries this type does not interpret.
    public let archive: ZipArchive
    /// The animations' ids, in the manifest's order.
    public let animationIDs: [String]
    /// The animation played when none is named: the manifest's `activeAnimationId` (version 1) or
    /// `initial.animation` (version 2), else the first.
    public let defaultAnimationID: String
    /// The manifest's `version` ("1.0", "2"), when it gives one.
    public let version: String?

    /// Opens the archive in `data` and reads its manifest; the animations themselves are read by
    /// `animationData(id:)`.
    public init(data: Data, limits: ZipLimits = .default) throws(DotLottieError) {
        let archive: ZipArchive
        do { archive = try ZipArchive(data: data, limits: limits) } catch { throw .archive(error) }
        self.archive = archive
        guard archive.contains("manifest.json") else { throw .noManifest }
        let manifestData: Data
        do { manifestData = try archive.contents(of: "manifest.json") } catch { throw .archive(error) }
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: manifestData, options: [.fragmentsAllowed])
        } catch {
            throw .manifest(path: nil, reason: "not valid JSON (\(Self.reason(error)))")
        }
        guard let manifest = root as? [String: Any] else {
            throw .manifest(path: nil, reason: "expected an object, found \(Self.kind(root))")
        }
        if let value = manifest["version"] {
            if let text = value as? String {
                version = text
            } else if let number = value as? NSNumber, !Self.isBool(number) {
                version = number.stringValue
            } else {
                throw .manifest(path: "version", reason: "expected a string, found \(Self.kind(value))")
            }
        } else {
            version = nil
        }
        guard let listValue = manifest["animations"] else {
            throw .manifest(path: "animations", reason: "missing (a dotLottie manifest lists its animations)")
        }
        guard let list = listValue as? [Any] else {
            throw .manifest(path: "animations", reason: "expected an array, found \(Self.kind(listValue))")
        }
        guard !list.isEmpty else { throw .manifest(path: "animations", reason: "the array is empty") }
        var ids: [String] = []
        var seen = Set<String>()
        for (number, item) in list.enumerated() {
            guard let object = item as? [String: Any] else {
                throw .manifest(path: "animations[\(number)]", reason: "expected an object, found \(Self.kind(item))")
            }
            guard let idValue = object["id"] else { throw .manifest(path: "animations[\(number)].id", reason: "missing") }
            guard let id = idValue as? String else {
                throw .manifest(path: "animations[\(number)].id", reason: "expected a string, found \(Self.kind(idValue))")
            }
            guard !id.isEmpty else { throw .manifest(path: "animations[\(number)].id", reason: "empty") }
            guard seen.insert(id).inserted else {
                throw .manifest(path: "animations[\(number)].id", reason: "\(ZipError.quoted(id)) is listed twice")
            }
            ids.append(id)
        }
        animationIDs = ids
        var chosen: (path: String, id: String)?
        if let value = manifest["activeAnimationId"] {
            guard let id = value as? String else {
                throw .manifest(path: "activeAnimationId", reason: "expected a string, found \(Self.kind(value))")
            }
            chosen = ("activeAnimationId", id)
        }
        if let initial = manifest["initial"] {
            guard let object = initial as? [String: Any] else {
                throw .manifest(path: "initial", reason: "expected an object, found \(Self.kind(initial))")
            }
            if let value = object["animation"] {
                guard let id = value as? String else {
                    throw .manifest(path: "initial.animation", reason: "expected a string, found \(Self.kind(value))")
                }
                chosen = ("initial.animation", id)
            }
        }
        if let chosen, !chosen.id.isEmpty {
            guard seen.contains(chosen.id) else {
                throw .manifest(path: chosen.path, reason: "\(ZipError.quoted(chosen.id)) is not one of the animations "
                    + "(\(ids.map(ZipError.quoted).joined(separator: ", ")))")
            }
            defaultAnimationID = chosen.id
        } else {
            defaultAnimationID = ids[0]
        }
    }

    /// The Lottie JSON of the animation `id` (nil: the default one), from `animations/ID.json` or `a/ID.json`.
    public func animationData(id: String? = nil) throws(DotLottieError) -> Data {
        let id = id ?? defaultAnimationID
        guard animationIDs.contains(id) else {
            throw .unknownAnimation(id: id, known: animationIDs, suggestion: Self.closest(to: id, in: animationIDs))
        }
        let candidates = ["animations/\(id).json", "a/\(id).json"]
        guard let path = candidates.first(where: archive.contains) else {
            throw .missingAnimation(id: id, paths: candidates)
        }
        do { return try archive.contents(of: path) } catch { throw .archive(error) }
    }

    /// The bytes of an image an animation refers to, or nil when the archive has no such file. `path` is the
    /// Lottie asset's `u` and `p` joined (`/images/img_0.png`, `images/img_0.png`, `i/img_0.png`,
    /// `img_0.png`): a leading `/` or `./` is dropped; a name that is not in the archive as given is looked for
    /// under `images/` and `i/` by its last component, so that version 1 paths find version 2 files and back.
    public func imageData(path: String) throws(DotLottieError) -> Data? {
        var name = Substring(path)
        while true {
            if name.hasPrefix("/") {
                name = name.dropFirst()
            } else if name.hasPrefix("./") {
                name = name.dropFirst(2)
            } else {
                break
            }
        }
        let relative = String(name)
        let last = relative.split(separator: "/").last.map(String.init) ?? relative
        let candidates = [relative, "images/\(last)", "i/\(last)"]
        guard !last.isEmpty, let found = candidates.first(where: { archive.contains($0) && !$0.hasSuffix("/") }) else {
            return nil
        }
        do { return try archive.contents(of: found) } catch { throw .archive(error) }
    }

    /// The bytes of the image asset whose `u` is `directory` and `p` is `file`, joined with one `/` between
    /// them (`"/images/"` and `"img_0.png"`, or `"images"` and `"img_0.png"`), as `imageData(path:)` finds it.
    public func imageData(directory: String, file: String) throws(DotLottieError) -> Data? {
        if directory.isEmpty || directory.hasSuffix("/") || file.hasPrefix("/") {
            return try imageData(path: directory + file)
        }
        return try imageData(path: directory + "/" + file)
    }

    // MARK: - Helpers

    /// JSONSerialization gives booleans as NSNumbers of type "c" (char), which no JSON number becomes.
    private static func isBool(_ number: NSNumber) -> Bool {
        number.objCType.pointee == CChar(UInt8(ascii: "c"))
    }

    private static func kind(_ value: Any) -> String {
        switch value {
        case is String: return "a string"
        case let number as NSNumber: return isBool(number) ? "a boolean" : "a number"
        case is [Any]: return "an array"
        case is [String: Any]: return "an object"
        case is NSNull: return "null"
        default: return "a value"
        }
    }

    private static func reason(_ error: Error) -> String {
        let nsError = error as NSError
        return (nsError.userInfo[NSDebugDescriptionErrorKey] as? String) ?? nsError.localizedDescription
    }

    /// The id within edit distance 2 (or a third of its length) of `id`, when exactly one is nearest.
    static func closest(to id: String, in ids: [String]) -> String? {
        let target = Array(id.lowercased())
        var best: (distance: Int, id: String)?
        var tie = false
        for candidate in ids {
            let distance = editDistance(target, Array(candidate.lowercased()))
            if best == nil || distance < best!.distance {
                best = (distance, candidate)
                tie = false
            } else if distance == best!.distance {
                tie = true
            }
        }
        guard let best, !tie, best.distance <= max(2, target.count / 3) else { return nil }
        return best.id
    }

    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}

/// Why a dotLottie archive or one of its animations could not be read.
///
/// - `archive`: the `ZipError`'s own message.
/// - `noManifest`: `not a dotLottie archive: it has no manifest.json`
/// - `manifest`: `manifest.json: PATH: REASON` (`manifest.json: animations[1].id: expected a string, found a
///   number`), or `manifest.json: REASON` for the whole file (`not valid JSON (...)`).
/// - `unknownAnimation`: `no animation "x" in the archive (did you mean "y"?); it has "a", "b"`
/// - `missingAnimation`: `animation "x" is in manifest.json but the archive has neither animations/x.json nor a/x.json`
public enum DotLottieError: Error, Equatable, Sendable, CustomStringConvertible {
    case archive(ZipError)
    case noManifest
    case manifest(path: String?, reason: String)
    case unknownAnimation(id: String, known: [String], suggestion: String?)
    case missingAnimation(id: String, paths: [String])

    public var description: String {
        switch self {
        case .archive(let error): return error.description
        case .noManifest: return "not a dotLottie archive: it has no manifest.json"
        case .manifest(let path, let reason):
            return path.map { "manifest.json: \($0): \(reason)" } ?? "manifest.json: \(reason)"
        case .unknownAnimation(let id, let known, let suggestion):
            let hint = suggestion.map { " (did you mean \(ZipError.quoted($0))?)" } ?? ""
            return "no animation \(ZipError.quoted(id)) in the archive\(hint); it has "
                + known.map(ZipError.quoted).joined(separator: ", ")
        case .missingAnimation(let id, let paths):
            return "animation \(ZipError.quoted(id)) is in manifest.json but the archive has neither "
                + paths.joined(separator: " nor ")
        }
    }
}
