import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Parsed front matter of every post from the last build, with its rendered excerpt, keyed by
/// source path and checked against the source's hash: YAML parsing is most of what a no-op build
/// would otherwise do, and rendering the excerpts most of what a list page of unchanged posts
/// would. Stored next to the build manifest; a missing, stale or damaged cache only costs a full
/// parse and render.
///
/// One line per post, fields split by the ASCII unit separator: decoding JSON took longer than
/// the parsing it saves. Posts whose text contains the separators are simply not cached, nor
/// excerpts that contain them; line breaks (in an excerpt, a multi-line summary) are stored as group separators.
struct PostCache: Equatable {
    static let fileName = "posts"
    /// The site generator's version is part of it: the excerpts are rendered HTML.
    static let header = "lectern-posts 4 \(SitePlan.generatorVersion)"
    /// The ASCII unit, record and group separators.
    private static let field: UInt8 = 0x1F
    private static let item: UInt8 = 0x1E
    private static let lineBreak: UInt8 = 0x1D

    /// Parsing depends on the time zone (dates without offsets, the year in URLs).
    let timeZone: String
    var posts: [String: Post] = [:]
    /// Size, times and inode of each source when it was parsed: an unchanged stamp means the
    /// file need not even be read.
    var stamps: [String: FileStamp] = [:]
    /// What lists and feeds show of each post, when the last build rendered it.
    var excerpts: [String: Excerpt] = [:]

    init(timeZone: TimeZone) {
        self.timeZone = timeZone.identifier
    }

    func post(for file: String, hash: ContentHash) -> Post? {
        guard let post = posts[file], post.sourceHash == hash else { return nil }
        return post
    }

    /// How many of these posts `other` would not serve (new or changed sources).
    func misses(against other: PostCache) -> Int {
        guard timeZone == other.timeZone else { return posts.count }
        return posts.filter { other.posts[$0.key]?.sourceHash != $0.value.sourceHash }.count
    }

    /// Rewriting the cache costs about as much as parsing a few dozen posts, so a cache that is
    /// stale for only a few posts (a writer editing one) is left as it is until more pile up.
    static let rewriteThreshold = 32

    func isWorthSaving(comparedTo previous: PostCache) -> Bool {
        if previous.posts.isEmpty { return !posts.isEmpty }
        return misses(against: previous) >= Self.rewriteThreshold
            || excerpts.count - previous.excerpts.count >= Self.rewriteThreshold
    }

    /// Keeps only the excerpts of posts whose source is unchanged since `previous` (after `posts`
    /// became what was just loaded).
    mutating func dropStaleExcerpts(_ previous: PostCache) {
        excerpts = previous.excerpts.filter { posts[$0.key]?.sourceHash == previous.posts[$0.key]?.sourceHash }
    }

    /// Adds the excerpts a build rendered.
    mutating func add(excerpts rendered: [String: Excerpt]) {
        excerpts.merge(rendered.filter { posts[$0.key] != nil }) { _, new in new }
    }

    static func load(from outputFolder: URL, timeZone: TimeZone) -> PostCache {
        let url = outputFolder.appendingPathComponent(BuildManifest.folder).appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: url.path) else { return PostCache(timeZone: timeZone) }
        return data.withUnsafeBytes { decode($0.bindMemory(to: UInt8.self), timeZone: timeZone) } ?? PostCache(timeZone: timeZone)
    }

    /// Decoded on the raw bytes, a field at a time: splitting the text into `String`s first took
    /// 14 ms of a one-post rebuild for 1,000 posts.
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, timeZone: TimeZone) -> PostCache? {
        var cache = PostCache(timeZone: timeZone)
        var lines = ByteFields(bytes, separator: 0x0A)
        guard let first = lines.next(), String(decoding: first, as: UTF8.self) == "\(header) \(timeZone.identifier)" else {
            return cache
        }
        while let line = lines.next() {
            guard !line.isEmpty else { continue }
            guard let (post, stamp, excerpt) = decode(line) else { return nil }
            cache.posts[post.sourcePath] = post
            cache.stamps[post.sourcePath] = stamp
            cache.excerpts[post.sourcePath] = excerpt
        }
        return cache
    }

    /// Best effort: written to a temporary name and renamed, so a reader never sees half a file.
    func save(in outputFolder: URL) {
        var text = "\(Self.header) \(timeZone)\n"
        for post in posts.values.sorted(by: { $0.sourcePath < $1.sourcePath }) {
            if let line = Self.encode(post, stamp: stamps[post.sourcePath], excerpt: excerpts[post.sourcePath]) {
                text += line + "\n"
            }
        }
        let url = outputFolder.appendingPathComponent(BuildManifest.folder).appendingPathComponent(Self.fileName)
        try? Data(text.utf8).write(to: url, options: .atomic)
    }

    private static func encode(_ post: Post, stamp: FileStamp?, excerpt: Excerpt?) -> String? {
        let texts = [post.sourcePath, post.title, post.slug, post.category ?? "", post.summary ?? "", post.image ?? "",
                     post.path, post.declaredID ?? "", post.series ?? ""] + post.tags + post.aliases
        // By byte: walking `Character`s (grapheme clusters) made saving the cache cost 25 ms.
        guard !texts.contains(where: { $0.utf8.contains { $0 == field || $0 == item || $0 == lineBreak } }) else { return nil }
        let fields: [String] = [
            post.sourcePath, post.title, String(post.date.timeIntervalSince1970),
            post.updated.map { String($0.timeIntervalSince1970) } ?? "", post.slug,
            post.category.map { "+" + $0 } ?? "", post.tags.joined(separator: separator(item)),
            post.summary.map { "+" + $0 } ?? "", post.draft ? "1" : "0", post.image.map { "+" + $0 } ?? "",
            post.pinned ? "1" : "0", post.sourceHash.hex, post.path, String(post.slugLine),
            (stamp ?? FileStamp(size: -1, modified: 0, changed: 0, inode: 0)).text,
            post.declaredID.map { "+" + $0 } ?? "", post.aliases.joined(separator: separator(item)), post.federate ? "1" : "0",
            post.series.map { "+" + $0 } ?? "", post.seriesOrder.map(String.init) ?? "",
            post.toc.map { $0 ? "1" : "0" } ?? "",
        ] + encode(excerpt)
        // Line breaks (a `summary: |`, an excerpt's HTML) are stored as group separators.
        return replacing(0x0A, with: lineBreak, in: fields.joined(separator: separator(field)))
    }

    private static func encode(_ excerpt: Excerpt?) -> [String] {
        guard let excerpt, !excerpt.html.utf8.contains(where: { $0 == field || $0 == item || $0 == lineBreak }) else {
            return ["", "", ""]
        }
        return ["+" + excerpt.html, excerpt.hasMore ? "1" : "0", String(excerpt.wordCount)]
    }

    private static func separator(_ byte: UInt8) -> String { String(UnicodeScalar(byte)) }

    /// One ASCII byte for another (Foundation's `replacingOccurrences` took 20 ms over the
    /// excerpts of 1,000 posts).
    private static func replacing(_ byte: UInt8, with replacement: UInt8, in text: String) -> String {
        guard text.utf8.contains(byte) else { return text }
        return String(decoding: text.utf8.map { $0 == byte ? replacement : $0 }, as: UTF8.self)
    }

    private static func decode(_ line: UnsafeBufferPointer<UInt8>) -> (Post, FileStamp?, Excerpt?)? {
        var fields = ByteFields(line, separator: field)
        var parts: [UnsafeBufferPointer<UInt8>] = []
        parts.reserveCapacity(24)
        while let part = fields.next() { parts.append(part) }
        guard parts.count == 24, let date = Double(text(parts[2])), let hash = ContentHash(hex: parts[11]),
              let slugLine = Int(text(parts[13])) else { return nil }
        func text(_ part: UnsafeBufferPointer<UInt8>) -> String {
            part.contains(lineBreak) ? String(decoding: part.map { $0 == lineBreak ? 0x0A : $0 }, as: UTF8.self)
                : String(decoding: part, as: UTF8.self)
        }
        func flag(_ index: Int) -> Bool { parts[index].count == 1 && parts[index][0] == 0x31 }
        func optional(_ index: Int) -> String? {
            parts[index].first == 0x2B ? text(UnsafeBufferPointer(rebasing: parts[index].dropFirst())) : nil
        }
        func items(_ index: Int) -> [String] {
            var items = ByteFields(parts[index], separator: item)
            var found: [String] = []
            while let part = items.next() { found.append(text(part)) }
            return found
        }
        var post = Post(sourcePath: text(parts[0]), title: text(parts[1]), date: Date(timeIntervalSince1970: date),
                        updated: Double(text(parts[3])).map(Date.init(timeIntervalSince1970:)), slug: text(parts[4]),
                        category: optional(5), tags: items(6), summary: optional(7), draft: flag(8), image: optional(9),
                        pinned: flag(10), markdown: "", sourceHash: hash, path: text(parts[12]), slugLine: slugLine)
        post.declaredID = optional(15)
        post.aliases = items(16)
        post.federate = !(parts[17].count == 1 && parts[17][0] == 0x30)
        post.series = optional(18)
        post.seriesOrder = Int(text(parts[19]))
        post.toc = parts[20].isEmpty ? nil : flag(20)
        let excerpt = optional(21).flatMap { html in
            Int(text(parts[23])).map {
                Excerpt(html: html, hasMore: flag(22), wordCount: $0)
            }
        }
        return (post, FileStamp(text: text(parts[14])), excerpt)
    }
}

/// What `stat` says about a file: enough to tell, without reading it, that it did not change
/// (any write moves the change time, which a program cannot set back).
public struct FileStamp: Equatable, Sendable {
    var size: Int
    var modified: Int  // nanoseconds
    var changed: Int   // nanoseconds
    var inode: UInt

    init(size: Int, modified: Int, changed: Int, inode: UInt) {
        (self.size, self.modified, self.changed, self.inode) = (size, modified, changed, inode)
    }

    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    init(_ info: stat) {
        size = Int(info.st_size)
        modified = Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec)
        changed = Int(info.st_ctim.tv_sec) * 1_000_000_000 + Int(info.st_ctim.tv_nsec)
        inode = UInt(info.st_ino)
    }

    init?(text: String) {
        let parts = text.utf8.split(separator: 0x3A).map { Substring($0) }
        guard parts.count == 4, let size = Int(parts[0]), let modified = Int(parts[1]), let changed = Int(parts[2]),
              let inode = UInt(parts[3]), size >= 0 else { return nil }
        (self.size, self.modified, self.changed, self.inode) = (size, modified, changed, inode)
    }

    public var text: String { "\(size):\(modified):\(changed):\(inode)" }
}
