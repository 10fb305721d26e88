import Foundation
import Testing

/// `lectern build` reads its plain arguments itself and leaves every other form to
/// argument-parser (`BuildCommand.plainRequest`). Whichever reads them, the same request builds
/// the same way, and a mistake gets argument-parser's own report.
@Suite struct PlainBuildArgumentsTests {
    @Test func everyWayOfNamingTheSiteBuildsItsCurrentSources() throws {
        let (root, other) = (try Self.newSite(), try Self.newSite())
        defer { for folder in [root, other] { try? FileManager.default.removeItem(at: folder) } }
        let forms: [(arguments: [String], directory: URL?)] = [
            (["build", "-s", root.path], nil),
            (["build", "--site", root.path, "-q"], nil),
            (["build", "--site=\(root.path)"], nil),
            (["build", "--drafts", "--future", "-s", root.path], nil),
            (["build", "-qs", root.path], nil),                  // combined flags: argument-parser's
            (["build", "-s", other.path, "-s", root.path], nil), // a repeat: argument-parser's, the last one counts
            (["build"], root),                                   // the current folder
            (["build", "-s", root.path], other),
            (["build", "-s", "."], root),
        ]
        for (number, form) in forms.enumerated() {
            let slug = "edit-\(number)"
            try Self.write(slug, to: root)
            let (status, output) = try run([lecternBinary] + form.arguments, currentDirectory: form.directory)
            #expect(status == 0, "\(form.arguments): \(output)")
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("public/2025/\(slug)/index.html").path),
                    "\(form.arguments) in \(form.directory?.lastPathComponent ?? "the test's folder") built the new post")
        }
    }

    /// Each option read the plain way, then in a form that only argument-parser reads.
    @Test func optionsMeanTheSameWhicheverReadsThem() throws {
        let root = try Self.newSite()
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.write("a-draft", to: root, frontMatter: "draft: true\n")
        try Self.write("ahead", to: root, date: "2999-01-01")
        let draft = root.appendingPathComponent("public/2025/a-draft/index.html").path
        let ahead = root.appendingPathComponent("public/2999/ahead/index.html").path
        let pairs: [(plain: [String], parsed: [String], drafts: Bool, future: Bool, quiet: Bool)] = [
            (["--drafts"], ["--drafts", "--drafts"], true, false, false),
            (["--future", "-q"], ["-q", "--future", "--quiet"], false, true, true),
            ([], ["-s", root.path, "-s", root.path], false, false, false),
            (["--quiet", "--drafts", "--future"], ["--drafts", "--future", "-qs", root.path], true, true, true),
        ]
        for pair in pairs {
            for arguments in [["build", "-s", root.path] + pair.plain, ["build"] + pair.parsed] {
                let (status, output) = try run([lecternBinary] + arguments, currentDirectory: root)
                #expect(status == 0, "\(arguments): \(output)")
                #expect(output.contains("built in") == !pair.quiet, "\(arguments) printed: \(output)")
                #expect(FileManager.default.fileExists(atPath: draft) == pair.drafts, "\(arguments): the draft")
                #expect(FileManager.default.fileExists(atPath: ahead) == pair.future, "\(arguments): the future post")
            }
        }
    }

    @Test func mistakesAreReportedByArgumentParserAndBuildNothing() throws {
        let root = try Self.newSite()
        defer { try? FileManager.default.removeItem(at: root) }
        for arguments in [["-s", "-q"], ["--site="], ["-s"], ["-q", "--site"], ["--drafts", root.path], ["--site", "--drafts"]] {
            let (status, output) = try run([lecternBinary, "build"] + arguments, currentDirectory: root)
            #expect(status == 1 && output.hasPrefix("error: "), "\(arguments): \(output)")
            #expect(output.contains("Usage: lectern build"), "\(arguments): \(output)")
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("public").path), "\(arguments) built")
        }
        // Read the plain way, a folder that is not a site is the build's error, reported as ours are.
        let missing = root.appendingPathComponent("no-such-site").path
        let (missingStatus, missingOutput) = try run([lecternBinary, "build", "-q", "-s", missing])
        #expect(missingStatus == 1 && missingOutput.hasPrefix("error: "), "\(missingOutput)")
        #expect(!FileManager.default.fileExists(atPath: missing), "nothing is made where no site is")
        let (status, help) = try run([lecternBinary, "build", "--help"])
        #expect(status == 0 && help.contains("--drafts") && help.contains("USAGE: lectern build"), "\(help)")
    }

    private static func newSite() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-plain-\(UUID().uuidString)")
        #expect(try run([lecternBinary, "init", folder.path]).0 == 0)
        return folder
    }

    private static func write(_ slug: String, to root: URL, date: String = "2025-06-01", frontMatter: String = "") throws {
        try "---\ntitle: \(slug)\ndate: \(date)\n\(frontMatter)---\nWords.\n"
            .write(to: root.appendingPathComponent("content/posts/\(slug).md"), atomically: true, encoding: .utf8)
    }
}
