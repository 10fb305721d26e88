import Foundation
import Site
import Storage

/// What a build of `public/` was made from: the sources' stamp (names, sizes, times of
/// everything under the site), the store's discussion and block generations, the build's
/// options and the year the footer shows. A build whose inputs match the last one's, over the
/// very `public/` that build left (its manifest unchanged: no other build since), and with no
/// scheduled post come due, has nothing to do: it returns without reading a post.
struct BuildInputs: Equatable {
    let fingerprint: String
    /// The sources' stamp alone (the fingerprint's first part): a walk that finds another one
    /// knows, before the store is open, that a build follows (`SourceWalk` starts reading the parse cache).
    var sources: String?
    /// `SiteBuilder.buildStamp()` right after the build.
    var output: String
    var nextScheduled: Date?
    var files: Int

    static let fileName = "inputs"

    /// The fingerprint of what a build now would read, and `content/` as walked for it (the
    /// build loads from the same walk, and takes the parse cache it may have started reading).
    /// `walked`: the sources as a `SourceWalk` of this blog's folder found them (else walked now).
    static func current(blog: Blog, now: Date, walked: SourceWalk? = nil) throws
        -> (fingerprint: String, sources: String, content: ContentTree, cacheRead: SiteBuilder.CacheRead?) {
        let generations = try blog.store.changes.changeGenerations()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = blog.config.timeZone
        let walk = try walked?.walk(for: blog)
        let (content, stamp) = try walk.map { ($0.content, $0.stamp) } ?? SourceWalk.walk(blog.root)
        var hash = stamp
        hash.combine("\(generations[.discussions] ?? 0)|\(generations[.blocks] ?? 0)|\(blog.options.includeDrafts)|"
                     + "\(blog.options.includeFuture)|\(calendar.component(.year, from: now))")
        return (hash.hex, stamp.hex, content, walk?.cacheRead)
    }

    /// Whether `public/` already is what building now would make.
    func isCurrent(fingerprint: String, output: String, now: Date) -> Bool {
        fingerprint == self.fingerprint && output == self.output && (nextScheduled.map { now < $0 } ?? true)
    }

    static func load(from publicFolder: URL) -> BuildInputs? {
        guard let data = FileManager.default.contents(atPath: url(publicFolder).path) else { return nil }
        let parts = String(decoding: data, as: UTF8.self).split(separator: " ").map(String.init)
        // Four parts: written before the sources' stamp was recorded apart.
        guard parts.count == 4 || parts.count == 5, let files = Int(parts[3]) else { return nil }
        return BuildInputs(fingerprint: parts[0], sources: parts.count == 5 ? parts[4] : nil, output: parts[1],
                           nextScheduled: Double(parts[2]).map(Date.init(timeIntervalSince1970:)), files: files)
    }

    /// A file that could not be written only means the next build looks at everything.
    func save(in publicFolder: URL) throws {
        let text = "\(fingerprint) \(output) \(nextScheduled.map { String($0.timeIntervalSince1970) } ?? "-") \(files)"
            + (sources.map { " \($0)" } ?? "")
        try BuildRecordFile.replace(Self.url(publicFolder), with: Array(text.utf8))
    }

    private static func url(_ publicFolder: URL) -> URL { BuildRecords(outputFolder: publicFolder).file(fileName) }
}
