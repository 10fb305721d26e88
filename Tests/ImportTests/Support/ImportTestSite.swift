import BlogModel
import Foundation
@testable import Import
import Site

/// A fresh Lectern site (made by `lectern init`'s scaffold) to import into, build and read back.
struct ImportTestSite {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-import-\(UUID().uuidString)")
        try SiteScaffold.create(at: root)
    }

    static var fixtures: URL {
        URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/import")
    }

    static func fixture(_ name: String) -> URL { fixtures.appendingPathComponent(name) }

    var options: Importer.Options { Importer.Options(siteRoot: root, timeZone: TimeZone(identifier: "UTC")!) }

    func importFixture(_ name: String, configure: (inout Importer.Options) -> Void = { _ in },
                       downloader: (any ImageDownloader)? = nil) async throws -> ImportReport {
        var options = options
        configure(&options)
        return try await Importer(options: options, downloader: downloader).run(source: Self.fixture(name).path)
    }

    @discardableResult
    func build() throws -> BuildReport {
        try SiteBuilder(root: root).build(.init(includeDrafts: true))
    }

    func load() throws -> SiteContent {
        try ContentLoader(root: root, timeZone: TimeZone(identifier: "UTC")!).load(includeDrafts: true)
    }

    func read(_ relative: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
    }

    func exists(_ relative: String) -> Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent(relative).path)
    }

    /// The rendered body of the post or page at `url` in `public/`: the article's content
    /// `<div>`, without the title, meta line, tags and navigation around it.
    func renderedBody(at url: String) throws -> String {
        let html = try read("public\(url)index.html")
        for opening in ["<div class=\"content e-content\" dir=\"auto\">", "<div class=\"content\" dir=\"auto\">"] {
            guard let start = html.range(of: opening) else { continue }
            let rest = html[start.upperBound...]
            let stops = ["<ul class=\"tags\"", "<a class=\"u-url\"", "</article>"].compactMap { rest.range(of: $0)?.lowerBound }
            guard let stop = stops.min(), let close = rest[..<stop].range(of: "</div>", options: .backwards) else { continue }
            return String(rest[..<close.lowerBound])
        }
        throw CocoaError(.fileReadCorruptFile)
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
}
