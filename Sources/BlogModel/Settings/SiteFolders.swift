import Foundation

/// The folders a site reads its sources from and keeps its state in: they must be inside the
/// site folder. A symlink among them that leads out of it is refused, by every command: a build
/// would publish whatever it reaches (`static -> /etc`), and a restore, which runs as root,
/// would write the database and keys wherever `data` points.
///
/// A link that stays inside the site folder is fine, and so is one deeper down
/// (`content/posts` kept elsewhere): the site's owner made those, not an archive or an import.
public enum SiteFolders {
    public static let contained = ["content", "static", "data"]

    /// Throws `SiteError.io` naming the first of `contained` that is a symlink resolving outside `root`.
    public static func checkContained(root: URL) throws {
        guard let site = realPath(root.path) else { return }  // no site folder yet: nothing to check
        for name in contained {
            let path = root.appendingPathComponent(name).path
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { continue }
            // A dangling link is left to the code that reads the folder: it names the path too.
            guard let target = realPath(path) else { continue }
            if target != site && !target.hasPrefix(site.hasSuffix("/") ? site : site + "/") {
                throw SiteError.io(path: path, message: "is a symbolic link to \(target), outside the site folder; refused "
                                   + "(move the folder into the site, or link to a folder inside it)")
            }
        }
    }

    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
