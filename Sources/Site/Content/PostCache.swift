import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Parsed front matter of every post from the last build, keyed by source path and checked
/// against the source's hash: YAML parsing is most of what a no-op build would otherwise do.
/// Stored next to the build manifest; a missing, stale or damaged cache only costs a full parse.
///
/// One line per post, fields split by the ASCII unit separator: decoding JSON took longer than
/// the parsing it saves. Posts whose text contains the separators are simply not cached.
struct PostCache: Equatable {
    static let fileName = "posts"
    static let header = "lectern-posts 3"
    private static let field: Character = "\u{1F}"
    private static let item: Character = "\u{1E}"

    /// Parsing depends on the time zone (dates without offsets, the year in URLs).
    let timeZone: String
    var posts: [String: Post] = [:]
    /// Size, times and inode of each source when it was parsed: an unchanged stamp means the
    /// file need not even be read.
    var stamps: [String: FileStamp] = [:]

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
        previous.posts.isEmpty ? !posts.isEmpty : misses(against: previous) >= Self.rewriteThreshold
    }

    static func load(from outputFolder: URL, timeZone: TimeZone) -> PostCache {
        var cache = PostCache(timeZone: timeZone)
        let url = outputFolder.appendingPathComponent(BuildManifest.folder).appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: url.path) else { return cache }
        // Split by UTF-8 byte (the separators are ASCII): splitting by Character, which walks
        // grapheme clusters, was most of a one-post rebuild's time here.
        let text = String(decoding: data, as: UTF8.self)
        let lines = text.utf8.split(separator: 0x0A).map { Substring($0) }
        guard lines.first == Substring("\(header) \(timeZone.identifier)") else { return cache }
        for line in lines.dropFirst() {
            guard let (post, stamp) = decode(line) else { return PostCache(timeZone: timeZone) }
            cache.posts[post.sourcePath] = post
            cache.stamps[post.sourcePath] = stamp
        }
        return cache
    }

    /// Best effort: written to a temporary name and renamed, so a reader never sees half a file.
    func save(in outputFolder: URL) {
        var text = "\(Self.header) \(timeZone)\n"
        for post in posts.values.sorted(by: { $0.sourcePath < $1.sourcePath }) {
            if let line = Self.encode(post, stamp: stamps[post.sourcePath]) { text += line + "\n" }
        }
        let url = outputFolder.appendingPathComponent(BuildManifest.folder).appendingPathComponent(Self.fileName)
        try? Data(text.utf8).write(to: url, options: .atomic)
    }

    private static func encode(_ post: Post, stamp: FileStamp?) -> String? {
        let texts = [post.sourcePath, post.title, post.slug, post.category ?? "", post.summary ?? "", post.image ?? "",
                     post.path, post.declaredID ?? "", post.series ?? ""] + post.tags + post.aliases
        guard !texts.contains(where: { $0.contains(field) || $0.contains(item) || $0.contains("\n") }) else { return nil }
        let fields: [String] = [
            post.sourcePath, post.title, String(post.date.timeIntervalSince1970),
            post.updated.map { String($0.timeIntervalSince1970) } ?? "", post.slug,
            post.category.map { "+" + $0 } ?? "", post.tags.joined(separator: String(item)),
            post.summary.map { "+" + $0 } ?? "", post.draft ? "1" : "0", post.image.map { "+" + $0 } ?? "",
            post.pinned ? "1" : "0", post.sourceHash.hex, post.path, String(post.slugLine),
            (stamp ?? FileStamp(size: -1, modified: 0, changed: 0, inode: 0)).text,
            post.declaredID.map { "+" + $0 } ?? "", post.aliases.joined(separator: String(item)), post.federate ? "1" : "0",
            post.series.map { "+" + $0 } ?? "", post.seriesOrder.map(String.init) ?? "",
            post.toc.map { $0 ? "1" : "0" } ?? "",
        ]
        return fields.joined(separator: String(field))
    }

    /// A field holding a list, its items split by the record separator.
    private static func items(_ text: String) -> [String] {
        text.isEmpty ? [] : text.utf8.split(separator: item.asciiValue!).map { String(Substring($0)) }
    }

    private static func decode(_ line: Substring) -> (Post, FileStamp?)? {
        let parts = line.utf8.split(separator: field.asciiValue!, omittingEmptySubsequences: false).map { String(Substring($0)) }
        guard parts.count == 21, let date = Double(parts[2]), let hash = ContentHash(hex: parts[11]),
              let slugLine = Int(parts[13]) else { return nil }
        func optional(_ text: String) -> String? { text.hasPrefix("+") ? String(text.dropFirst()) : nil }
        let post = Post(sourcePath: parts[0], title: parts[1], date: Date(timeIntervalSince1970: date),
                    updated: Double(parts[3]).map(Date.init(timeIntervalSince1970:)), slug: parts[4],
                    category: optional(parts[5]),
                    tags: Self.items(parts[6]),
                    summary: optional(parts[7]), draft: parts[8] == "1", image: optional(parts[9]),
                    pinned: parts[10] == "1", markdown: "", sourceHash: hash, path: parts[12], slugLine: slugLine)
        var extended = post
        extended.declaredID = optional(parts[15])
        extended.aliases = Self.items(parts[16])
        extended.federate = parts[17] != "0"
        extended.series = optional(parts[18])
        extended.seriesOrder = Int(parts[19])
        extended.toc = parts[20].isEmpty ? nil : parts[20] == "1"
        return (extended, FileStamp(text: parts[14]))
    }
}

/// What `stat` says about a file: enough to tell, without reading it, that it did not change
/// (any write moves the change time, which a program cannot set back).
struct FileStamp: Equatable, Sendable {
    var size: Int
    var modified: Int  // nanoseconds
    var changed: Int   // nanoseconds
    var inode: UInt

    init(size: Int, modified: Int, changed: Int, inode: UInt) {
        (self.size, self.modified, self.changed, self.inode) = (size, modified, changed, inode)
    }

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
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

    var text: String { "\(size):\(modified):\(changed):\(inode)" }
}
