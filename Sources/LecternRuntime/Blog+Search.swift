import BlogModel
import Foundation
import Site
import Storage
import Parallel

extension Blog {
    /// Gives the store's search index the posts just built: posts whose source changed are
    /// indexed again (their text read and stripped of markup), posts gone are removed. The
    /// update commits after `beforeCommit` returns, and not if it throws.
    func updateSearchIndex(_ posts: [Post], beforeCommit: () throws -> Void = {}) throws {
        let indexed = try store.search.searchIndexFingerprints()
        let changed = posts.filter { indexed[$0.path] != $0.sourceHash.hex }
        guard !changed.isEmpty || indexed.count != posts.count else { return }
        let loader = ContentLoader(root: root, timeZone: config.timeZone)
        let documents = try ParallelMap.map(changed) { post in
            SearchDocument(path: post.path, title: post.title, tags: post.tags + [post.category, post.series].compactMap { $0 },
                           body: try loader.plainText(of: post), published: post.date, sourceHash: post.sourceHash.hex)
        }
        // Posts gone from the site: only looked for when the counts say there are some.
        let added = changed.count { indexed[$0.path] == nil }
        var removing: [String] = []
        if indexed.count > posts.count - added {
            let current = Set(posts.map(\.path))
            removing = indexed.keys.filter { !current.contains($0) }
        }
        try store.search.updateSearchIndex(documents, removing: removing, beforeCommit: beforeCommit)
    }

    /// Results per page of `/search`.
    public static let searchResultsPerPage = 20

    /// The `/search?q=` page: the store's ranked matches in the theme's `search` template.
    /// `page` counts from 1; an empty query shows the form alone.
    public func searchPage(query: String, page: Int) throws -> String {
        // Searched and shown as the store cuts it: a long query is not echoed back whole.
        let query = String(query.trimmingCharacters(in: .whitespacesAndNewlines).unicodeScalars.prefix(SearchIndex.maximumQueryLength))
        let perPage = Self.searchResultsPerPage
        var outcome = SearchPage.Outcome(query: query, page: page, perPage: perPage)
        if !query.isEmpty {
            let results = try store.search.search(query, limit: perPage, offset: (page - 1) * perPage)
            outcome.hits = results.hits.map { SearchPage.Hit(path: $0.path, title: $0.title, published: $0.published, snippet: $0.snippet) }
            outcome.total = results.total
            outcome.searchedWordsOnly = results.searchedWordsOnly
            outcome.limitNotice = results.limit?.message
            outcome.searched = results.limit?.searched ?? true
        }
        return try currentSearchPage().render(outcome)
    }

    /// A notice page through the theme (`SearchPage.notice`).
    public func noticePage(title: String, html: String) throws -> String {
        try currentSearchPage().notice(title: title, html: html)
    }

    /// One `SearchPage` per build of `public/`: theme, settings and navigation read once.
    private func currentSearchPage() throws -> SearchPage {
        let stamp = builder.buildStamp()
        if let cached = searchPages.withLock({ $0 }), cached.stamp == stamp { return cached.page }
        let page = try SearchPage(root: root, mark: (SearchHit.markStart, SearchHit.markEnd))
        searchPages.withLock { $0 = (stamp, page) }
        return page
    }
}
