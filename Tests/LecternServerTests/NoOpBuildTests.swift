import Foundation
import Testing

/// `lectern build` with nothing changed returns at once, and anything that changes what the
/// pages show (a source, a moderated comment, another build, a scheduled post coming due)
/// makes it build again.
@Suite struct NoOpBuildTests {
    @Test func aBuildWithNothingChangedDoesNothingAndAnyChangeBuilds() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-noop-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try run([lecternBinary, "init", root.path]).0 == 0)
        #expect(try lectern(["build"], site: root).contains("files written"))
        let again = try lectern(["build"], site: root)
        #expect(again.contains(": 0 files written (0 pages rendered)"), "\(again)")

        let post = root.appendingPathComponent("content/posts/new.md")
        try "---\ntitle: Fresh\ndate: 2025-06-01\n---\nNew words.\n".write(to: post, atomically: true, encoding: .utf8)
        let edited = try lectern(["build"], site: root)
        #expect(!edited.contains(": 0 files written"), "\(edited)")
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("public/2025/fresh/index.html").path))
        #expect(try lectern(["build"], site: root).contains(": 0 files written"))

        // A preview (--drafts) is built into preview/: public/ is untouched, so this is still a no-op.
        try lectern(["build", "--drafts"], site: root)
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("preview/index.html").path))
        let afterDrafts = try lectern(["build"], site: root)
        #expect(afterDrafts.contains(": 0 files written"), "a preview leaves public/ alone: \(afterDrafts)")

        // A post scheduled a few seconds ahead is built once its time has come, with no file touched.
        // The two builds before then must both finish inside that window, on a loaded machine too.
        let soon = ISO8601DateFormatter().string(from: Date().addingTimeInterval(8))
        try "---\ntitle: Soon\ndate: \(soon)\n---\nLater.\n"
            .write(to: root.appendingPathComponent("content/posts/soon.md"), atomically: true, encoding: .utf8)
        try lectern(["build"], site: root)
        #expect(try lectern(["build"], site: root).contains(": 0 files written"))
        Thread.sleep(forTimeInterval: 8.5)
        let due = try lectern(["build"], site: root)
        #expect(!due.contains(": 0 files written"), "\(due)")
        let year = Calendar(identifier: .gregorian).component(.year, from: Date())
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("public/\(year)/soon/index.html").path))
    }

    /// A writer may keep `content/posts` elsewhere and link it in: the posts there are built, and
    /// an edit there is noticed like any other (the stamp enters the linked folder).
    @Test func anEditInALinkedPostsFolderBuilds() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-noop-\(UUID().uuidString)")
        let elsewhere = root.appendingPathExtension("posts")
        defer { for folder in [root, elsewhere] { try? FileManager.default.removeItem(at: folder) } }
        #expect(try run([lecternBinary, "init", root.path]).0 == 0)
        let posts = root.appendingPathComponent("content/posts")
        try FileManager.default.moveItem(at: posts, to: elsewhere)
        try FileManager.default.createSymbolicLink(at: posts, withDestinationURL: elsewhere)
        let post = elsewhere.appendingPathComponent("linked.md")
        try "---\ntitle: Linked\ndate: 2025-06-01\n---\nFirst words.\n".write(to: post, atomically: true, encoding: .utf8)
        #expect(try lectern(["build"], site: root).contains("files written"))
        let page = root.appendingPathComponent("public/2025/linked/index.html")
        #expect(try String(contentsOf: page, encoding: .utf8).contains("First words."))
        #expect(try lectern(["build"], site: root).contains(": 0 files written"))

        // Written in place: the linked folder's own times do not move, only the file's.
        try "---\ntitle: Linked\ndate: 2025-06-01\n---\nSecond words.\n".write(to: post, atomically: false, encoding: .utf8)
        let edited = try lectern(["build"], site: root)
        #expect(!edited.contains(": 0 files written"), "\(edited)")
        #expect(try String(contentsOf: page, encoding: .utf8).contains("Second words."))
    }
}
