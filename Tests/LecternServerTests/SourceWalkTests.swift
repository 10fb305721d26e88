import Foundation
@testable import LecternRuntime
@testable import Site
import Testing

/// `lectern build` stamps the sources on a thread of its own while it opens the blog; the build
/// then uses that walk instead of walking again, and only a walk of its own folder.
@Suite struct SourceWalkTests {
    @Test func aBuildUsesTheWalkStartedBeforeTheBlogWasOpened() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-walk-\(UUID().uuidString)")
        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-walk-\(UUID().uuidString)")
        defer { for folder in [root, elsewhere] { try? FileManager.default.removeItem(at: folder) } }
        for folder in [root, elsewhere] { #expect(try run([lecternBinary, "init", folder.path]).0 == 0) }
        func write(_ title: String) throws {
            try "---\ntitle: \(title)\ndate: 2025-06-01\n---\nWords.\n"
                .write(to: root.appendingPathComponent("content/posts/\(title.lowercased()).md"), atomically: true, encoding: .utf8)
        }

        let walk = SourceWalk(root: root)
        _ = walk.walked.value  // finished before the post below exists
        try write("Fresh")
        let blog = try Blog.open(root: root)
        let titles = { (report: BuildReport) in Set(report.posts.map(\.title)) }
        #expect(!titles(try blog.build(sources: walk)).contains("Fresh"), "built from the walk made before the post")
        #expect(titles(try blog.build()).contains("Fresh"))

        let other = SourceWalk(root: elsewhere)
        _ = other.walked.value
        try write("Fresher")
        #expect(titles(try blog.build(sources: other)).contains("Fresher"), "another folder's walk is not used")

        // Another build ends after the walk began (it held the build lock meanwhile): the walk
        // may be older than what that build read, and is not used to undo it.
        let overtaken = SourceWalk(root: root)
        _ = overtaken.walked.value
        try write("Freshest")
        try blog.build()
        try blog.build(sources: overtaken)
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("public/2025/freshest/index.html").path))
    }

    /// A walk that finds sources other than the last build's starts reading the parse cache (the
    /// build that must follow uses it); one that finds the same sources reads nothing.
    @Test func aWalkReadsTheParseCacheOnlyWhenTheSourcesChanged() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-walk-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try run([lecternBinary, "init", root.path]).0 == 0)
        let blog = try Blog.open(root: root)
        try blog.build()

        let unchanged = SourceWalk(root: root)
        #expect((try unchanged.walk(for: blog))?.cacheRead == nil, "nothing to build: nothing read")
        #expect(try blog.build(sources: unchanged).written == 0)

        try "---\ntitle: Edited\ndate: 2025-06-01\n---\nWords.\n"
            .write(to: root.appendingPathComponent("content/posts/edited.md"), atomically: true, encoding: .utf8)
        let changed = SourceWalk(root: root)
        let read = try #require((try changed.walk(for: blog))?.cacheRead)
        #expect(!read.cache.value.posts.isEmpty, "the last build's posts, read before the blog asked")
        #expect(read.cache.value.timeZone == blog.config.timeZone.identifier)
        #expect(try blog.build(sources: changed).posts.contains { $0.title == "Edited" })
        // The next walk compares with the build just made.
        #expect((try SourceWalk(root: root).walk(for: blog))?.cacheRead == nil)

        // A record written before the sources' stamp was kept says nothing: no read (a no-op
        // build never rewrites it); no record at all means a build follows.
        let record = BuildRecords(outputFolder: root.appendingPathComponent("public")).file("inputs")
        let fields = try String(contentsOf: record, encoding: .utf8).split(separator: " ")
        #expect(fields.count == 5)
        try fields.prefix(4).joined(separator: " ").write(to: record, atomically: true, encoding: .utf8)
        #expect((try SourceWalk(root: root).walk(for: blog))?.cacheRead == nil)
        #expect(try blog.build().written == 0, "still a no-op build")
        try FileManager.default.removeItem(at: record)
        #expect((try SourceWalk(root: root).walk(for: blog))?.cacheRead != nil)
    }
}
