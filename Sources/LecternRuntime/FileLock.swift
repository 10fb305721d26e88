import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An advisory lock on a file (`flock(2)`), held until `unlock` or until the process ends —
/// `kill -9` included, which is why it, and not a PID file, tells whether a server runs.
///
/// ```swift
/// let lock = try FileLock(path: "data/server.lock")
/// guard try lock.lock(exclusive: true, wait: false) else { /* someone else holds it */ }
/// ```
public final class FileLock: @unchecked Sendable {
    public let path: String
    private let descriptor: Int32

    public enum LockError: Error, CustomStringConvertible {
        case cannotOpen(String, String)
        public var description: String {
            switch self { case let .cannotOpen(path, why): return "cannot open the lock file \(path): \(why)" }
        }
    }

    public init(path: String) throws {
        self.path = path
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                 withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw LockError.cannotOpen(path, String(cString: strerror(errno))) }
    }

    deinit { close(descriptor) }

    /// Takes the lock; with `wait: false`, returns false at once when another process holds it.
    @discardableResult
    public func lock(exclusive: Bool, wait: Bool) throws -> Bool {
        let operation = (exclusive ? LOCK_EX : LOCK_SH) | (wait ? 0 : LOCK_NB)
        while flock(descriptor, operation) != 0 {
            if errno == EINTR { continue }
            if errno == EWOULDBLOCK { return false }
            throw LockError.cannotOpen(path, String(cString: strerror(errno)))
        }
        return true
    }

    public func unlock() { flock(descriptor, LOCK_UN) }

    /// Replaces the file's text (the server writes its pid and address there).
    public func write(_ text: String) {
        ftruncate(descriptor, 0)
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    public func read() -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }
}
