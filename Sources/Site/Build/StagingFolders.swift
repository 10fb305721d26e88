import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The folders a build stages the new `public/` in, beside it: `.public.staging-<pid>-<random>`.
/// A build killed before its swap leaves one behind (a `defer` does not run on SIGKILL); the
/// next build removes those whose process is gone, never one a running build still fills.
enum StagingFolders {
    static func prefix(for live: URL) -> String { ".\(live.lastPathComponent).staging-" }

    /// A new, unused staging folder's URL for `live`.
    static func new(for live: URL) -> URL {
        live.deletingLastPathComponent()
            .appendingPathComponent("\(prefix(for: live))\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    }

    /// The tree the last swap took out, which the next build brings up to date and swaps in:
    /// `.public.previous` beside `public/`.
    static func spare(for live: URL) -> URL {
        live.deletingLastPathComponent().appendingPathComponent(".\(live.lastPathComponent).previous")
    }

    /// Removes what killed builds left beside `live`.
    static func removeLeftovers(beside live: URL) {
        let parent = live.deletingLastPathComponent(), prefix = prefix(for: live)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            let pid = name.dropFirst(prefix.count).split(separator: "-").first.flatMap { Int32($0) }
            // Our own, or a live process's (another build of this folder): still in use.
            if let pid, pid == getpid() || kill(pid, 0) == 0 || errno == EPERM { continue }
            try? FileManager.default.removeItem(at: parent.appendingPathComponent(name))
        }
    }
}
