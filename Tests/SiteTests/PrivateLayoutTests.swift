import Foundation
import Testing
@testable import Site

/// The web server's group serves `public/` and reads nothing else: what `lectern init` makes is
/// the owner's alone whatever the umask, and a build keeps the output folder's mode (docs/deploy.md).
@Suite(.serialized) struct PrivateLayoutTests {
    func mode(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int) ?? -1
    }

    @Test func whatIsNotPublishedIsTheOwnersAlone() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-layout-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        // Under the test's own umask (022 in a shell and in CI): before, content/ came out 0755.
        try SiteScaffold.create(at: root)
        #expect(try mode(root.appendingPathComponent("content")) == 0o700)
        #expect(try mode(root.appendingPathComponent("theme")) == 0o700)
        #expect(try mode(root.appendingPathComponent("lectern.yml")) == 0o600)
        try SiteBuilder.makePreviewFolder(root: root)
        #expect(try mode(SiteBuilder.previewFolder(root: root)) == 0o700)
    }

    /// A fresh tree takes the live folder's mode; the spare it becomes keeps it: a private
    /// `preview/` stays private build after build.
    @Test func buildsKeepTheOutputFoldersMode() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-layout-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try SiteScaffold.create(at: root)
        let output = root.appendingPathComponent("public")
        _ = try SiteBuilder(root: root).build()
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: output.path)
        for round in 1...3 {
            let post = root.appendingPathComponent("content/posts/2025-05-0\(round)-round.md")
            try "---\ntitle: Round \(round)\ndate: 2025-05-0\(round)\n---\nText \(round).\n".write(to: post, atomically: true, encoding: .utf8)
            _ = try SiteBuilder(root: root).build()
            #expect(try mode(output) == 0o700, "after build \(round)")
        }
    }
}
