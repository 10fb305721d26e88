import Foundation

/// The source folder `lectern import` reads: someone else's site, maybe a tarball unpacked as is.
/// A symlink in it that leads out of it (a post linked to `/etc/passwd`, `static/images -> /home`)
/// is never followed: the file is skipped and the report says so.
struct SourceBoundary {
    /// The folder's real path (symlinks resolved), with a trailing `/`.
    private let inside: String

    init(_ root: URL) {
        let real = Self.realPath(root.path) ?? root.standardizedFileURL.path
        inside = real.hasSuffix("/") ? real : real + "/"
    }

    /// Why `url` is not read, or nil when its real path is inside the folder (or it does not
    /// exist: the reader says so itself).
    func refusal(_ url: URL) -> String? {
        guard let real = Self.realPath(url.path), !real.hasPrefix(inside) else { return nil }
        return "a symbolic link out of the source folder (to \(real)): not read"
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
