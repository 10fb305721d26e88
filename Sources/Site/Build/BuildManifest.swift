import Foundation

/// What the last build wrote: output path → fingerprint of everything that went into it.
/// Stored inside the output (`public/.lectern/manifest`), so it always describes the tree it
/// sits in; the server never serves dot-folders.
///
/// The format is one `fingerprint path` line per file after a version line: a thousand-post
/// site has ~1,500 entries, and JSON coding them cost more than the rest of a no-op build.
struct BuildManifest: Equatable {
    static let folder = ".lectern"
    static let fileName = "manifest"
    static let header = "lectern-manifest 1"

    var files: [String: String] = [:]

    static func load(from publicFolder: URL) -> BuildManifest {
        let url = publicFolder.appendingPathComponent(folder).appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: url.path) else { return BuildManifest() }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        guard lines.first == Substring(header) else { return BuildManifest() }
        var manifest = BuildManifest()
        manifest.files.reserveCapacity(lines.count)
        for line in lines.dropFirst() {
            guard let space = line.firstIndex(of: " ") else { return BuildManifest() }  // damaged: rebuild all
            manifest.files[String(line[line.index(after: space)...])] = String(line[..<space])
        }
        return manifest
    }

    func save(in publicFolder: URL) throws {
        let folderURL = publicFolder.appendingPathComponent(Self.folder)
        try FileManager.default.createDirectory(at: folderURL, withIntermediateDirectories: true)
        var text = Self.header + "\n"
        for (path, fingerprint) in files.sorted(by: { $0.key < $1.key }) { text += "\(fingerprint) \(path)\n" }
        try Data(text.utf8).write(to: folderURL.appendingPathComponent(Self.fileName), options: .atomic)
    }
}
