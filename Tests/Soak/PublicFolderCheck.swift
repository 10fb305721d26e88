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
        let manifest = try String(contentsOf: folder.appendingPathComponent(".lectern/manifest"), encoding: .utf8)
        let listed = manifest.split(separator: "\n").dropFirst().map { String($0.dropFirst(17)) }
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
