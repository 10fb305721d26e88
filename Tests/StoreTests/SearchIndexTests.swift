import Foundation
import GRDB
import LecternMigrations
import Testing
@testable import Storage

/// The full-text index behind `/search`: ranking, snippets, updates and bad queries.
@Suite struct SearchIndexTests {
    static func document(_ path: String, _ title: String, _ body: String, tags: [String] = [], hash: String = "1") -> SearchDocument {
        SearchDocument(path: path, title: title, tags: tags, body: body, published: Date(timeIntervalSince1970: 1_700_000_000),
                       sourceHash: hash)
    }

    @Test func ranksTitlesFirstAndMarksTheMatchedWords() throws {
        let store = try Store.inMemory()
        try store.search.updateSearchIndex([
            Self.document("/2025/body/", "Notes on parsers", "A long text that mentions actors once, among many other words."),
            Self.document("/2025/title/", "Actors in Swift", "Isolation and the rest."),
            Self.document("/2025/none/", "Gardening", "Tomatoes."),
        ], removing: [])
        let results = try store.search.search("actors")
        #expect(results.total == 2 && !results.searchedWordsOnly)
        #expect(results.hits.map(\.path) == ["/2025/title/", "/2025/body/"], "a title match ranks above a mention")
        #expect(results.hits[1].snippet.contains("\(SearchHit.markStart)actors\(SearchHit.markEnd)"))
        #expect(try store.search.search("café").total == 0)
        try store.search.updateSearchIndex([Self.document("/2025/cafe/", "Le café", "Un crème.")],
                                    removing: ["/2025/body/", "/2025/title/", "/2025/none/", "/2025/never-indexed/"])
        #expect(try store.search.search("cafe").hits.map(\.path) == ["/2025/cafe/"], "diacritics fold")
        #expect(try store.search.search("actors").total == 0, "posts removed are gone from the index")
        #expect(try store.search.search("caf*").total == 1, "prefix queries")
    }

    /// A store indexed before `search_state` existed (migration 0007) keeps its index: the
    /// migration fills the table, and updates and removals go on from it.
    @Test func anIndexFromBeforeTheStateTableCarriesOver() throws {
        let queue = try DatabaseQueue()
        let before = Array(Migrations.all.prefix { $0.name != "0007_search_state.sql" })
        #expect(before.count < Migrations.all.count)
        let old = try Store(database: queue, migrations: before)
        try old.updateSearchIndexBeforeStateTable([Self.document("/a/", "Alpha", "First.", hash: "h1"),
                                                   Self.document("/b/", "Beta", "Second.", hash: "h2")])
        let store = try Store(database: queue)
        #expect(try store.search.searchIndexFingerprints() == ["/a/": "h1", "/b/": "h2"])
        try store.search.updateSearchIndex([Self.document("/a/", "Alpha", "Rewritten.", hash: "h3")], removing: ["/b/"])
        #expect(try store.search.searchIndexFingerprints() == ["/a/": "h3"])
        #expect(try store.search.search("second").total == 0 && store.search.search("first").total == 0)
        #expect(try store.search.search("rewritten").hits.map(\.path) == ["/a/"])
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM search_posts") } == 1)
    }

    @Test func invalidSyntaxSearchesTheWordsAndNeverThrows() throws {
        let store = try Store.inMemory()
        try store.search.updateSearchIndex([Self.document("/2025/c/", "C++ templates", "Angle brackets everywhere.")], removing: [])
        for query in ["c++", "\"unterminated", "templates AND", "(((", "NEAR(", "*", "-", "\u{0}"] {
            let results = try store.search.search(query)
            #expect(results.searchedWordsOnly || results.total >= 0, "\(query)")
        }
        let plus = try store.search.search("c++ templates")
        #expect(plus.searchedWordsOnly && plus.total == 1)
        #expect(try store.search.search("***").hits.isEmpty)
        #expect(try store.search.search(String(repeating: "templates OR ", count: 500)).total == 1, "long queries are cut, not refused")
    }

    @Test func textNeverCarriesTheMarksIn() throws {
        let store = try Store.inMemory()
        try store.search.updateSearchIndex([Self.document("/2025/m/", "Marks", "before \(SearchHit.markStart)fake\(SearchHit.markEnd) after")],
                                    removing: [])
        let snippet = try #require(try store.search.search("fake").hits.first?.snippet)
        #expect(snippet.filter { $0 == SearchHit.markStart }.count == 1, "\(snippet)")
        // A mark followed by a combining accent is one character with it, and still goes.
        let hidden = "before \u{E000}\u{301}fake\u{E001}\u{301} after"
        #expect(SearchHit.withoutMarks(hidden) == "before \u{301}fake\u{301} after")
        #expect(SearchHit.withoutMarks("no marks: \u{E002} é") == "no marks: \u{E002} é")
        #expect(SearchHit.withoutMarks("") == "")
    }

    @Test func fingerprintsTellWhatToIndexAgain() throws {
        let store = try Store.inMemory()
        try store.search.updateSearchIndex([Self.document("/a/", "A", "x", hash: "h1")], removing: [])
        #expect(try store.search.searchIndexFingerprints() == ["/a/": "h1"])
        try store.search.updateSearchIndex([Self.document("/a/", "A", "y", hash: "h2")], removing: [])
        #expect(try store.search.searchIndexFingerprints() == ["/a/": "h2"])
        #expect(try store.search.search("x").total == 0 && store.search.search("y").total == 1, "replaced, not added")
    }

    /// A word in most posts says nothing about relevance (bm25 floors its weight): such a query
    /// lists its matches newest first, and a selective one stays ranked.
    @Test func broadQueriesAreNewestFirst() throws {
        let store = try Store.inMemory()
        let count = SearchResults.countLimit + 99
        var documents: [SearchDocument] = []
        for i in 0..<count {
            // Dates out of order, several in the same second: the rows still come out newest first.
            var document = Self.document("/p\(i)/", "Post \(i)", "common words " + (i % 10 == 0 ? "rare rare rare" : "filler"))
            document.published = Date(timeIntervalSince1970: 1_700_000_000 + Double((i * 7919) % count / 3) * 60)
            documents.append(document)
        }
        try store.search.updateSearchIndex(documents, removing: [])
        let newest = documents.sorted { $0.published > $1.published }
        let broad = try store.search.search("common", limit: 20, offset: 0)
        #expect(broad.total == SearchResults.countLimit)
        #expect(broad.hits.map(\.published) == newest.prefix(20).map(\.published))
        let page3 = try store.search.search("common", limit: 20, offset: 40)
        #expect(page3.hits.map(\.published) == newest.dropFirst(40).prefix(20).map(\.published))
        // "rare" is in a tenth of the posts: ranked by bm25, which here prefers nothing but is
        // computed (every match has the same text), so just check it is not the broad path's order.
        let selective = try store.search.search("rare", limit: 200, offset: 0)
        #expect(selective.total == documents.filter { $0.body.contains("rare") }.count)
    }

    /// What a query may ask of the index (`SearchBounds`): terms past the eighth are cut off, a
    /// one-letter prefix is refused, and operators and column names are not terms.
    @Test func queriesAreHeldToTheBounds() {
        let nine = (1...9).map { "w\($0)" }
        #expect(SearchBounds.bound(nine.joined(separator: " OR ")) == .cut(nine.prefix(8).joined(separator: " OR ")))
        #expect(SearchBounds.bound(nine.prefix(8).joined(separator: " AND ") + " NOT title:x") == .cut(nine.prefix(8).joined(separator: " AND ")),
                "AND, NOT and a column name are not terms; the ninth term is")
        #expect(SearchBounds.bound("(ab* OR cd* OR ef* OR gh* OR ij* OR kl* OR mn* OR op* OR qr*)") ==
                .cut("(ab* OR cd* OR ef* OR gh* OR ij* OR kl* OR mn* OR op*"), "a prefix mark stays with its term")
        #expect(SearchBounds.bound("\"one two three four five six seven eight nine\"") ==
                .cut("\"one two three four five six seven eight\""), "a phrase cut short is closed")
        for refused in ["a*", "é*", "swift OR x*", "\"big d\"*", "e\u{301}*", "a *"] {
            #expect(SearchBounds.bound(refused) == .refused(.prefixTooShort(minimum: 2)), "\(refused)")
        }
        for whole in ["sw*", "swift actors", "\"a b c\"", "éa*", "c++", "*", "OR *", "NEAR(a b, 3)", ""] {
            #expect(SearchBounds.bound(whole) == .whole(whole), "\(whole)")
        }
    }

    /// A search past its CPU time is stopped (SQLite's progress handler) and says so; the
    /// connection it ran on serves the next search as usual.
    @Test func aSearchPastItsCPUTimeIsStopped() throws {
        let store = try Store.inMemory()
        try store.search.updateSearchIndex((0..<2000).map { Self.document("/p\($0)/", "Post \($0)", "common words here") }, removing: [])
        let stopped = try store.search.search("common", cpuLimit: .nanoseconds(1))
        #expect(stopped.limit == .stopped(after: .nanoseconds(1)) && stopped.hits.isEmpty && stopped.total == 0)
        let whole = try store.search.search("common")
        #expect(whole.limit == nil && whole.total == 1001)
        let cut = try store.search.search((1...20).map { _ in "common" }.joined(separator: " OR "))
        #expect(cut.limit == .termsCut(kept: 8) && cut.total == 1001)
        #expect(try store.search.search("c*").limit == .prefixTooShort(minimum: 2))
    }

    /// Rows are numbered by publication second: dates far in the past or future still index.
    @Test func extremeDatesIndex() throws {
        let store = try Store.inMemory()
        var documents: [SearchDocument] = []
        for (i, seconds) in [-62_135_596_800, 253_402_300_799, Date.distantFuture.timeIntervalSince1970, 1e300, -1e300].enumerated() {
            var document = Self.document("/d\(i)/", "Dated \(i)", "timeless text")
            document.published = Date(timeIntervalSince1970: seconds)
            documents.append(document)
        }
        try store.search.updateSearchIndex(documents, removing: [])
        #expect(try store.search.search("timeless").total == documents.count)
    }
}

extension Store {
    /// What indexing did before migration 0007: rows in `search_posts` alone.
    fileprivate func updateSearchIndexBeforeStateTable(_ documents: [SearchDocument]) throws {
        try database.write { db in
            for (number, document) in documents.enumerated() {
                try db.execute(sql: "INSERT INTO search_posts (rowid, title, tags, body, path, source_hash, published) VALUES (?, ?, '', ?, ?, ?, 0)",
                               arguments: [number + 1, document.title, document.body, document.path, document.sourceHash])
            }
        }
    }
}
