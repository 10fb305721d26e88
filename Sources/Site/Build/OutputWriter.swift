import BlogModel
import Foundation
#if canImport(Glibc)
import Glibc
import Parallel
#endif

/// What one build did, for the CLI and for tests.
public struct BuildReport: Sendable, Equatable {
    /// Files rendered or copied afresh.
    public var written: Int
    /// Files reused from the previous build because nothing that goes into them changed.
    public var reused: Int
    /// Of `written`, how many were rendered from templates.
    public var pages: Int
    /// Files of the previous build that no longer exist.
    public var removed: Int
    public var seconds: Double
    /// Front matter keys ignored, as `file:line: …`.
    public var warnings: [String] = []
    /// Dates of the posts held back until then (future-dated), soonest first.
    public var scheduled: [Date] = []
    /// The posts built, newest first (what the search index is given).
    public var posts: [Post] = []

    public init(written: Int, reused: Int, pages: Int, removed: Int, seconds: Double, warnings: [String] = [],
                scheduled: [Date] = [], posts: [Post] = []) {
        (self.written, self.reused, self.pages, self.removed, self.seconds) = (written, reused, pages, removed, seconds)
        (self.warnings, self.scheduled, self.posts) = (warnings, scheduled, posts)
    }
}

/// Puts a build's files into `public/` so that a reader, and a build killed at any moment, sees the
/// old site or the new one whole, never a mix.
///
/// Every build makes a complete new tree beside `public/` and swaps it in with one
/// `renameat2(RENAME_EXCHANGE)`. The tree it fills is the one the last swap took out
/// (`.public.previous`, the spare), brought up to date: only files that differ from it are
/// unlinked and written anew (never in place: unchanged files are hard links shared with the live
/// tree), so a one-post rebuild stays a handful of writes. Without a trusted spare (the first
/// build, or one killed while filling it, which removed its manifest first), a fresh staging folder
/// is filled with hard links to the live tree's unchanged files. Any error leaves `public/` as it
/// was; a staging folder left by a killed build is removed by the next. (Small builds used to move
/// each changed file into place with its own `rename`: a `kill -9` halfway left `public/` half
/// old, half new.)
struct OutputWriter {
    let publicFolder: URL

    struct Result { var written = 0, reused = 0, pages = 0, removed = 0 }

    /// `previous` is what the last build left. `alongside` runs once the new tree is in place;
    /// the closure it is given throws if it could not be put there, so it commits nothing for
    /// pages not served.
    func write(_ files: [OutputFile], previous survey: PreviousOutput,
               alongside: (_ published: () throws -> Void) throws -> Void = { _ in }) throws -> Result {
        // Each path hashed once: building the manifest is also the check that paths are unique.
        var manifest = BuildManifest()
        manifest.files.reserveCapacity(files.count)
        for file in files where manifest.files.updateValue(file.fingerprint, forKey: file.path) != nil {
            throw SiteError.io(path: file.path, message: "two sources produce this output file (a file in static/ may clash with a page)")
        }
        let previous = survey.manifest
        let kept = files.reduce(0) { $0 + (previous.files[$1.path] == nil ? 0 : 1) }  // files the last build wrote too
        // The same paths as last time (all kept, none added): written in the order read, not sorted again.
        if kept == previous.files.count && manifest.files.count == kept { manifest.sortedPaths = previous.sortedPaths }
        StagingFolders.removeLeftovers(beside: publicFolder)
        let records = BuildRecords(outputFolder: publicFolder)
        let spare = StagingFolders.spare(for: publicFolder)
        // Only a spare of our own: one left by a build run as another user (root, say) could not
        // be brought up to date, and is replaced by a fresh tree instead.
        var owner = stat()
        let ownSpare = stat(spare.path, &owner) == 0 && owner.st_uid == geteuid()
        let base = ownSpare ? PreviousOutput.survey(spare, records: records) : PreviousOutput()
        let staging: URL
        if !base.manifest.files.isEmpty {
            // Untrusted from here until the swap: a build killed now leaves a spare with no
            // manifest, which the next build does not reuse.
            if let manifest = records.treeFile(BuildManifest.fileName, of: spare) { try FileManager.default.removeItem(at: manifest) }
            staging = spare
        } else {
            try? FileManager.default.removeItem(at: spare)
            staging = StagingFolders.new(for: publicFolder)
            // A fresh tree keeps the live one's mode (a private preview/ stays private).
            var live = stat()
            let mode = stat(publicFolder.path, &live) == 0 ? Int(live.st_mode & 0o7777) : nil
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true,
                                                    attributes: mode.map { [.posixPermissions: $0] })
            // Records a removed folder of the same inode left are not this tree's.
            if let stale = records.treeFolder(of: staging) { try? FileManager.default.removeItem(at: stale) }
        }
        var swappedIn = false
        defer {
            // Before the swap: a fresh folder goes (the spare, without its manifest, is simply not
            // reused). After it: what was live is the next build's spare.
            if staging != spare {
                if !swappedIn || rename(staging.path, spare.path) != 0 { try? FileManager.default.removeItem(at: staging) }
            }
        }
        let new = TreeFiles(tree: staging, records: try records.makeFolders(for: staging)!)
        // None before the first build: no manifest then, so nothing is linked from it.
        let live = records.treeFolder(of: publicFolder).map { TreeFiles(tree: publicFolder, records: $0) }
        if staging == spare {
            for (path, fingerprint) in base.manifest.files where manifest.files[path] != fingerprint {
                Self.unlinkFile(new.location(of: path))
                if manifest.files[path] == nil, !TreeFiles.isRecord(path) { Self.removeEmptyFolders(above: path, in: staging) }
            }
        }
        try FolderTree.make(Set(files.lazy.filter { !TreeFiles.isRecord($0.path) }.map { ($0.path as NSString).deletingLastPathComponent }),
                            in: staging)
        let outcomes = try ParallelMap.map(files) { file -> Outcome in
            if base.manifest.files[file.path] == file.fingerprint, !base.missing.contains(file.path) {
                // Already in the spare; new to readers unless the live tree has it too.
                return previous.files[file.path] == file.fingerprint ? .reused : .restored
            }
            let target = new.location(of: file.path)
            Self.unlinkFile(target)  // what stood there may be a link shared with the live tree
            if previous.files[file.path] == file.fingerprint, !survey.missing.contains(file.path),
               let old = live?.location(of: file.path), link(old, target) == 0 {
                _ = link(old + ".gz", target + ".gz")  // absent when the file was not worth compressing
                return .reused
            }
            return try render(file, to: target)
        }
        try manifest.save(tree: staging, records: records)
        // The old tree lands in `staging`, removed on return. The work alongside hears whether
        // the new tree is served before it commits (after one rename: nothing to overlap).
        let swapped = Swift.Result { try AtomicSwap.replace(live: publicFolder, with: staging) }
        swappedIn = (try? swapped.get()) != nil
        if swappedIn { records.removeTrees(except: [publicFolder, staging, spare]) }
        try alongside { _ = try swapped.get() }
        _ = try swapped.get()
        let reused = outcomes.filter { $0 == .reused }.count
        return Result(written: files.count - reused, reused: reused, pages: outcomes.filter { $0 == .rendered }.count,
                      removed: previous.files.count - kept)
    }

    /// Where a plan's path lives for one tree: a page in the tree, a record of the tree
    /// (`.lectern/…`) in its records folder.
    private struct TreeFiles {
        let tree: URL
        let records: URL

        static func isRecord(_ path: String) -> Bool { path.hasPrefix(BuildRecords.treePrefix) }

        func location(of path: String) -> String {
            guard Self.isRecord(path) else { return tree.appendingPathComponent(path).path }
            return records.appendingPathComponent(String(path.dropFirst(BuildRecords.treePrefix.count))).path
        }
    }

    // MARK: files

    /// Removes a file and its compressed copy, if there.
    private static func unlinkFile(_ target: String) {
        _ = unlink(target)
        _ = unlink(target + ".gz")
    }

    /// Removes the folders above a removed file that are now empty (a deleted post's).
    private static func removeEmptyFolders(above path: String, in folder: URL) {
        var parent = (path as NSString).deletingLastPathComponent
        while !parent.isEmpty, parent != "/", rmdir(folder.appendingPathComponent(parent).path) == 0 {
            parent = (parent as NSString).deletingLastPathComponent
        }
    }

    /// `restored`: the spare already held it, though the live tree does not (it counts as written).
    private enum Outcome { case reused, restored, rendered, copied }

    /// Writes `file` at `target` (and `target.gz` when compressing pays off).
    private func render(_ file: OutputFile, to target: String) throws -> Outcome {
        switch file.source {
        case .text(let render):
            try store(Array(try render().utf8), at: target, path: file.path)
            return .rendered
        case .bytes(let bytes):
            try store(bytes, at: target, path: file.path)
            return .copied
        case .copy(let source):
            guard let data = FileManager.default.contents(atPath: source.path) else {
                throw SiteError.io(path: source.path, message: "cannot read the file")
            }
            try store([UInt8](data), at: target, path: file.path)
            return .copied
        }
    }

    private func store(_ bytes: [UInt8], at target: String, path: String) throws {
        try Self.writeFile(bytes, to: target, name: path)
        if bytes.count >= 256, Gzip.isCompressible(path: path),
           let compressed = Gzip.compress(bytes), compressed.count < bytes.count {
            try Self.writeFile(compressed, to: target + ".gz", name: path + ".gz")
        }
    }

    static func writeFile(_ bytes: [UInt8], to path: String, name: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw SiteError.io(path: name, message: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw SiteError.io(path: name, message: String(cString: strerror(errno)))
            }
            offset += written
        }
    }
}
