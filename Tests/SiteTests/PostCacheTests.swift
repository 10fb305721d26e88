import BlogModel
import Foundation
import Testing
@testable import Site

/// The parse cache reads back exactly what it wrote, and refuses what it cannot trust.
@Suite struct PostCacheTests {
    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-postcache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func samplePosts() -> (full: Post, bare: Post) {
        var full = Post(sourcePath: "content/posts/full.md", title: "Full — “quoted”", date: Date(timeIntervalSince1970: 1_700_000_000.5),
                        updated: Date(timeIntervalSince1970: 1_700_100_000), slug: "full", category: "Essays",
                        tags: ["swift", "two words", "ünïcode"], summary: "A summary.", draft: true, image: "/img/a.png",
                        pinned: true, markdown: "", sourceHash: ContentHash("full"), path: "/2023/full/", slugLine: 3)
        full.bodyIsLoaded = false  // as every cached post: its body stays in its file
        full.declaredID = "https://old.example/1"
        full.aliases = ["/old/", "/older/"]
        full.federate = false
        full.series = "Parts"
        full.seriesOrder = 2
        full.toc = false
        var bare = Post(sourcePath: "content/notes/bare.md", title: "", date: Date(timeIntervalSince1970: 0), updated: nil,
                        slug: "bare", category: nil, tags: [], summary: nil, draft: false, image: nil, pinned: false,
                        markdown: "", sourceHash: ContentHash("bare"), path: "/notes/bare/", slugLine: 0)
        bare.bodyIsLoaded = false
        return (full, bare)
    }

    @Test func readsBackWhatItWrote() throws {
        let output = try folder()
        defer { try? FileManager.default.removeItem(at: output) }
        let zone = TimeZone(identifier: "Europe/Berlin")!
        let (full, bare) = samplePosts()
        var cache = PostCache(timeZone: zone)
        cache.posts = [full.sourcePath: full, bare.sourcePath: bare]
        cache.stamps = [full.sourcePath: FileStamp(size: 120, modified: 1_700_000_000_123_456_789, changed: 1_700_000_001_000_000_000, inode: 42)]
        cache.excerpts = [full.sourcePath: Excerpt(html: "<p>Line one\nline two</p>\n", hasMore: true, wordCount: 451)]
        cache.posts[full.sourcePath]?.summary = "A summary\nwritten with `|`.\n"
        try cache.save(records: BuildRecords(outputFolder: output))
        #expect(PostCache.load(records: BuildRecords(outputFolder: output), timeZone: zone) == cache)
        // Another time zone parses dates differently: nothing is reused.
        #expect(PostCache.load(records: BuildRecords(outputFolder: output), timeZone: TimeZone(identifier: "Asia/Tokyo")!).posts.isEmpty)

        // Read before the configuration (any zone): it fits only the zone it was parsed in.
        let anyZone = PostCache.load(records: BuildRecords(outputFolder: output), timeZone: nil)
        #expect(anyZone.fitting(zone) == cache)
        #expect(anyZone.fitting(TimeZone(identifier: "Asia/Tokyo")!) == nil)
        // Nothing to read is an empty cache for whichever zone the build has.
        let none = PostCache.load(records: BuildRecords(outputFolder: output.appendingPathComponent("elsewhere")), timeZone: nil)
        #expect(none.fitting(TimeZone(identifier: "Asia/Tokyo")!) == PostCache(timeZone: TimeZone(identifier: "Asia/Tokyo")!))
    }

    /// Excerpts read from the cache stay its bytes until asked for; saved again unread, they are
    /// written as they were read, and read back the same.
    @Test func excerptsReadAndSavedAgainUnchanged() throws {
        let (first, second) = (try folder(), try folder())
        defer { for output in [first, second] { try? FileManager.default.removeItem(at: output) } }
        let zone = TimeZone(identifier: "UTC")!
        let (full, bare) = samplePosts()
        var cache = PostCache(timeZone: zone)
        cache.posts = [full.sourcePath: full, bare.sourcePath: bare]
        cache.stamps = [bare.sourcePath: FileStamp(size: 0, modified: -1_000_000_123, changed: 5, inode: UInt.max)]
        cache.excerpts = [full.sourcePath: Excerpt(html: "<p>Line one\nline ünïcode</p>\n", hasMore: true, wordCount: 9),
                          bare.sourcePath: Excerpt(html: "", hasMore: false, wordCount: 0)]
        try cache.save(records: BuildRecords(outputFolder: first))
        let loaded = PostCache.load(records: BuildRecords(outputFolder: first), timeZone: zone)
        #expect(loaded.excerpts[full.sourcePath]?.stored != nil, "not decoded on reading")
        try loaded.save(records: BuildRecords(outputFolder: second))
        #expect(try Data(contentsOf: BuildRecords(outputFolder: second).file(PostCache.fileName))
                == Data(contentsOf: BuildRecords(outputFolder: first).file(PostCache.fileName)))
        #expect(PostCache.load(records: BuildRecords(outputFolder: second), timeZone: zone) == cache)
        #expect(loaded.excerpts[full.sourcePath]?.html == "<p>Line one\nline ünïcode</p>\n")
        var edited = try #require(loaded.excerpts[full.sourcePath])
        edited.html = "<p>New</p>"
        #expect(edited.stored == nil && edited.html == "<p>New</p>" && edited.wordCount == 9)
    }

    @Test func stampsParseAsWrittenAndNothingElse() {
        func parsed(_ text: String) -> FileStamp? {
            var text = text
            return text.withUTF8 { FileStamp(bytes: $0) }
        }
        let stamp = FileStamp(size: 12, modified: -5, changed: 1_795_567_075_190_854_458, inode: UInt.max)
        #expect(parsed(stamp.text) == stamp)
        for text in ["", "1:2:3", "1:2:3:4:5", "-1:2:3:4", "1:2:3:-4", "1:2:3:18446744073709551616", "1:9223372036854775808:3:4",
                     "1:2a:3:4", "1::3:4", "+1:2:3:4", "1:2:3:4 "] {
            #expect(parsed(text) == nil, "\(text)")
        }
        #expect(parsed("0:-9223372036854775807:0:0")?.modified == -9_223_372_036_854_775_807)
    }

    @Test func leavesOutWhatItCannotStore() throws {
        let output = try folder()
        defer { try? FileManager.default.removeItem(at: output) }
        let zone = TimeZone(identifier: "UTC")!
        var (full, bare) = samplePosts()
        full.title = "Has a \u{1F} separator"
        var cache = PostCache(timeZone: zone)
        cache.posts = [full.sourcePath: full, bare.sourcePath: bare]
        cache.excerpts = [bare.sourcePath: Excerpt(html: "<p>\u{1D}</p>", hasMore: false, wordCount: 1)]
        try cache.save(records: BuildRecords(outputFolder: output))
        let loaded = PostCache.load(records: BuildRecords(outputFolder: output), timeZone: zone)
        #expect(Array(loaded.posts.keys) == [bare.sourcePath])
        #expect(loaded.excerpts.isEmpty)
    }

    /// A cache that cannot be written leaves the build done and says so (each next build would
    /// read every post).
    @Test func aCacheThatCannotBeSavedIsAWarning() throws {
        let site = try TestSite()
        defer { site.remove() }
        try site.post("a", title: "A", date: "2025-01-01")
        try site.build()
        let file = site.record(PostCache.fileName)
        try FileManager.default.removeItem(at: file)
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        let report = try site.build()
        #expect(report.warnings.contains { $0.hasPrefix("could not save the parse cache") }, "\(report.warnings)")
        #expect(try site.read("2025/a/index.html").contains("Body text."))
    }

    @Test func aDamagedLineMeansNoCache() throws {
        let output = try folder()
        defer { try? FileManager.default.removeItem(at: output) }
        let zone = TimeZone(identifier: "UTC")!
        var cache = PostCache(timeZone: zone)
        cache.posts = [samplePosts().bare.sourcePath: samplePosts().bare]
        try cache.save(records: BuildRecords(outputFolder: output))
        let file = BuildRecords(outputFolder: output).file(PostCache.fileName)
        let text = try String(contentsOf: file, encoding: .utf8)
        for damaged in [text + "half a line\u{1F}\n", String(text.dropLast(6)), text.replacingOccurrences(of: "\u{1F}", with: "")] {
            try Data(damaged.utf8).write(to: file)
            #expect(PostCache.load(records: BuildRecords(outputFolder: output), timeZone: zone).posts.isEmpty, "\(damaged.debugDescription)")
        }
    }
}

/// Fingerprints as the manifest and the parse cache store them: 16 hex digits, read back as written.
@Suite struct ContentHashTextTests {
    @Test func hexDigitsRoundTrip() {
        for hash in [ContentHash(), ContentHash("a"), ContentHash("a", "b"), ContentHash(String(repeating: "x", count: 999))] {
            var bytes: [UInt8] = []
            hash.appendHex(to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == hash.hex)
            #expect(bytes.withUnsafeBufferPointer { ContentHash(hex: $0) } == hash)
            #expect(ContentHash(hex: hash.hex.uppercased()) == hash)
        }
        for bad in ["", "0123456789abcde", "0123456789abcdefa", "0123456789abcdeg", "+123456789abcdef"] {
            #expect(Array(bad.utf8).withUnsafeBufferPointer { ContentHash(hex: $0) } == nil, "\(bad)")
        }
    }
}
