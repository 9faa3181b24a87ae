import Foundation

/// Path arithmetic for keeping a scene inside its folder.
///
/// The check is done twice: lexically (so `../x.png` is refused even when it does not exist, and the
/// message names what the scene wrote), then on real paths with symlinks resolved (so a link inside the
/// folder cannot point out of it).
enum FilePaths {
    /// `path` made absolute (against the current directory) with `.`, `..` and repeated slashes removed,
    /// without looking at the file system.
    static func normalized(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var components: [Substring] = []
        for component in absolute.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..": _ = components.popLast()
            default: components.append(component)
            }
        }
        return "/" + components.joined(separator: "/")
    }

    /// True when `path` is `folder` or below it (both normalized).
    static func isInside(_ path: String, folder: String) -> Bool {
        folder == "/" || path == folder || path.hasPrefix(folder + "/")
    }

    /// The canonical path, with every symlink resolved, or nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The folder that holds `path` (normalized).
    static func folder(of path: String) -> String {
        normalized(path + "/..")
    }
}
