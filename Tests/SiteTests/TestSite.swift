import Foundation
import Testing
@testable import Site

/// A throwaway site folder for one test.
struct TestSite {
    let root: URL

    init(config: String = "title: Test Blog\nbaseURL: https://blog.example\nauthor: Tess\npostsPerPage: 2\n") throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("content/posts"),
                                                withIntermediateDirectories: true)
        try write("lectern.yml", config)
    }

    func write(_ path: String, _ text: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func post(_ name: String, title: String, date: String, extra: String = "", body: String = "Body text.") throws {
        try write("content/posts/\(name).md", "---\ntitle: \(title)\ndate: \(date)\n\(extra)---\n\n\(body)\n")
    }

    func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent("public").appendingPathComponent(path), encoding: .utf8)
    }

    func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent("public").appendingPathComponent(path).path)
    }

    @discardableResult
    func build(drafts: Bool = false) throws -> BuildReport {
        try SiteBuilder(root: root).build(.init(includeDrafts: drafts))
    }

    /// The build's record `name` (`posts`, `inputs`), kept beside `public/`.
    func record(_ name: String) -> URL { BuildRecords(outputFolder: root.appendingPathComponent("public")).file(name) }

    /// The manifest of the tree now in `public/`.
    func manifest() throws -> URL {
        let folder = root.appendingPathComponent("public")
        return try #require(BuildRecords(outputFolder: folder).manifest(of: folder))
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
}
