import Foundation

/// Whether `public/` is one whole build: every file its manifest lists is there, every page is
/// complete (ends its `</html>`), and the pages named show the text they were last published with.
struct PublicFolderCheck {
    let root: URL

    struct Result {
        var files = 0
        var pages = 0
        var problems: [String] = []
    }

    func run(expecting texts: [String: String]) throws -> Result {
        let folder = root.appendingPathComponent("public")
        var result = Result()
        // The manifest of the tree now in `public/` is among the build's records beside it, named
        // after the folder's device and inode (`BuildRecords`; the soak does not link Site).
        var info = stat()
        guard stat(folder.path, &info) == 0 else { throw SoakError("no public/ folder") }
        let manifestURL = root.appendingPathComponent(".public.build/trees/\(info.st_dev)-\(info.st_ino)/manifest")
        let manifest = try String(contentsOf: manifestURL, encoding: .utf8)
        // Records of the tree (`.lectern/redirects`) are not files in it.
        let listed = manifest.split(separator: "\n").dropFirst().map { String($0.dropFirst(17)) }.filter { !$0.hasPrefix(".lectern/") }
        for path in listed {
            result.files += 1
            let url = folder.appendingPathComponent(path)
            guard let data = FileManager.default.contents(atPath: url.path) else {
                result.problems.append("listed in the manifest but missing: \(path)")
                continue
            }
            guard path.hasSuffix(".html") else { continue }
            result.pages += 1
            let text = String(decoding: data, as: UTF8.self)
            if !text.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("</html>") { result.problems.append("incomplete page: \(path)") }
            for (slug, expected) in texts where path.contains(slug) && path.hasSuffix("index.html") && !text.contains(expected) {
                result.problems.append("\(path) does not show its last version (\(expected))")
            }
        }
        for slug in texts.keys where !listed.contains(where: { $0.contains(slug) }) {
            result.problems.append("no page for \(slug)")
        }
        return result
    }
}
