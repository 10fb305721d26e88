import Foundation
import Glibc
import Site
import Testing

/// What an operator meets, through the real executable: `--json` on `build`, `publish`, `version`
/// and `digest` (stdout is one JSON document and nothing else), `init` with the blog's address
/// and owner, a command run as root on a site another user owns, and the modes of what a command
/// writes whatever its umask.
@Suite struct OperatorCommandTests {
    @Test func buildPublishVersionAndDigestPrintOneJSONDocument() throws {
        let site = try newSite()
        defer { try? FileManager.default.removeItem(at: site.deletingLastPathComponent()) }
        let first = try jsonObject(["build", "--json", "-s", site.path])
        #expect((first["written"] as? Int ?? 0) > 0 && (first["pagesRendered"] as? Int ?? 0) > 0, "\(first)")
        #expect(first["preview"] as? Bool == false)
        #expect((first["output"] as? String)?.hasSuffix("/public") == true)
        #expect(first["warnings"] as? [String] == [] && first["scheduled"] as? [String] == [])
        let again = try jsonObject(["build", "--json", "-s", site.path])
        #expect(again["written"] as? Int == 0, "nothing changed: \(again)")

        let version = try jsonObject(["version", "--json"])
        #expect((version["lectern"] as? String)?.isEmpty == false)
        let libraries = try #require(version["libraries"] as? [String: String])
        #expect(libraries["openssl"] != nil && libraries["libcurl"] != nil && libraries["cmark-gfm"] != nil, "\(libraries)")

        let published = try jsonObject(["publish", "--json", "-s", site.path])
        let recorded = (published["created"] as? [String] ?? []) + (published["recordedWithoutAnnouncing"] as? [String] ?? [])
        #expect(!recorded.isEmpty, "the example posts: \(published)")
        #expect(published["updated"] as? [String] == [] && published["deleted"] as? [String] == [])
        #expect(published["deliveriesQueued"] as? Int == 0, "no followers yet")
        #expect(published["delivery"] is [String: Any], "delivered now (no server runs): \(published)")
        let queued = try jsonObject(["publish", "--json", "--queue-only", "-s", site.path])
        #expect(queued["delivery"] == nil, "--queue-only delivers nothing: \(queued)")

        let digest = try jsonObject(["digest", "--json", "-s", site.path])
        #expect(digest["preview"] is String && digest["sent"] == nil, "\(digest)")
    }

    @Test func initWritesTheAddressAndOwnerItIsGiven() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-init-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let site = folder.appendingPathComponent("site")
        let (status, output, errors) = try runSplit([lecternBinary, "init", site.path, "--base-url", "https://blog.example/",
                                                     "--owner", "you@social.example", "--title", "Notes: one #1"])
        #expect(status == 0, "\(errors)")
        #expect(output.contains("lectern serve -s \(site.path) --watch") && output.contains("systemctl enable --now lectern"), "\(output)")
        let config = try String(contentsOf: site.appendingPathComponent("lectern.yml"), encoding: .utf8)
        #expect(config.contains("baseURL: https://blog.example\n") && config.contains("owner: \"@you@social.example\""), "\(config)")
        let built = try jsonObject(["build", "--json", "-s", site.path])
        #expect(built["warnings"] as? [String] == [])
        let page = try String(contentsOf: site.appendingPathComponent("public/index.html"), encoding: .utf8)
        #expect(page.contains("Notes: one #1") && page.contains("https://blog.example/"), "the title and address as given")

        for bad in [["--base-url", "blog.example"], ["--base-url", "https://blog.example/blog/"], ["--owner", "you"]] {
            let elsewhere = folder.appendingPathComponent("bad")
            let (status, _, errors) = try runSplit([lecternBinary, "init", elsewhere.path] + bad)
            #expect(status == 1 && errors.hasPrefix("error: \(bad[0])"), "\(bad): \(errors)")
            #expect(!FileManager.default.fileExists(atPath: elsewhere.path), "nothing made")
        }
    }

    /// `sudo lectern build` on the service user's site would leave files it cannot replace.
    @Test(.enabled(if: geteuid() == 0, "needs root: a command run as root on a site another user owns"))
    func rootRefusesASiteAnotherUserOwns() throws {
        let site = try newSite()
        defer { try? FileManager.default.removeItem(at: site.deletingLastPathComponent()) }
        let nobody = 65534
        #expect(chown(site.path, uid_t(nobody), gid_t(nobody)) == 0)
        let before = try FileManager.default.subpathsOfDirectory(atPath: site.path).sorted()
        for command in ["build", "status", "publish"] {
            let (status, output, errors) = try runSplit([lecternBinary, command, "-s", site.path])
            #expect(status != 0, "\(command) ran: \(output)")
            #expect(errors.contains("belongs to nobody") && errors.contains("sudo -u nobody lectern \(command)"), "\(errors)")
        }
        #expect(try FileManager.default.subpathsOfDirectory(atPath: site.path).sorted() == before, "nothing written")
        // A site root owns (or a command that is not root) runs as before.
        #expect(chown(site.path, 0, 0) == 0)
        #expect(try runSplit([lecternBinary, "status", "-s", site.path]).status == 0)
    }

    /// The package's site folder is 0750 and its service runs with `UMask=0027`; a command run
    /// by hand with umask 022 writes the same modes. A folder others may enter keeps the umask.
    @Test func aSiteClosedToOthersGetsNoFilesForOthers() throws {
        let site = try newSite()
        defer { try? FileManager.default.removeItem(at: site.deletingLastPathComponent()) }
        func mode(_ path: String) throws -> Int {
            (try FileManager.default.attributesOfItem(atPath: site.appendingPathComponent(path).path)[.posixPermissions] as? Int) ?? -1
        }
        #expect(chmod(site.path, 0o750) == 0)
        let (status, _, errors) = try runSplit(["/bin/sh", "-c", "umask 022; exec '\(lecternBinary)' build -q -s '\(site.path)'"])
        #expect(status == 0, "\(errors)")
        #expect(try mode("public/index.html") == 0o640 && mode("public/assets") == 0o750, "as the service writes them")
        #expect(try mode("data/lectern.sqlite") & 0o077 == 0)
        #expect(chmod(site.path, 0o755) == 0)
        try "---\ntitle: Open\ndate: 2025-05-01\n---\nText.\n".write(to: site.appendingPathComponent("content/posts/open.md"),
                                                                      atomically: true, encoding: .utf8)
        #expect(try runSplit(["/bin/sh", "-c", "umask 022; exec '\(lecternBinary)' build -q -s '\(site.path)'"]).status == 0)
        #expect(try mode("public/2025/open/index.html") == 0o644, "an open folder keeps the umask")
    }

    /// A blog on `http://127.0.0.1` (as `lectern init` makes it) sends nothing anywhere: no
    /// webmention to the sites a new post links to, no digest. Given a public https `baseURL`, it does.
    @Test func aLocalBlogSendsNothing() throws {
        let site = try newSite()
        defer { try? FileManager.default.removeItem(at: site.deletingLastPathComponent()) }
        func addPost(_ slug: String) throws {
            try "---\ntitle: \(slug)\ndate: \(dated())\n---\nSee [this page](https://elsewhere.example/\(slug)).\n"
                .write(to: site.appendingPathComponent("content/posts/\(slug).md"), atomically: true, encoding: .utf8)
        }
        _ = try jsonObject(["publish", "--json", "--queue-only", "-s", site.path])
        try addPost("first-note")
        let local = try jsonObject(["publish", "--json", "--queue-only", "-s", site.path])
        #expect(local["created"] as? [String] == ["/\(Calendar.current.component(.year, from: Date()))/first-note/"], "\(local)")
        #expect((local["quiet"] as? String)?.contains("http://127.0.0.1:8080") == true, "\(local)")
        #expect(try jsonObject(["deliveries", "--json", "-s", site.path])["queued"] as? Int == 0, "no webmention queued")
        #expect(try jsonObject(["status", "--json", "-s", site.path])["quiet"] is String)

        let file = site.appendingPathComponent("lectern.yml")
        try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "baseURL: http://127.0.0.1:8080", with: "baseURL: https://blog.example")
            .write(to: file, atomically: true, encoding: .utf8)
        try addPost("second-note")
        let live = try jsonObject(["publish", "--json", "--queue-only", "-s", site.path])
        #expect(live["quiet"] == nil, "\(live)")
        #expect((try jsonObject(["deliveries", "--json", "-s", site.path])["queued"] as? Int ?? 0) >= 1, "its webmention is queued")
        #expect(try jsonObject(["status", "--json", "-s", site.path])["quiet"] == nil)
    }

    /// `lectern theme export` writes the built-in theme into `theme/`; the site built after it is
    /// the same, byte for byte. A file already there (the writer's change) is kept unless `--force`.
    @Test func theExportedThemeBuildsTheSameSite() throws {
        let site = try newSite()
        defer { try? FileManager.default.removeItem(at: site.deletingLastPathComponent()) }
        func published() throws -> [String: Data] {
            let folder = site.appendingPathComponent("public")
            var files: [String: Data] = [:]
            for path in try FileManager.default.subpathsOfDirectory(atPath: folder.path) {
                var isFolder: ObjCBool = false
                let full = folder.appendingPathComponent(path).path
                if FileManager.default.fileExists(atPath: full, isDirectory: &isFolder), !isFolder.boolValue {
                    files[path] = FileManager.default.contents(atPath: full)
                }
            }
            return files
        }
        _ = try jsonObject(["build", "--json", "-s", site.path])
        let before = try published()
        let (status, output, errors) = try runSplit([lecternBinary, "theme", "export", "-s", site.path])
        #expect(status == 0, "\(errors)")
        #expect(output.contains("wrote \(Theme.embeddedFiles.count) file(s)"), "\(output)")
        let theme = site.appendingPathComponent("theme")
        #expect(try FileManager.default.contentsOfDirectory(atPath: theme.path).sorted() == Theme.embeddedFiles.keys.sorted())
        _ = try jsonObject(["build", "--json", "-s", site.path])
        let after = try published()
        #expect(after.keys.sorted() == before.keys.sorted())
        #expect(after.filter { before[$0.key] != $0.value }.keys.sorted() == [], "byte for byte the same")

        let post = theme.appendingPathComponent("post.mustache")
        try Data("changed".utf8).write(to: post)
        let again = try runSplit([lecternBinary, "theme", "export", "post.mustache", "-s", site.path])
        #expect(again.output.contains("kept 1 file(s)") && FileManager.default.contents(atPath: post.path) == Data("changed".utf8))
        #expect(try runSplit([lecternBinary, "theme", "export", "post.mustache", "--force", "-s", site.path]).status == 0)
        #expect(FileManager.default.contents(atPath: post.path) == Data(Theme.embeddedFiles["post.mustache"]!))
        let unknown = try runSplit([lecternBinary, "theme", "export", "nope.mustache", "-s", site.path])
        #expect(unknown.status == 1 && unknown.errors.contains("not a file of the built-in theme"), "\(unknown.errors)")
    }

    private func newSite() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-json-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let site = folder.appendingPathComponent("site")
        let (status, output, errors) = try runSplit([lecternBinary, "init", site.path])
        #expect(status == 0, "\(output)\(errors)")
        return site
    }

    /// Runs the command; stdout must be exactly one JSON object.
    private func jsonObject(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let (status, output, errors) = try runSplit([lecternBinary] + arguments)
        #expect(status == 0, "lectern \(arguments.joined(separator: " ")): \(errors)", sourceLocation: sourceLocation)
        let object = try JSONSerialization.jsonObject(with: Data(output.utf8))
        return try #require(object as? [String: Any], "\(output)", sourceLocation: sourceLocation)
    }

    /// stdout and stderr apart (stderr through a file: two pipes read one after the other can fill).
    private func runSplit(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        let errorsFile = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errorsFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorsFile) }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = try FileHandle(forWritingTo: errorsFile)
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self), try String(contentsOf: errorsFile, encoding: .utf8))
    }
}
