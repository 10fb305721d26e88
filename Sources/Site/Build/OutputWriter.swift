import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What one build did, for the CLI and for tests.
public struct BuildReport: Sendable, Equatable {
    /// Files rendered or copied afresh.
    public var written: Int
    /// Files reused from the previous build because nothing that goes into them changed.
    public var reused: Int
    /// Of `written`, how many were rendered from templates.
    public var pages: Int
    public var seconds: Double
}

/// Writes a build into a staging folder beside `public/` and swaps it in atomically.
///
/// Unchanged files (same fingerprint as in the previous manifest) are hard-linked from the
/// live tree instead of rendered, which is what makes a one-post rebuild fast. Any error
/// removes the staging folder and leaves the live site exactly as it was.
struct OutputWriter {
    let publicFolder: URL

    func write(_ files: [OutputFile]) throws -> (written: Int, reused: Int, pages: Int) {
        try checkUnique(files)
        let previous = BuildManifest.load(from: publicFolder)
        let staging = publicFolder.deletingLastPathComponent()
            .appendingPathComponent(".\(publicFolder.lastPathComponent).staging-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let fileManager = FileManager.default
        do {
            try fileManager.createDirectory(at: staging, withIntermediateDirectories: true)
            let folders = Set(files.map { ($0.path as NSString).deletingLastPathComponent }).sorted()
            for folder in folders where !folder.isEmpty {
                try fileManager.createDirectory(at: staging.appendingPathComponent(folder),
                                                withIntermediateDirectories: true)
            }
            let outcomes = try ParallelMap.map(files) { file in
                try place(file, in: staging, previous: previous)
            }
            var manifest = BuildManifest()
            for file in files { manifest.files[file.path] = file.fingerprint.hex }
            try manifest.save(in: staging)
            if try AtomicSwap.replace(live: publicFolder, with: staging) {
                try? fileManager.removeItem(at: staging)  // now holds the old tree
            }
            let reused = outcomes.filter { $0 == .reused }.count
            return (files.count - reused, reused, outcomes.filter { $0 == .rendered }.count)
        } catch {
            try? fileManager.removeItem(at: staging)
            throw error
        }
    }

    private enum Outcome { case reused, rendered, copied }

    private func place(_ file: OutputFile, in staging: URL, previous: BuildManifest) throws -> Outcome {
        let target = staging.appendingPathComponent(file.path).path
        let old = publicFolder.appendingPathComponent(file.path).path
        if previous.files[file.path] == file.fingerprint.hex, link(old, target) == 0 {
            _ = link(old + ".gz", target + ".gz")  // absent when the file was not worth compressing
            return .reused
        }
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

    private func checkUnique(_ files: [OutputFile]) throws {
        var seen = Set<String>()
        for file in files where !seen.insert(file.path).inserted {
            throw SiteError.io(path: file.path, message: "two sources produce this output file (a file in static/ may clash with a page)")
        }
    }
}
