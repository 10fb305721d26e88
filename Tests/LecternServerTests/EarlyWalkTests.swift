import Foundation
import Testing

/// `lectern build` starts walking the sources before argument-parser has parsed the command line,
/// guessing the site folder from the plain argument forms. Whatever the form, and whatever the
/// guess, the build is of the folder argument-parser names, with the sources as they are.
@Suite struct EarlyWalkTests {
    @Test func everyWayOfNamingTheSiteBuildsItsCurrentSources() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-early-\(UUID().uuidString)")
        let other = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-early-\(UUID().uuidString)")
        defer { for folder in [root, other] { try? FileManager.default.removeItem(at: folder) } }
        for folder in [root, other] { #expect(try run([lecternBinary, "init", folder.path]).0 == 0) }
        let forms: [(arguments: [String], directory: URL?)] = [
            (["build", "-s", root.path], nil),
            (["build", "--site", root.path, "-q"], nil),
            (["build", "--site=\(root.path)"], nil),
            (["build", "--drafts", "--future", "-s", root.path], nil),
            (["build", "-qs", root.path], nil),                  // combined flags: left to argument-parser
            (["build", "-s", other.path, "-s", root.path], nil), // the last one counts, as for argument-parser
            (["build"], root),                                   // the current folder
            (["build", "-s", root.path], other),
            (["build", "-s", "."], root),
        ]
        for (number, form) in forms.enumerated() {
            let slug = "edit-\(number)"
            try "---\ntitle: Edit \(number)\ndate: 2025-06-01\n---\nWords.\n"
                .write(to: root.appendingPathComponent("content/posts/\(slug).md"), atomically: true, encoding: .utf8)
            let (status, output) = try run([lecternBinary] + form.arguments, currentDirectory: form.directory)
            #expect(status == 0, "\(form.arguments): \(output)")
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("public/2025/\(slug)/index.html").path),
                    "\(form.arguments) in \(form.directory?.lastPathComponent ?? "the test's folder") built the new post")
        }
    }
}
