import CSQLiteShim
import Foundation
import GRDB
/// The full-text index of the posts.
public struct SearchIndex: StoreFacade {
    let store: Store
    public init(_ store: Store) { self.store = store }
}

extension Store {
    public var search: SearchIndex { SearchIndex(self) }
}

#if canImport(Glibc)
import Glibc
#endif

/// A post as the search index keeps it: what it matches on and what a result shows.
public struct SearchDocument: Sendable, Equatable {
    public var path: String
    public var title: String
    public var tags: [String]
    /// The post's text without markup.
    public var body: String
    public var published: Date
    /// The source's fingerprint: an unchanged post is not indexed again.
    public var sourceHash: String

    public init(path: String, title: String, tags: [String], body: String, published: Date, sourceHash: String) {
        (self.path, self.title, self.tags, self.body, self.published, self.sourceHash) = (path, title, tags, body, published, sourceHash)
    }
}

/// One result: the snippet is plain text with `SearchHit.markStart`/`markEnd` around the words
/// that matched (private-use characters, so the text can be escaped before they become `<mark>`).
public struct SearchHit: Sendable, Equatable {
    public static let markStart: Character = "\u{E000}"
    public static let markEnd: Character = "\u{E001}"

    /// `text` without the marks' code points, wherever they are: by scalar, so that none stays
    /// hidden in a character it combines into. A text without their lead byte (0xEE, which
    /// U+E000–U+EFFF share) is returned as it is, without stepping through its characters.
    static func withoutMarks(_ text: String) -> String {
        var text = text
        guard text.withUTF8({ bytes in bytes.baseAddress.map { memchr($0, 0xEE, bytes.count) != nil } ?? false }) else { return text }
        let marks: Set<Unicode.Scalar> = ["\u{E000}", "\u{E001}"]
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: text.unicodeScalars.lazy.filter { !marks.contains($0) })
        return String(kept)
    }
    public var path: String
    public var title: String
    public var published: Date
    public var snippet: String
}

public struct SearchResults: Sendable, Equatable {
    public var hits: [SearchHit]
    /// All matches, of which `hits` is one page, up to `SearchResults.countLimit`.
    public var total: Int
    /// Totals stop at this many (a query that matches more is simply "more than 1,000", and
    /// pages beyond the 1,000th result are not offered).
    public static let countLimit = 1001
    /// The query was not valid FTS5 syntax (`c++`, a lone `"`): its words were searched instead.
    public var searchedWordsOnly: Bool
    /// What the search left out or did not finish, held to `SearchBounds`.
    public var limit: SearchLimit?
}

extension SearchIndex {
    /// The fingerprint of each indexed post's source, by path.
    public func searchIndexFingerprints() throws -> [String: String] {
        try read { db in
            // A cursor reuses one row: fetching 1,000 rows as an array cost 1 ms of a one-post rebuild.
            var fingerprints: [String: String] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT path, source_hash FROM search_state")
            while let row = try rows.next() { fingerprints[row[0]] = row[1] }
            return fingerprints
        }
    }

    /// (Re)indexes `documents` and removes the posts at `removing`, in one transaction: a search
    /// never sees half an update. `beforeCommit` runs last inside it, and its error rolls the
    /// update back (a build waits there for its pages to be in place). Each path is looked up on
    /// its own: reading the whole state again cost a one-post rebuild 2.5 M instructions, and the
    /// caller has just read it (`searchIndexFingerprints`) to find what changed.
    public func updateSearchIndex(_ documents: [SearchDocument], removing: [String],
                                  beforeCommit: () throws -> Void = {}) throws {
        try write { db in
            // `search_state` maps paths to the index's rows (FTS5 indexes words, not `path`).
            // Statements prepared once per connection, not once per post (a first build indexes 1,000).
            let findRow = try db.cachedStatement(sql: "SELECT doc FROM search_state WHERE path = ?")
            let deletePost = try db.cachedStatement(sql: "DELETE FROM search_posts WHERE rowid = ?")
            let deleteState = try db.cachedStatement(sql: "DELETE FROM search_state WHERE path = ?")
            for path in Set(removing + documents.map(\.path)) {
                guard let rowid = try Int64.fetchOne(findRow, arguments: [path]) else { continue }
                try deletePost.execute(arguments: [rowid])
                try deleteState.execute(arguments: [path])
            }
            let insertPost = try db.cachedStatement(sql: """
                INSERT INTO search_posts (rowid, title, tags, body, path, source_hash, published) VALUES (?, ?, ?, ?, ?, ?, ?)
                """)
            let insertState = try db.cachedStatement(sql: "INSERT OR REPLACE INTO search_state (path, doc, source_hash) VALUES (?, ?, ?)")
            for var document in documents {
                // The snippet marks are the index's own: text never carries them in.
                document.body = SearchHit.withoutMarks(document.body)
                document.title = SearchHit.withoutMarks(document.title)
                let rowid = try Self.rowid(publishedAt: document.published, db)
                try insertPost.execute(arguments: [rowid, document.title, document.tags.joined(separator: " "), document.body,
                                                   document.path, document.sourceHash, document.published.timeIntervalSince1970])
                try insertState.execute(arguments: [document.path, rowid, document.sourceHash])
            }
            try beforeCommit()
        }
    }

    /// Posts matching `query` (FTS5 syntax: words, `"phrases"`, `prefix*`, `OR`, `NOT`), best
    /// first: title matches weigh most, then tags, then the text. A query that is not valid
    /// syntax is searched as plain words, and the results say so. The query is held to
    /// `SearchBounds` (terms, prefix length) and stopped after `cpuLimit` of CPU time; the
    /// results' `limit` says what was left out.
    public func search(_ query: String, limit: Int = 20, offset: Int = 0,
                       cpuLimit: Duration = SearchBounds.cpuLimit) throws -> SearchResults {
        let query = String(query.unicodeScalars.prefix(Self.maximumQueryLength))
        let match: String
        var cut: SearchLimit?
        switch SearchBounds.bound(query) {
        case .whole(let whole): match = whole
        case .cut(let kept): (match, cut) = (kept, .termsCut(kept: SearchBounds.maximumTerms))
        case .refused(let reason): return SearchResults(hits: [], total: 0, searchedWordsOnly: false, limit: reason)
        }
        do {
            var results: SearchResults
            do {
                results = try read { db in
                    try Self.limitingCPU(cpuLimit, db) { try Self.search(db, match: match, limit: limit, offset: offset, wordsOnly: false) }
                }
            } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
                // FTS5 reports its syntax errors as plain SQLITE_ERROR ("fts5: syntax error near …").
                let words = Self.plainWords(match)
                guard !words.isEmpty else { return SearchResults(hits: [], total: 0, searchedWordsOnly: true, limit: cut) }
                results = try read { db in
                    try Self.limitingCPU(cpuLimit, db) { try Self.search(db, match: words, limit: limit, offset: offset, wordsOnly: true) }
                }
            }
            results.limit = cut
            return results
        } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT {
            return SearchResults(hits: [], total: 0, searchedWordsOnly: false, limit: .stopped(after: cpuLimit))
        }
    }

    /// Runs `body` with every statement on `db` interrupted (SQLITE_INTERRUPT) once this thread
    /// has spent `limit` of CPU time. SQLite checks between virtual-machine instructions (every
    /// 1,000, some microseconds): one instruction that runs long (FTS5 merging the lists of a
    /// short prefix, a snippet of a row) is bounded by `SearchBounds` instead.
    private static func limitingCPU<T>(_ limit: Duration, _ db: Database, _ body: () throws -> T) rethrows -> T {
        let (seconds, attoseconds) = limit.components
        lectern_sqlite_limit_cpu_time(UnsafeMutableRawPointer(db.sqliteConnection), seconds * 1_000_000_000 + attoseconds / 1_000_000_000, 1000)
        defer { lectern_sqlite_limit_cpu_time(UnsafeMutableRawPointer(db.sqliteConnection), 0, 0) }
        return try body()
    }

    /// Rows are numbered in publication order (the second times 2^20, plus the first free slot):
    /// "newest first" is then FTS5's own rowid order, which costs nothing to follow. Dates are
    /// clamped to what fits (±8,700 years around 1970).
    static func rowid(publishedAt date: Date, _ db: Database) throws -> Int64 {
        let slots: Int64 = 1 << 20
        let limit = Double(Int64.max / slots - 1)
        let second = Int64(max(-limit, min(limit, date.timeIntervalSince1970.rounded(.down))))
        let base = second * slots
        let last = try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(rowid) FROM search_posts WHERE rowid BETWEEN ? AND ?"),
                                      arguments: [base, base + slots - 1])
        guard let last else { return base }
        guard last < base + slots - 1 else { throw StoreError.conflict("more than \(slots) posts published in one second") }
        return last + 1
    }

    /// Long enough for any real query; it bounds the work one request can ask of the index.
    public static let maximumQueryLength = 200

    private static func search(_ db: Database, match: String, limit: Int, offset: Int, wordsOnly: Bool) throws -> SearchResults {
        // One count of every match: it tells the page count and whether the query is broad, and a
        // capped count (`LIMIT` in a subquery) cost FTS5 more, not less, for phrases.
        let matches = try Int.fetchOne(db, sql: "SELECT count(*) FROM search_posts WHERE search_posts MATCH ?", arguments: [match]) ?? 0
        let total = min(matches, SearchResults.countLimit)
        guard total > offset else { return SearchResults(hits: [], total: total, searchedWordsOnly: wordsOnly) }
        // Rank every match (`rank` is the weighted bm25 the migration set), then make snippets for
        // this page's rows only, found by rowid. A query that matches more than half of the posts
        // is listed newest first: bm25 gives a word found in most documents a weight of almost
        // nothing (its IDF is floored), so its scores cannot tell those posts apart, and ranking
        // thousands of matches would cost ~2 µs each for that noise.
        let posts = try Int.fetchOne(db, sql: "SELECT count(*) FROM search_posts_docsize") ?? 0
        let order = matches * 2 > posts && matches >= Self.broadFrom ? "rowid DESC" : "rank"
        let ranked = try Int64.fetchAll(db, sql: "SELECT rowid FROM search_posts WHERE search_posts MATCH ? ORDER BY \(order) LIMIT ? OFFSET ?",
                                        arguments: [match, limit, offset])
        let rows = try Row.fetchAll(db, sql: """
            SELECT rowid, path, title, published, snippet(search_posts, 2, char(57344), char(57345), '…', 28)
            FROM search_posts WHERE search_posts MATCH ? AND rowid IN (\(ranked.map(String.init).joined(separator: ",")))
            """, arguments: [match])
        var byRow: [Int64: SearchHit] = [:]
        for row in rows {
            byRow[row[0]] = SearchHit(path: row[1], title: row[2], published: Date(timeIntervalSince1970: row[3]), snippet: row[4] ?? "")
        }
        return SearchResults(hits: ranked.compactMap { byRow[$0] }, total: total, searchedWordsOnly: wordsOnly)
    }

    /// Below this many matches ranking is cheap whatever the share of posts (a small blog's
    /// searches stay ranked).
    static let broadFrom = 200

    /// Each run of letters and digits as a quoted FTS5 string: always valid syntax.
    static func plainWords(_ query: String) -> String {
        var words: [String] = []
        var current = ""
        for scalar in query.unicodeScalars {
            if CharacterSet.alphanumerics.contains(scalar) { current.unicodeScalars.append(scalar) } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words.prefix(32).map { "\"\($0)\"" }.joined(separator: " ")
    }
}
