import BlogModel
import Foundation
import Testing
@testable import Site

/// A build names every broken file at once, each with its line (issue 37: a second broken file
/// was named only by the next build).
@Suite struct AllErrorsTests {
    @Test func everyBrokenFileIsNamedInOneBuild() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-errors-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try SiteScaffold.create(at: root)
        let posts = root.appendingPathComponent("content/posts")
        try "---\ntitle: One\ndate: not a date\n---\nText.\n".write(to: posts.appendingPathComponent("one.md"), atomically: true, encoding: .utf8)
        try "---\ntitle: Two\ndate: 2025-01-01\ntags: [a\n---\nText.\n".write(to: posts.appendingPathComponent("two.md"), atomically: true, encoding: .utf8)
        do {
            _ = try SiteBuilder(root: root).build()
            Issue.record("the build should have failed")
        } catch let error as SiteError {
            let text = error.description
            #expect(text.contains("2 files cannot be built"), "\(text)")
            #expect(text.contains("content/posts/one.md:3"), "\(text)")
            #expect(text.contains("content/posts/two.md:"), "\(text)")
        }
    }
}
