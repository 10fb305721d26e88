import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A tmpfs of a few MiB of its own, to fill up: the disk-full tests run a site on it. Mounting
/// needs root; without it (or where mounting is refused, in a container say) the test is
/// cancelled with the reason, which shows as skipped.
final class SmallDisk: @unchecked Sendable {
    let mountPoint: URL
    /// The file that takes the last free byte.
    var filler: URL { mountPoint.appendingPathComponent("filler") }

    init(megabytes: Int) throws {
        guard geteuid() == 0 else { try Test.cancel("mounting a small tmpfs needs root") }
        mountPoint = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-small-disk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        let (status, output) = try run(["mount", "-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", mountPoint.path])
        guard status == 0 else {
            try? FileManager.default.removeItem(at: mountPoint)
            try Test.cancel("could not mount a tmpfs: \(output)")
        }
    }

    /// Writes the filler until the disk refuses (ENOSPC), with ever smaller writes so that not
    /// even a page is left.
    func fill() throws {
        let fd = open(filler.path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        var size = zeros.count
        while size >= 512 {
            if zeros.withUnsafeBytes({ write(fd, $0.baseAddress, size) }) <= 0 { size /= 2 }
        }
    }

    /// Gives the space back.
    func free() throws { try FileManager.default.removeItem(at: filler) }

    /// Bytes still free.
    var available: Int {
        var stats = statvfs()
        guard statvfs(mountPoint.path, &stats) == 0 else { return -1 }
        return Int(stats.f_bavail) * Int(stats.f_frsize)
    }

    func unmount() {
        _ = try? run(["umount", "-l", mountPoint.path])
        try? FileManager.default.removeItem(at: mountPoint)
    }
}

/// CPU time a process has used so far (user and system), in seconds, from `/proc/<pid>/stat`.
func cpuSeconds(of pid: Int32) throws -> Double {
    let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
    // The command name, in parentheses, may hold spaces: fields are counted after it.
    let fields = stat[stat.index(after: stat.lastIndex(of: ")")!)...].split(separator: " ")
    // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name.
    let ticks = Double(fields[11])! + Double(fields[12])!
    return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
}
