import BlogModel
import Foundation
import Testing
@testable import Site

/// `lectern new` takes any title the build takes (issue 37: `lectern new "🚀"` was refused).
@Suite struct NewPostTests {
    @Test func aTitleWithoutLettersStillMakesAPost() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-new-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try SiteScaffold.create(at: root)
        let utc = TimeZone(identifier: "UTC")!
        _ = try SiteScaffold.newPost(in: root, title: "🚀", timeZone: utc)
        let content = try ContentLoader(root: root, timeZone: utc).load(includeDrafts: true)
        let post = try #require(content.posts.first { $0.title == "🚀" })
        #expect(post.path.contains("/post-"), "\(post.path)")
        #expect(throws: SiteError.self) { _ = try SiteScaffold.newPost(in: root, title: "  ", timeZone: utc) }
    }
}
