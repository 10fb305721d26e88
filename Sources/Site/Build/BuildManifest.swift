import Foundation

/// What the last build wrote: output path → fingerprint of everything that went into it.
/// Stored inside the output (`public/.lectern/manifest.json`), so it always describes the tree
/// it sits in; the server never serves dot-folders.
struct BuildManifest: Codable, Equatable {
    static let folder = ".lectern"
    static let fileName = "manifest.json"
    static let formatVersion = 1

    var version = BuildManifest.formatVersion
    var files: [String: String] = [:]

    static func load(from publicFolder: URL) -> BuildManifest {
        let url = publicFolder.appendingPathComponent(folder).appendingPathComponent(fileName)
        guard let data = try? Data(contentsOf: url),
              let manifest = try? JSONDecoder().decode(BuildManifest.self, from: data),
              manifest.version == formatVersion else { return BuildManifest() }
        return manifest
    }

    func save(in publicFolder: URL) throws {
        let folderURL = publicFolder.appendingPathComponent(Self.folder)
        try FileManager.default.createDirectory(at: folderURL, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(self).write(to: folderURL.appendingPathComponent(Self.fileName))
    }
}
