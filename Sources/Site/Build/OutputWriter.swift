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

/// Puts a build's files into `public/` so that a failed build never changes the live site.
///
/// Everything is rendered into a staging folder beside `public/` first; any error removes it and
/// leaves `public/` exactly as it was. Then:
/// - a first or large build (more than half the files changed) becomes the new `public/` in one
///   atomic `renameat2(RENAME_EXCHANGE)`, unchanged files hard-linked from the old tree;
/// - a small change moves each new file into place with `rename` (atomic per file) and deletes
///   removed ones. Rebuilding the whole tree would cost a directory per page (~0.4 s of kernel
///   time for 1,000 posts) for what is usually a one-post edit. The manifest is written last, so
///   a crash halfway is repaired by the next build, which sees those files as still changed.
struct OutputWriter {
    let publicFolder: URL

    struct Result { var written = 0, reused = 0, pages = 0, removed = 0 }

    /// `previous` is what the last build left. `alongside` runs once every file has rendered, on
    /// a thread of its own while they move into place; the closure it is given waits until they
    /// are in place and throws if they could not be, so it commits nothing for pages not served.
    func write(_ files: [OutputFile], previous survey: PreviousOutput,
               alongside: (_ published: () throws -> Void) throws -> Void = { _ in }) throws -> Result {
        // Each path hashed once: building the manifest is also the check that paths are unique.
        var manifest = BuildManifest()
        manifest.files.reserveCapacity(files.count)
        for file in files where manifest.files.updateValue(file.fingerprint, forKey: file.path) != nil {
            throw SiteError.io(path: file.path, message: "two sources produce this output file (a file in static/ may clash with a page)")
        }
        let previous = survey.manifest
        var kept = 0, differing = 0  // files the last build wrote too; files whose fingerprint changed
        let changed = files.filter { file in
            let old = previous.files[file.path]
            if old != nil { kept += 1 }
            if old != file.fingerprint { differing += 1; return true }
            return !survey.missing.isEmpty && survey.missing.contains(file.path)
        }
        // When every file the last build wrote is still wanted, nothing goes: no set of 1,500 paths to hash.
        let removed = kept == previous.files.count ? [] : previous.files.keys.filter { manifest.files[$0] == nil }.sorted()
        // The same paths as last time (all kept, none added): written in the order read.
        if removed.isEmpty && manifest.files.count == kept { manifest.sortedPaths = previous.sortedPaths }
        let staging = publicFolder.deletingLastPathComponent()
            .appendingPathComponent(".\(publicFolder.lastPathComponent).staging-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: staging) }
        if previous.files.isEmpty || changed.count * 2 > files.count {
            return try replaceTree(files, previous: previous, manifest: manifest, staging: staging, alongside: alongside)
        }
        // Small change: stage only the changed files (flat names), then move them into place.
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        let outcomes = try ParallelMap.map(Array(changed.enumerated())) { number, file in
            try render(file, to: staging.appendingPathComponent("\(number)").path)
        }
        let newManifest = differing == 0 && removed.isEmpty ? nil : manifest  // else it is the same
        // Whether the files are in place, for the work alongside to wait on before it commits.
        let landed = Eventual<Swift.Result<Void, any Error>>()
        _ = try ParallelMap.both({
            let moved = Swift.Result { try move(changed, from: staging, removing: removed, manifest: newManifest) }
            landed.provide(moved)
            try moved.get()
        }, { try alongside { try landed.value.get() } })
        return Result(written: changed.count, reused: files.count - changed.count,
                      pages: outcomes.filter { $0 == .rendered }.count, removed: removed.count)
    }

    /// Moves the staged files into place, deletes `removed`, and writes the manifest last.
    private func move(_ changed: [OutputFile], from staging: URL, removing removed: [String], manifest: BuildManifest?) throws {
        for (number, file) in changed.enumerated() {
            let target = publicFolder.appendingPathComponent(file.path)
            do {
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            } catch {
                throw SiteError.io(path: file.path, message: "cannot make its folder: \(error.localizedDescription)")
            }
            let staged = staging.appendingPathComponent("\(number)").path
            try Self.rename(staged + ".gz", to: target.path + ".gz", missingOK: true)
            try Self.rename(staged, to: target.path, missingOK: false)
        }
        for path in removed {
            let target = publicFolder.appendingPathComponent(path)
            unlink(target.path)
            unlink(target.path + ".gz")
            removeEmptyFolders(from: target.deletingLastPathComponent())
        }
        try manifest?.save(in: publicFolder)
    }

    // MARK: whole tree

    private func replaceTree(_ files: [OutputFile], previous: BuildManifest, manifest: BuildManifest,
                             staging: URL, alongside: (_ published: () throws -> Void) throws -> Void) throws -> Result {
        let fileManager = FileManager.default
        try fileManager.createDirectory(at: staging, withIntermediateDirectories: true)
        try FolderTree.make(Set(files.map { ($0.path as NSString).deletingLastPathComponent }), in: staging)
        let outcomes = try ParallelMap.map(files) { file -> Outcome in
            let target = staging.appendingPathComponent(file.path).path
            let old = publicFolder.appendingPathComponent(file.path).path
            if previous.files[file.path] == file.fingerprint, link(old, target) == 0 {
                _ = link(old + ".gz", target + ".gz")  // absent when the file was not worth compressing
                return .reused
            }
            return try render(file, to: target)
        }
        try manifest.save(in: staging)
        try AtomicSwap.replace(live: publicFolder, with: staging)  // the old tree lands in `staging`, removed on exit
        try alongside {}  // after one rename: nothing to overlap
        let reused = outcomes.filter { $0 == .reused }.count
        return Result(written: files.count - reused, reused: reused, pages: outcomes.filter { $0 == .rendered }.count,
                      removed: Set(previous.files.keys).subtracting(manifest.files.keys).count)
    }

    // MARK: files

    private enum Outcome { case reused, rendered, copied }

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

    /// `rename(2)`; a missing staged `.gz` means the new file has none, so any old one goes.
    private static func rename(_ source: String, to target: String, missingOK: Bool) throws {
        if Glibc.rename(source, target) == 0 { return }
        if errno == ENOENT && missingOK {
            unlink(target)
            return
        }
        throw SiteError.io(path: target, message: String(cString: strerror(errno)))
    }

    private func removeEmptyFolders(from folder: URL) {
        var folder = folder.standardizedFileURL
        let root = publicFolder.standardizedFileURL.path
        while folder.path.count > root.count, rmdir(folder.path) == 0 {
            folder = folder.deletingLastPathComponent().standardizedFileURL
        }
    }
}

