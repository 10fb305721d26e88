import BlogModel
import Foundation
import Parallel
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
    static let header = "lectern-posts 5 \(SitePlan.generatorVersion)"
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
        self.init(timeZoneIdentifier: timeZone.identifier)
    }

    private init(timeZoneIdentifier: String) {
        timeZone = timeZoneIdentifier
    }

    /// This cache for a build in `zone`: itself if it was parsed there, an empty one if it is
    /// empty anyway (a missing or damaged file read before the zone was known), else nil.
    func fitting(_ zone: TimeZone) -> PostCache? {
        if timeZone == zone.identifier { return self }
        return posts.isEmpty ? PostCache(timeZone: zone) : nil
    }

    func post(for file: String, hash: ContentHash) -> Post? {
        guard let post = posts[file], post.sourceHash == hash else { return nil }
        return post
    }

    /// Rewriting the cache costs about as much as parsing a few dozen posts, so a cache that is
    /// stale for only a few posts (a writer editing one) is left as it is until more pile up.
    /// `sourcesRead`: the posts the load had to read because `previous` did not serve them (new
    /// or changed sources, and sources with the same text but a new stamp: a copied, restored or
    /// checked-out site, whose every source a build would otherwise read until 32 posts changed).
    /// The load counts them as it goes: comparing the two caches again cost 1.5 M instructions.
    static let rewriteThreshold = 32

    func isWorthSaving(comparedTo previous: PostCache, sourcesRead: Int) -> Bool {
        if previous.posts.isEmpty { return !posts.isEmpty }
        return sourcesRead >= Self.rewriteThreshold || excerpts.count - previous.excerpts.count >= Self.rewriteThreshold
    }

    /// Adds the excerpts a build rendered.
    mutating func add(excerpts rendered: [String: Excerpt]) {
        excerpts.merge(rendered.filter { posts[$0.key] != nil }) { _, new in new }
    }

    /// The cache for `timeZone`, empty when the file is of another; with `timeZone` nil, the
    /// cache as written, whatever its zone (read before the configuration is: the user checks
    /// `timeZone`).
    static func load(records: BuildRecords, timeZone: TimeZone?) -> PostCache {
        let url = records.file(fileName)
        let empty = PostCache(timeZoneIdentifier: timeZone?.identifier ?? "")
        guard let data = FileManager.default.contents(atPath: url.path) else { return empty }
        return data.withUnsafeBytes { decode($0.bindMemory(to: UInt8.self), of: data, timeZone: timeZone) } ?? empty
    }

    /// Decoded on the raw bytes, a field at a time: splitting the text into `String`s first took
    /// 14 ms of a one-post rebuild for 1,000 posts.
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, of data: Data, timeZone: TimeZone?) -> PostCache? {
        var lines = ByteFields(bytes, separator: 0x0A)
        guard let first = lines.next() else { return nil }
        let prefix = "\(header) "
        let firstLine = String(decoding: first, as: UTF8.self)
        guard firstLine.hasPrefix(prefix), timeZone.map({ firstLine == prefix + $0.identifier }) ?? true else { return nil }
        var cache = PostCache(timeZoneIdentifier: String(firstLine.dropFirst(prefix.count)))
        var all: [UnsafeBufferPointer<UInt8>] = []
        while let line = lines.next() { if !line.isEmpty { all.append(line) } }
        // Lines decode independently: in chunks over the cores (6.9 → 5.2 ms for 1,000 posts,
        // `LECTERN_TRACE=1`).
        let chunks = stride(from: 0, to: all.count, by: 128).map { all[$0..<min($0 + 128, all.count)] }
        let decoded = ParallelMap.map(chunks) { chunk in chunk.map { decode($0, in: bytes, of: data) } }
        cache.posts.reserveCapacity(all.count)
        cache.stamps.reserveCapacity(all.count)
        cache.excerpts.reserveCapacity(all.count)
        for chunk in decoded {
            for entry in chunk {
                guard let (post, stamp, excerpt) = entry else { return nil }
                cache.posts[post.sourcePath] = post
                cache.stamps[post.sourcePath] = stamp
                cache.excerpts[post.sourcePath] = excerpt
            }
        }
        return cache
    }

    /// Written to a temporary name and renamed, so a reader never sees half a file.
    func save(records: BuildRecords) throws {
        var bytes = Array("\(Self.header) \(timeZone)\n".utf8)
        bytes.reserveCapacity(posts.count * 640)
        for post in posts.values.sorted(by: { $0.sourcePath < $1.sourcePath }) {
            Self.encode(post, stamp: stamps[post.sourcePath], excerpt: excerpts[post.sourcePath], into: &bytes)
        }
        try records.makeFolders()
        try BuildRecordFile.replace(records.file(Self.fileName), with: bytes)
    }

    /// Appends the post's line, or nothing when one of its texts holds a separator. Written
    /// byte by byte: joining `String`s and mapping their UTF-8 took 12–22 ms for 1,000 posts.
    private static func encode(_ post: Post, stamp: FileStamp?, excerpt: Excerpt?, into bytes: inout [UInt8]) {
        let start = bytes.count
        var storable = true
        func text(_ value: String) { storable = storable && append(value, to: &bytes) }
        func optional(_ value: String?) {
            guard let value else { return }
            bytes.append(0x2B)  // "+": set, even when empty
            text(value)
        }
        func list(_ values: [String]) {
            for (index, value) in values.enumerated() {
                if index > 0 { bytes.append(item) }
                text(value)
            }
        }
        func flag(_ value: Bool) { bytes.append(value ? 0x31 : 0x30) }
        func next() { bytes.append(field) }
        text(post.sourcePath); next(); text(post.title); next(); text(String(post.date.timeIntervalSince1970)); next()
        text(post.updated.map { String($0.timeIntervalSince1970) } ?? ""); next(); text(post.slug); next()
        optional(post.category); next(); list(post.tags); next(); optional(post.summary); next()
        flag(post.draft); next(); optional(post.image); next(); flag(post.pinned); next()
        post.sourceHash.appendHex(to: &bytes); next(); text(post.path); next(); text(String(post.slugLine)); next()
        text((stamp ?? FileStamp(size: -1, modified: 0, changed: 0, inode: 0)).text); next()
        optional(post.declaredID); next(); list(post.aliases); next(); flag(post.federate); next()
        optional(post.series); next(); text(post.seriesOrder.map(String.init) ?? ""); next()
        if let toc = post.toc { flag(toc) }
        next(); optional(post.language); next()
        guard storable else {
            bytes.removeSubrange(start...)
            return
        }
        // An excerpt that cannot be stored is left out; the post's line stays.
        let excerptStart = bytes.count
        func appended(_ excerpt: Excerpt) -> Bool {
            guard let stored = excerpt.stored else { return append(excerpt.html, to: &bytes, plus: 0x2B) }
            bytes.append(0x2B)
            bytes.append(contentsOf: stored.bytes)  // as read from the last cache: its bytes as they were
            return true
        }
        if let excerpt, appended(excerpt) {
            next(); flag(excerpt.hasMore); next(); text(String(excerpt.wordCount))
        } else {
            bytes.removeSubrange(excerptStart...)
            next(); next()
        }
        bytes.append(0x0A)
    }

    /// Appends `value` (after `plus`, if given) with its line breaks as group separators; false,
    /// having appended part of it, when it holds a separator.
    private static func append(_ value: String, to bytes: inout [UInt8], plus: UInt8? = nil) -> Bool {
        var value = value
        return value.withUTF8 { source in
            if source.contains(where: { $0 == field || $0 == item || $0 == lineBreak }) { return false }
            if let plus { bytes.append(plus) }
            if !source.contains(0x0A) {
                bytes.append(contentsOf: source)
                return true
            }
            for byte in source { bytes.append(byte == 0x0A ? lineBreak : byte) }
            return true
        }
    }

    /// A line of `file`, whose bytes `data` holds (the excerpts keep slices of it).
    private static func decode(_ line: UnsafeBufferPointer<UInt8>, in file: UnsafeBufferPointer<UInt8>,
                               of data: Data) -> (Post, FileStamp?, Excerpt?)? {
        var fields = ByteFields(line, separator: field)
        var parts: [UnsafeBufferPointer<UInt8>] = []
        parts.reserveCapacity(25)
        let text = Self.text
        while let part = fields.next() { parts.append(part) }
        guard parts.count == 25, let date = Double(text(parts[2])), let hash = ContentHash(hex: parts[11]),
              let slugLine = Int(text(parts[13])) else { return nil }
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
        post.bodyIsLoaded = false  // the cache holds no bodies
        post.declaredID = optional(15)
        post.aliases = items(16)
        post.federate = !(parts[17].count == 1 && parts[17][0] == 0x30)
        post.series = optional(18)
        post.seriesOrder = Int(text(parts[19]))
        post.toc = parts[20].isEmpty ? nil : flag(20)
        post.language = optional(21)
        var excerpt: Excerpt?
        if parts[22].first == 0x2B, let wordCount = Int(text(parts[24])) {
            // The HTML after the "+": a slice of the file's bytes.
            let start = data.startIndex + file.baseAddress!.distance(to: parts[22].baseAddress!) + 1
            excerpt = Excerpt(stored: StoredText(bytes: data[start..<start + parts[22].count - 1]), hasMore: flag(23), wordCount: wordCount)
        }
        return (post, FileStamp(bytes: parts[14]), excerpt)
    }

    /// A field's text: line breaks are stored as group separators.
    static func text(_ part: UnsafeBufferPointer<UInt8>) -> String {
        // `memchr`: `contains` stepped through the excerpts (two thirds of the file) a byte at a time.
        guard let base = part.baseAddress, memchr(base, Int32(lineBreak), part.count) != nil else {
            return String(decoding: part, as: UTF8.self)
        }
        return String(decoding: part.map { $0 == lineBreak ? 0x0A : $0 }, as: UTF8.self)
    }
}

/// A text of the parse cache as the file holds it (line breaks as group separators), decoded
/// when asked for; a slice of the file's bytes, which it keeps.
struct StoredText: Sendable {
    let bytes: Data

    var text: String { bytes.withUnsafeBytes { PostCache.text($0.bindMemory(to: UInt8.self)) } }
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

    /// `size:modified:changed:inode` in ASCII digits, parsed in place: through `Int(Substring)`
    /// each stamp of the parse cache took 4,200 instructions (callgrind).
    init?(bytes: UnsafeBufferPointer<UInt8>) {
        var fields = ByteFields(bytes, separator: 0x3A)
        guard let size = fields.next().flatMap(Self.signed), size >= 0, let modified = fields.next().flatMap(Self.signed),
              let changed = fields.next().flatMap(Self.signed), let inode = fields.next().flatMap(Self.digits),
              fields.next() == nil else { return nil }
        (self.size, self.modified, self.changed, self.inode) = (size, modified, changed, inode)
    }

    private static func signed(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes.first == 0x2D else { return digits(bytes).flatMap { Int(exactly: $0) } }
        return digits(UnsafeBufferPointer(rebasing: bytes.dropFirst())).flatMap { $0 <= UInt(Int.max) ? -Int($0) : nil }
    }

    private static func digits(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt? {
        guard !bytes.isEmpty else { return nil }
        var value: UInt = 0
        for byte in bytes {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            let (times, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (sum, carried) = times.addingReportingOverflow(UInt(byte &- 0x30))
            guard !overflowed && !carried else { return nil }
            value = sum
        }
        return value
    }

    public var text: String { "\(size):\(modified):\(changed):\(inode)" }

    /// When the file was last written.
    public var modifiedDate: Date { Date(timeIntervalSince1970: Double(modified) / 1_000_000_000) }
}
