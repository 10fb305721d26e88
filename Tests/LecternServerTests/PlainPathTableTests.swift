import Foundation
import Site
import Testing
@testable import WebServer

/// The fast path's one lookup (`ServedFiles.file(atPlainPath:)`) must answer exactly what the
/// full stack's resolving and redirect check answer, for every plain path, and nothing for the
/// others (which the full stack then reads).
@Suite struct PlainPathTableTests {
    @Test func theTableAgreesWithResolvingAndRedirects() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-plain-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try SiteScaffold.create(at: root)
        try "---\ntitle: Moved\ndate: 2025-02-01\naliases: [/old/one/, /old/two.html, /about-us]\n---\nBody.\n"
            .write(to: root.appendingPathComponent("content/posts/2025-02-01-moved.md"), atomically: true, encoding: .utf8)
        try SiteBuilder(root: root).build()
        let publicFolder = root.appendingPathComponent("public")
        // Aliases over files of the site (a build does not write these; an older tree may have them):
        // the alias wins, as `SiteResponder` answers it.
        let records = try #require(BuildRecords(outputFolder: publicFolder).treeFile("redirects", of: publicFolder))
        let written = (try? String(contentsOf: records, encoding: .utf8)) ?? ""
        // One written percent-encoded (`/%66eed.json` is `/feed.json`), and one on the other
        // spelling of a folder (`/2025/welcome-to-lectern`), which the folder's own spelling beats.
        try (written + "\n/feed.xml /2025/moved/\n/2025/welcome-to-lectern/index.html /\n/%66eed.json /2025/moved/\n"
             + "/2025/welcome-to-lectern /2025/moved/\n").write(to: records, atomically: true, encoding: .utf8)
        let site = try ServedFiles(publicFolder: publicFolder)
        let index = site.index
        let redirects = Redirects.load(publicFolder: publicFolder)
        #expect(redirects["/feed.xml"] != nil && redirects["/old/one/"] != nil)

        var candidates: Set<String> = ["/", "/index.html", "/nope/", "/2025/welcome-to-lectern", "/a%20b/", "/%2e%2e/lectern.yml",
                                       "/2025/./welcome-to-lectern/", "/2025\\welcome-to-lectern/", "/feed.xml.gz"]
        for key in index.files.keys {
            candidates.insert("/" + key)
            if key.hasSuffix("index.html") {
                let folder = "/" + key.dropLast("index.html".count)
                candidates.insert(folder)
                candidates.insert(String(folder.dropLast()))
            }
        }
        for key in redirects.keys {
            candidates.insert(key)
            candidates.insert(key.hasSuffix("/") ? String(key.dropLast()) : key + "/")
        }
        var answered = 0
        for path in candidates {
            let table = site.file(atPlainPath: path)
            guard RequestPath.isPlain(path) else {
                #expect(table == nil, "\(path): not plain, left to the full stack")
                continue
            }
            var expected: StaticFile?
            if site.redirect(path) == nil, case .file(let key) = RequestPath.resolve(path, exists: { index[$0] != nil }) {
                expected = index[key]
            }
            #expect(table === expected, "\(path)")
            if table != nil { answered += 1 }
        }
        #expect(answered > 20)
        #expect(site.file(atPlainPath: "/feed.xml") == nil, "an alias over a file redirects")
        #expect(site.file(atPlainPath: "/2025/welcome-to-lectern/index.html") == nil)
        #expect(site.file(atPlainPath: "/2025/welcome-to-lectern/") != nil, "its other spellings are the file")
        #expect(index["feed.json"] != nil && site.file(atPlainPath: "/feed.json") == nil, "an alias written percent-encoded")
    }
}
