import Foundation

/// The process's memory as Linux reports it, for leak checks and the benchmark's figures.
public enum ProcessMemory {
    /// A "Name:   123 kB" field of /proc/self/status (e.g. "VmRSS:", "VmHWM:"), in kB; nil where unreadable.
    public static func statusKilobytes(_ name: String) -> Int? {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) }) else { return nil }
        return Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "")
    }

    /// Resident memory now, in kB (0 where unreadable).
    public static var residentKilobytes: Int { statusKilobytes("VmRSS:") ?? 0 }
}
