import Foundation
import Testing
@testable import Site

/// `public/` holds what is published and nothing else: copying it to a static host (the first
/// thing a static-site user does) must not publish a draft's or a scheduled post's title, nor a
/// source path. The build's records live beside it (`BuildRecords`).
@Suite struct PublishedOnlyTests {
    private let secrets = ["Secret Draft Title", "Scheduled Surprise", "secret-draft.md", "scheduled.md", "content/posts"]

    /// Every file under `folder`, dot-files and folders included, by path.
    private func everyFile(in folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [])
        while let url = walker?.nextObject() as? URL {
            guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
            files[String(url.path.dropFirst(folder.path.count + 1))] = try Data(contentsOf: url)
        }
        return files
    }

    @Test func publicHoldsNoUnpublishedTitleAfterAnyBuild() throws {
        let site = try TestSite()
        defer { site.remove() }
        try site.post("hello", title: "Public Words", date: "2025-01-01", extra: "aliases: [/old-hello/]\n")
        try site.post("secret-draft", title: "Secret Draft Title", date: "2025-01-02", extra: "draft: true\n")
        try site.post("scheduled", title: "Scheduled Surprise", date: "2099-01-01")
        let publicFolder = site.root.appendingPathComponent("public")
        let builder = SiteBuilder(root: site.root)
        for round in 1...3 {
            try site.post("hello", title: "Public Words", date: "2025-01-01", extra: "aliases: [/old-hello/]\n", body: "Round \(round).")
            try builder.build()
            // A preview beside it, as `lectern build --drafts --future` makes.
            if round == 1 {
                try builder.build(.init(includeDrafts: true, includeFuture: true, outputFolder: SiteBuilder.previewFolder(root: site.root)))
            }
            let files = try everyFile(in: publicFolder)
            #expect(files.keys.contains("2025/public-words/index.html"))
            #expect(!files.keys.contains { $0.hasPrefix(".") || $0.contains("/.") }, "\(files.keys.sorted())")
            for (path, data) in files where !path.hasSuffix(".gz") {
                let text = String(decoding: data, as: UTF8.self)
                for secret in secrets { #expect(!text.contains(secret), "round \(round): \(path) holds \(secret)") }
            }
            // The preview shows them; its records are beside it too.
            #expect(try String(contentsOf: site.root.appendingPathComponent("preview/2025/secret-draft-title/index.html"), encoding: .utf8)
                .contains("Secret Draft Title"))
            #expect(!FileManager.default.fileExists(atPath: site.root.appendingPathComponent("preview/.lectern").path))
            // The records still do their work: the server's redirects and the next build's cache.
            #expect(Redirects.load(publicFolder: publicFolder)["/old-hello/"] == "/2025/public-words/")
            #expect(try String(contentsOf: site.record(PostCache.fileName), encoding: .utf8).contains("Secret Draft Title"))
        }
        let records = BuildRecords(outputFolder: publicFolder)
        #expect(records.folder.path == site.root.appendingPathComponent(".public.build").path)
        let mode = try FileManager.default.attributesOfItem(atPath: records.folder.path)[.posixPermissions] as? Int
        #expect(mode == 0o700)
        // The live tree and the spare have records; the trees swapped out long ago none.
        let trees = try FileManager.default.contentsOfDirectory(atPath: records.folder.appendingPathComponent("trees").path)
        #expect(trees.count == 2, "\(trees)")
        #expect(try builder.build().pages == 0)
    }
}
