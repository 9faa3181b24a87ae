import Foundation

/// Watches a scene file's folder with inotify for changes to the scene or the files it uses (images, sprite
/// sheets): editors replace files by writing a new one and renaming it, so the folder is watched, not the file.
final class FileWatcher {
    let descriptor: Int32
    private let folderWatch: Int32
    private let names: (String) -> Bool

    /// Watches `folder`; `names` says which file names matter.
    init(folder: String, names: @escaping (String) -> Bool) throws {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else {
            throw DisplayError("inotify_init1 failed: \(String(cString: strerror(errno)))")
        }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MODIFY)
        folderWatch = inotify_add_watch(descriptor, folder, mask)
        guard folderWatch >= 0 else {
            let error = String(cString: strerror(errno))
            close(descriptor)
            throw DisplayError("cannot watch \(folder) for changes: \(error)")
        }
        self.names = names
    }

    /// Reads every pending event; true when one concerns a file that matters.
    func changed() -> Bool {
        var relevant = false
        let size = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer, size)
            guard count > 0 else { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameStart = offset + MemoryLayout<inotify_event>.size
                if event.len > 0 {
                    let name = String(cString: (buffer + nameStart).assumingMemoryBound(to: CChar.self))
                    if names(name) { relevant = true }
                }
                offset = nameStart + Int(event.len)
            }
        }
        return relevant
    }

    deinit { close(descriptor) }
}
