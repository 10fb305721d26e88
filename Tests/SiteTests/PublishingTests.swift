import Foundation
import Synchronization
import Testing
@testable import Site

/// How a build's files reach `public/`: pages deleted by hand come back, the work that runs
/// alongside the publishing (the search index) sees only builds whose pages all rendered, and a
/// parse cache read ahead is used only when it fits the build.
@Suite struct PublishingTests {
    @Test func pagesDeletedByHandComeBackWithoutStrayFiles() throws {
        let site = try TestSite()
        defer { site.remove() }
        for day in 1...9 { try site.post("p\(day)", title: "Post \(day)", date: "2025-01-0\(day)") }
        try site.build()
        let page = try site.read("2025/post-3/index.html")
        let public_ = site.root.appendingPathComponent("public")

        // One page and its twin gone, one post edited: the small-change path puts both right.
        try FileManager.default.removeItem(at: public_.appendingPathComponent("2025/post-3/index.html"))
        try? FileManager.default.removeItem(at: public_.appendingPathComponent("2025/post-3/index.html.gz"))
        try site.post("p9", title: "Post 9", date: "2025-01-09", body: "Edited.")
        let small = try site.build()
        #expect(try site.read("2025/post-3/index.html") == page)
        #expect(try site.read("2025/post-9/index.html").contains("Edited."))
        #expect(small.written < small.reused, "a small change, not a new tree")

        // Most pages gone: the build makes a whole new tree.
        let pages = FileManager.default.enumerator(atPath: public_.path)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".html") }
        for page in pages { try FileManager.default.removeItem(at: public_.appendingPathComponent(page)) }
        #expect(pages.count * 2 > small.written + small.reused)
        try site.post("p9", title: "Post 9", date: "2025-01-09", body: "Edited again.")
        try site.build()
        for page in pages { #expect(site.exists(page)) }
        #expect(try site.read("2025/post-9/index.html").contains("Edited again."))
        // No staged file (named by number) ended up in the new tree, nor any staging folder beside it.
        let numbered = try FileManager.default.contentsOfDirectory(atPath: public_.path).filter { name in
            var folder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: public_.appendingPathComponent(name).path, isDirectory: &folder)
            return !folder.boolValue && name.range(of: #"^[0-9]+(\.gz)?$"#, options: .regularExpression) != nil
        }
        #expect(numbered.isEmpty, "\(numbered.sorted())")
        #expect(try FileManager.default.contentsOfDirectory(atPath: site.root.path).filter { $0.contains("staging") }.isEmpty)
    }

    @Test func alongsideWorkSeesOnlyBuildsWhosePagesAllRendered() throws {
        let site = try TestSite()
        defer { site.remove() }
        try site.post("a", title: "A", date: "2025-01-01")
        let seen = Mutex<[[String]]>([])
        let options = SiteBuilder.Options(alongsidePublishing: { posts in seen.withLock { $0.append(posts.map(\.title)) } })
        try SiteBuilder(root: site.root).build(options)
        #expect(seen.withLock { $0 } == [["A"]])

        // A page that cannot render (its image is missing): no pages move, nothing runs alongside.
        try site.post("b", title: "B", date: "2025-01-02", body: "![Gone](/images/missing.png)")
        #expect(throws: SiteError.self) { try SiteBuilder(root: site.root).build(options) }
        #expect(seen.withLock { $0 } == [["A"]])

        // Work alongside that fails fails the build, once the pages are in place.
        try site.post("b", title: "B", date: "2025-01-02", body: "Fine now.")
        struct IndexFailure: Error {}
        #expect(throws: IndexFailure.self) {
            try SiteBuilder(root: site.root).build(.init(alongsidePublishing: { _ in throw IndexFailure() }))
        }
        #expect(try site.read("2025/b/index.html").contains("Fine now."))
    }

    @Test func cacheReadAheadIsUsedOnlyWhenItFitsTheBuild() throws {
        let site = try TestSite()
        defer { site.remove() }
        try site.post("a", title: "Late Post", date: "2025-12-31T23:30:00Z")
        let builder = SiteBuilder(root: site.root)
        try builder.build()
        #expect(site.exists("2025/late-post/index.html"))

        // Read ahead in UTC, but the configuration now says Tokyo, where 23:30 UTC is next year.
        let readAhead = builder.readingCache(timeZone: TimeZone(identifier: "UTC")!)
        try site.write("lectern.yml", "title: Test Blog\nbaseURL: https://blog.example\ntimezone: Asia/Tokyo\n")
        try site.post("a", title: "Late Post", date: "2025-12-31T23:30:00Z", body: "Edited.")
        try builder.build(.init(cacheRead: readAhead))
        #expect(site.exists("2026/late-post/index.html") && !site.exists("2025/late-post/index.html"))

        // A build into another folder does not take the live site's cache.
        let elsewhere = site.root.appendingPathComponent("elsewhere")
        let report = try builder.build(.init(outputFolder: elsewhere, cacheRead: builder.readingCache(timeZone: TimeZone(identifier: "Asia/Tokyo")!)))
        #expect(report.reused == 0)
        #expect(FileManager.default.fileExists(atPath: elsewhere.appendingPathComponent("2026/late-post/index.html").path))
    }
}
