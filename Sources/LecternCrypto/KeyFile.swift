import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A private key stored as PEM in a file only its owner can read (mode 0600, folder 0700).
public enum KeyFile {
    /// Loads the key at `url`, creating it first if there is none. A key file readable by others
    /// is refused: it may already have leaked, and the operator should know.
    public static func loadOrCreate(at url: URL, type: KeyType) throws -> PrivateKey {
        try createIfMissing(at: url, type: type) ?? load(at: url)
    }

    /// Generates and writes a key at `url` if there is none, returning it; nil when a file is
    /// already there (it is not read).
    @discardableResult
    public static func createIfMissing(at url: URL, type: KeyType) throws -> PrivateKey? {
        if FileManager.default.fileExists(atPath: url.path) { return nil }
        let key = try PrivateKey.generate(type)
        try write(key, to: url)
        return key
    }

    public static func load(at url: URL) throws -> PrivateKey {
        var status = stat()
        guard stat(url.path, &status) == 0 else { throw CryptoError("read \(url.path)", reason: String(cString: strerror(errno))) }
        guard status.st_mode & 0o077 == 0 else {
            throw CryptoError("read \(url.path)", reason: "the key file is readable by others; run chmod 600 on it")
        }
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            throw CryptoError("read \(url.path)", reason: "cannot read the file")
        }
        do {
            return try PrivateKey(pem: text)
        } catch let error as CryptoError {
            throw CryptoError("read \(url.path)", reason: error.description)
        }
    }

    /// Writes to a temporary file created with mode 0600, then renames it into place, so the
    /// key is never visible with wider permissions, nor half-written.
    public static func write(_ key: PrivateKey, to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CryptoError("write \(url.path)", reason: String(cString: strerror(errno))) }
        let bytes = Array(try key.pemPKCS8().utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == bytes.count, synced == 0, rename(temporary.path, url.path) == 0 else {
            unlink(temporary.path)
            throw CryptoError("write \(url.path)", reason: String(cString: strerror(errno)))
        }
    }
}
