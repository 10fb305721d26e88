import BlogModel
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where a build keeps what it knows of its output: beside the output folder, never in it
/// (`.public.build/` beside `public/`, the owner's alone), so that copying `public/` to a static
/// host publishes the site and nothing else. The parse cache lists drafts and scheduled posts
/// when a build included them, and the manifest every source path.
///
/// Two kinds of record:
/// - the build's own (`posts`, the parse cache; `inputs`), in the folder itself;
/// - a tree's (`manifest`, `redirects`), which must describe exactly the tree they stand for,
///   even across a swap or a build killed halfway: in `trees/<device>-<inode>/`, named after the
///   tree's folder. A swap moves folders, not inodes, so the records of the tree now served are
///   those of `public/`'s inode, with no second rename to keep in step. Records of trees that no
///   longer exist are removed after each swap.
public struct BuildRecords: Sendable {
    public let folder: URL

    /// The output folder's path for a tree's own records: `.lectern/redirects` in a plan stands
    /// for `trees/<key>/redirects` here.
    static let treePrefix = ".lectern/"

    public init(outputFolder: URL) {
        let output = outputFolder.standardizedFileURL
        folder = output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).build")
    }

    /// A record of the build (not of one tree).
    public func file(_ name: String) -> URL { folder.appendingPathComponent(name) }

    /// The folder of `tree`'s own records; nil when `tree` does not exist.
    public func treeFolder(of tree: URL) -> URL? {
        var info = stat()
        guard stat(tree.path, &info) == 0 else { return nil }
        return folder.appendingPathComponent("trees").appendingPathComponent("\(info.st_dev)-\(info.st_ino)")
    }

    /// A record of the tree in `tree` (`manifest`, `redirects`); nil when the tree does not exist.
    public func treeFile(_ name: String, of tree: URL) -> URL? { treeFolder(of: tree)?.appendingPathComponent(name) }

    /// The manifest of the tree in `tree`: its time is when that tree was built.
    public func manifest(of tree: URL) -> URL? { treeFile(BuildManifest.fileName, of: tree) }

    /// Makes the records folder (the owner's alone: it names drafts) and `tree`'s, which it returns.
    @discardableResult
    func makeFolders(for tree: URL? = nil) throws -> URL? {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: SiteScaffold.privateFolderMode])
        guard let tree else { return nil }
        guard let treeFolder = treeFolder(of: tree) else { throw SiteError.io(path: tree.path, message: "the folder is gone") }
        try FileManager.default.createDirectory(at: treeFolder, withIntermediateDirectories: true)
        return treeFolder
    }

    /// Removes the records of every tree but `kept` (a tree removed, or a folder replaced by hand,
    /// whose inode the file system may give to another folder later).
    func removeTrees(except kept: [URL]) {
        let keep = Set(kept.compactMap { treeFolder(of: $0)?.lastPathComponent })
        let trees = folder.appendingPathComponent("trees")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: trees.path)) ?? [] where !keep.contains(name) {
            try? FileManager.default.removeItem(at: trees.appendingPathComponent(name))
        }
    }
}
