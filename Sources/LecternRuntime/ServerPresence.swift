import Foundation

/// Whether `lectern serve` runs for a site: it holds `data/server.lock` for as long as it lives
/// (released by the kernel when the process ends, however it ends), with its pid and address
/// written inside for `lectern status`.
public struct ServerPresence: Sendable {
    public let root: URL
    var path: String { root.appendingPathComponent("data/server.lock").path }

    public init(root: URL) { self.root = root }

    /// What a running server wrote: `pid`, `address`, `since`; nil when none runs.
    public func running() -> [String: String]? {
        guard FileManager.default.fileExists(atPath: path), let lock = try? FileLock(path: path) else { return nil }
        if (try? lock.lock(exclusive: false, wait: false)) == true {
            lock.unlock()
            return nil
        }
        var fields: [String: String] = [:]
        for line in lock.read().split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        return fields
    }

    public var isRunning: Bool { running() != nil }

    /// Claims the site for this process; nil when another server holds it.
    public func claim(address: String) throws -> FileLock? {
        let lock = try FileLock(path: path)
        guard try lock.lock(exclusive: true, wait: false) else { return nil }
        lock.write("pid=\(ProcessInfo.processInfo.processIdentifier)\naddress=\(address)\nsince=\(Int(Date().timeIntervalSince1970))\n")
        return lock
    }
}
