import BlogModel
import Foundation

/// What the last build wrote: output path → fingerprint of everything that went into it.
/// Stored among the tree's own records (`BuildRecords`), so it always describes the tree it is
/// named after.
///
/// The format is one `fingerprint path` line per file after a version line: a thousand-post
/// site has ~1,500 entries, and JSON coding them cost more than the rest of a no-op build.
struct BuildManifest: Equatable {
    static let fileName = "manifest"
    static let header = "lectern-manifest 1"

    var files: [String: ContentHash] = [:]
    /// The paths as the file listed them, when it listed them sorted: a build that writes the
    /// same set of paths back (a post edited) need not sort 1,500 of them again (1.2 ms).
    var sortedPaths: [String]?

    static func == (a: BuildManifest, b: BuildManifest) -> Bool { a.files == b.files }

    /// The manifest of the tree in `tree`, whose records are in `records`.
    static func load(tree: URL, records: BuildRecords) -> BuildManifest {
        guard let url = records.treeFile(fileName, of: tree),
              let data = FileManager.default.contents(atPath: url.path) else { return BuildManifest() }
        // By byte: splitting the text by `Character` (grapheme clusters) was 4 ms of a one-post rebuild.
        return data.withUnsafeBytes { raw in
            var lines = ByteFields(raw.bindMemory(to: UInt8.self), separator: 0x0A)
            guard let first = lines.next(), first.elementsEqual(header.utf8) else { return BuildManifest() }
            var manifest = BuildManifest()
            manifest.files.reserveCapacity(data.count / 40)
            var paths: [String] = [], sorted = true
            paths.reserveCapacity(data.count / 40)
            while let line = lines.next() {
                if line.isEmpty { continue }
                // damaged: rebuild all
                guard line.count > 17, line[16] == 0x20, let hash = ContentHash(hex: UnsafeBufferPointer(rebasing: line[..<16])) else {
                    return BuildManifest()
                }
                let path = String(decoding: UnsafeBufferPointer(rebasing: line[17...]), as: UTF8.self)
                if sorted, let last = paths.last, !(last < path) { sorted = false }
                paths.append(path)
                manifest.files[path] = hash
            }
            manifest.sortedPaths = sorted && paths.count == manifest.files.count ? paths : nil
            return manifest
        }
    }

    func save(tree: URL, records: BuildRecords) throws {
        let folderURL = try records.makeFolders(for: tree)!
        var bytes = Array((Self.header + "\n").utf8)
        bytes.reserveCapacity(files.count * 48)
        func append(_ path: String, _ fingerprint: ContentHash) {
            fingerprint.appendHex(to: &bytes)
            bytes.append(0x20)
            bytes.append(contentsOf: path.utf8)
            bytes.append(0x0A)
        }
        // The order read, when it still holds exactly these paths: one lookup per path.
        let header = bytes.count
        var inOrder = sortedPaths?.count == files.count
        for path in sortedPaths ?? [] where inOrder {
            guard let fingerprint = files[path] else { inOrder = false; break }
            append(path, fingerprint)
        }
        if !inOrder {
            bytes.removeSubrange(header...)
            for (path, fingerprint) in files.sorted(by: { $0.key < $1.key }) { append(path, fingerprint) }
        }
        try BuildRecordFile.replace(folderURL.appendingPathComponent(Self.fileName), with: bytes)
    }
}
