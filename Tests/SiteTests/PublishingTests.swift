import BlogModel
import Foundation
import Synchronization
import Testing
@testable import Site

/// How a build's files reach `public/`: pages deleted by hand come back, the work that runs
/// alongside the publishing (the search index) commits only what is served, and a parse cache
/// read ahead is used only when it fits the build.
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

    /// The small-change path swaps each new file with the one it replaces: the new text is served,
    /// a compressed twin comes and goes with the file's size, and nothing old stays behind.
    @Test func replacedFilesAndTheirTwinsFollowTheNewText() throws {
        let site = try TestSite()
        defer { site.remove() }
        for day in 1...9 { try site.post("p\(day)", title: "Post \(day)", date: "2025-01-0\(day)") }
        let long = String(repeating: "a compressible line of notes\n", count: 20)
        try site.write("static/notes.txt", long)
        try site.build()
        #expect(site.exists("notes.txt.gz"))

        try site.write("static/notes.txt", "short")
        let shrunk = try site.build()
        #expect(shrunk.written < shrunk.reused, "the small-change path")
        #expect(try site.read("notes.txt") == "short")
        #expect(!site.exists("notes.txt.gz"), "too short to compress: the old twin goes")

        try site.write("static/notes.txt", long + "more\n")
        try site.build()
        #expect(try site.read("notes.txt") == long + "more\n")
        let twin = try Data(contentsOf: site.root.appendingPathComponent("public/notes.txt.gz"))
        #expect(twin.starts(with: [0x1F, 0x8B]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: site.root.path).filter { $0.contains("staging") }.isEmpty)
    }

    @Test func alongsideWorkCommitsOnlyWhatIsServed() throws {
        let site = try TestSite()
        defer { site.remove() }
        for day in 1...9 { try site.post("p\(day)", title: "Post \(day)", date: "2025-01-0\(day)") }
        try site.build()
        // What a search index would do: prepare, wait for the pages, then commit (or not).
        let committed = Mutex<[[String]]>([]), refused = Mutex(0)
        let options = SiteBuilder.Options(alongsidePublishing: { posts, published in
            do { try published() } catch { refused.withLock { $0 += 1 }; throw error }
            committed.withLock { $0.append(posts.map(\.title).sorted()) }
        })
        try site.post("p9", title: "Post 9", date: "2025-01-09", body: "Edited.")
        let small = try SiteBuilder(root: site.root).build(options)
        #expect(small.written < small.reused, "the small-change path, where the pages move beside the work")
        #expect(committed.withLock { $0.last?.count } == 9)

        // A page that cannot render (its image is missing): no pages move, and the work alongside
        // (started beside the rendering) hears so before committing.
        try site.post("p9", title: "Post 9", date: "2025-01-09", body: "![Gone](/images/missing.png)")
        #expect(throws: SiteError.self) { try SiteBuilder(root: site.root).build(options) }
        #expect(committed.withLock { $0.count } == 1 && refused.withLock { $0 } == 1)

        // Pages that cannot move into place: the work alongside hears so before committing, and
        // the build fails with the swap's error. Every build now makes a whole new tree, so a file
        // in the way inside `public/` no longer stops it; an immutable `public/` (chattr +i, as
        // root on ext4) does.
        let live = site.root.appendingPathComponent("public")
        try site.post("p9", title: "Post 9", date: "2025-01-09", body: "Edited again.")
        if chattr("+i", live) {
            defer { _ = chattr("-i", live) }
            #expect(throws: (any Error).self) { try SiteBuilder(root: site.root).build(options) }
            #expect(committed.withLock { $0.count } == 1 && refused.withLock { $0 } == 2)
        }

        // Work alongside that fails fails the build, once the pages and the parse cache are saved.
        struct IndexFailure: Error {}
        let cacheFile = site.record(PostCache.fileName)
        try FileManager.default.removeItem(at: cacheFile)
        #expect(throws: IndexFailure.self) {
            try SiteBuilder(root: site.root).build(.init(alongsidePublishing: { _, _ in throw IndexFailure() }))
        }
        #expect(try site.read("2025/post-9/index.html").contains("Edited again."))
        #expect(try site.read("2025/post-3/index.html").contains("Post 3"))
        #expect(FileManager.default.fileExists(atPath: cacheFile.path))
    }

    @Test func cacheReadAheadIsUsedOnlyWhenItFitsTheBuild() throws {
        let site = try TestSite()
        defer { site.remove() }
        try site.post("a", title: "Late Post", date: "2025-12-31T23:30:00Z")
        let builder = SiteBuilder(root: site.root)
        try builder.build()
        #expect(site.exists("2025/late-post/index.html"))
        let cacheFile = site.record(PostCache.fileName)
        let configured = try SiteConfig.load(from: site.root).timeZone

        // A read-ahead that fits is what the build uses: with the file gone meanwhile, every post
        // is still a cache hit, so there is nothing new to save.
        try site.post("b", title: "Other", date: "2025-06-01")
        let fitting = builder.readingCache(timeZone: configured)
        _ = fitting.cache.value
        try FileManager.default.removeItem(at: cacheFile)
        try builder.build(.init(cacheRead: fitting))
        #expect(!FileManager.default.fileExists(atPath: cacheFile.path))
        try builder.build()  // reads every post: the cache is written again

        // Read ahead in UTC, but the configuration now says Tokyo, where 23:30 UTC is next year.
        // The post is untouched: only the time zone tells its cached parse from a new one.
        let stale = builder.readingCache(timeZone: configured)
        try site.write("lectern.yml", "title: Test Blog\nbaseURL: https://blog.example\ntimezone: Asia/Tokyo\n")
        try builder.build(.init(cacheRead: stale))
        #expect(site.exists("2026/late-post/index.html") && !site.exists("2025/late-post/index.html"))

        // A build into another folder does not take the live site's cache: it parses every post,
        // and so saves a cache of its own.
        let elsewhere = site.root.appendingPathComponent("elsewhere")
        try builder.build(.init(outputFolder: elsewhere, cacheRead: builder.readingCache(timeZone: TimeZone(identifier: "Asia/Tokyo")!)))
        #expect(FileManager.default.fileExists(atPath: BuildRecords(outputFolder: elsewhere).file(PostCache.fileName).path))
        #expect(FileManager.default.fileExists(atPath: elsewhere.appendingPathComponent("2026/late-post/index.html").path))
    }
}

/// Sets or clears a file attribute; false where that is not allowed (not root, not ext4).
private func chattr(_ flag: String, _ url: URL) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["chattr", flag, url.path]
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
}
