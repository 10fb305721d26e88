import Foundation
import LecternRuntime
import Testing

/// One consistent CLI, through the real executable: every command has --help with an example,
/// list commands give JSON, unknown ids and malformed actors are clear errors, completions exist.
@Suite(.serialized) struct CLIConsistencyTests {
    static let commands = [
        "init", "new", "build", "serve", "publish", "status", "doctor", "backup", "restore", "deliver", "deliveries",
        "deliveries retry", "deliveries purge", "import", "highlight", "followers", "followers count", "followers remove",
        "comments", "comments show", "comments approve", "comments reject", "comments delete", "blocks", "blocks add",
        "blocks remove", "blocks import", "blocks export", "digest", "keys", "keys show", "keys rotate", "move", "migrate", "version",
        "follow", "unfollow", "following", "bridge bluesky",
    ]

    @Test func everyCommandHasHelpWithAnExample() throws {
        for command in Self.commands {
            let (status, output) = try run([lecternBinary] + command.split(separator: " ").map(String.init) + ["--help"])
            #expect(status == 0 && output.contains("Example"), "lectern \(command) --help: \(output.prefix(300))")
            // Groups show their subcommands (whose help has -s); init, version and highlight need no site.
            if !["init", "version", "highlight", "deliveries", "followers", "comments", "blocks", "keys"].contains(command) {
                #expect(output.contains("-s, --site"), "lectern \(command) works with -s")
            }
        }
        let (status, script) = try run([lecternBinary, "--generate-completion-script", "bash"])
        #expect(status == 0 && script.contains("doctor") && script.contains("status") && script.contains("rotate"))
    }

    /// `lectern build` parses its arguments without the other commands'; what argument-parser
    /// prints for help and mistakes still names the whole command.
    @Test func aCommandParsedAloneKeepsItsHelpAndUsage() throws {
        let (helpStatus, help) = try run([lecternBinary, "build", "--help"])
        #expect(helpStatus == 0 && help.contains("USAGE: lectern build"), "\(help)")
        let (status, mistake) = try run([lecternBinary, "build", "--no-such-flag"])
        #expect(status == 1 && mistake.hasPrefix("error: Unknown option '--no-such-flag'") && mistake.contains("Usage: lectern build"),
                "\(mistake)")
        let (nestedStatus, nested) = try run([lecternBinary, "followers", "count", "--site"])
        #expect(nestedStatus == 1 && nested.hasPrefix("error: ") && nested.contains("Usage: lectern followers count"), "\(nested)")
        let (versionStatus, version) = try run([lecternBinary, "--version"])
        #expect(versionStatus == 0 && version.hasPrefix("0."), "\(version)")
    }

    /// A build reads no private key; a server, which signs, refuses to start with one it cannot
    /// read, and says which.
    @Test func aBuildNeedsNoKeyAndAServerNamesTheOneItCannotRead() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-keys-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try run([lecternBinary, "init", root.path]).0 == 0)
        try lectern(["build"], site: root)
        let key = root.appendingPathComponent("data/keys/actor.pem")
        let intact = try Data(contentsOf: key)
        try Data("-----BEGIN PRIVATE KEY-----\nbroken\n-----END PRIVATE KEY-----\n".utf8).write(to: key)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key.path)
        try "---\ntitle: Later\ndate: 2025-06-01\n---\nMore.\n"
            .write(to: root.appendingPathComponent("content/posts/later.md"), atomically: true, encoding: .utf8)
        #expect(try lectern(["build"], site: root).contains("files written"))
        let (status, output) = try run(["timeout", "30", lecternBinary, "serve", "--port", "0", "-s", root.path])
        #expect(status == 1 && output.contains("error:") && output.contains("data/keys/actor.pem"), "\(status): \(output)")
        let shown = try lectern(["keys", "show"], site: root, expectSuccess: false)
        #expect(shown.contains("data/keys/actor.pem"), "\(shown)")
        let doctor = try lectern(["doctor", "--offline"], site: root, expectSuccess: false)
        #expect(doctor.contains("✗ keys: read ") && doctor.contains("data/keys/actor.pem"), "\(doctor)")
        // Deliveries are not attempted (each would fail for good): the queue waits for the key.
        let unsigned = try await Blog.open(root: root).delivery.runOnce()
        #expect(unsigned.unavailable?.hasPrefix("cannot sign: read ") == true && unsigned.attempts == 0, "\(unsigned)")
        #expect(unsigned.unavailable?.contains("data/keys/actor.pem") == true)
        // A rotation that cannot read the key it retires writes no new one.
        #expect(try lectern(["keys", "rotate"], site: root, expectSuccess: false).contains("actor.pem"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: key.deletingLastPathComponent().path).sorted()
                == ["actor-ed25519.pem", "actor.pem", "instance-actor.pem"])
        // A server taking new settings keeps the ones it has when a key cannot be read.
        let blog = try Blog.open(root: root)
        #expect(throws: (any Error).self) { try blog.reloadSettings() }
        try intact.write(to: key)
        try blog.reloadSettings()
        // A key file gone after the blog opened is an error naming it, not a new key.
        let opened = try Blog.open(root: root)
        try FileManager.default.removeItem(at: key)
        #expect(throws: (any Error).self) { try opened.activityPub.actorKey }
        #expect(!FileManager.default.fileExists(atPath: key.path))
        try intact.write(to: key)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key.path)
        #expect(try lectern(["keys", "show"], site: root).contains("BEGIN PUBLIC KEY"))
        #expect(try lectern(["doctor", "--offline"], site: root, expectSuccess: false).contains("✓ keys: blog actor RSA"))
    }

    @Test func listsAsJSONAndClearErrors() async throws {
        try await withBlog(follower: "alice") { remote, blog in
            let note = remote.base.value + "/notes/cli-1"
            #expect(try await remote.send(blog.create(blog.note(note, by: remote, "bob", inReplyTo: blog.postID, content: "<p>Hello CLI.</p>"),
                                                      by: remote, "bob"), as: "bob", to: blog.sharedInbox) == 202)
            #expect(try await eventually { try blog.store.comments.comment(id: note) != nil })
            func json(_ arguments: [String]) throws -> Any {
                let output = try lectern(arguments + ["--json"], site: blog.root)
                return try JSONSerialization.jsonObject(with: Data(output.utf8))
            }
            let followers = try #require(try json(["followers"]) as? [[String: Any]])
            #expect(followers.map { $0["actor"] as? String } == [remote.actorID("alice")])
            #expect(followers.first?["instance"] as? String == "127.0.0.1")
            #expect(followers.first?["health"] as? String == "ok")
            let counts = try #require(try json(["followers", "count"]) as? [String: Int])
            #expect(counts == ["total": 1, "thisWeek": 1, "inboxes": 1])
            let comments = try #require(try json(["comments"]) as? [[String: Any]])
            #expect(comments.first?["text"] as? String == "Hello CLI.")
            #expect((comments.first?["author"] as? [String: Any])?["id"] as? String == remote.actorID("bob"))
            #expect((try json(["comments", "show", note]) as? [String: Any])?["post"] as? String == blog.post)
            #expect(try lectern(["comments", "show", note], site: blog.root).contains("Hello CLI."))
            #expect(try json(["blocks"]) as? [Any] != nil)
            #expect((try json(["deliveries"]) as? [String: Any])?["queued"] != nil)
            #expect(try lectern(["digest"], site: blog.root).contains("bob"), "digest with no flag previews")

            for (arguments, message) in [(["comments", "show", "https://nowhere.example/x"], "error: no comment"),
                                         (["comments", "approve", "https://nowhere.example/x"], "error:"),
                                         (["followers", "remove", "alice@somewhere"], "error: 'alice@somewhere' is not an actor URL"),
                                         (["followers", "remove", remote.actorID("carol")], "error:")] {
                let output = try lectern(arguments, site: blog.root, expectSuccess: false)
                #expect(output.contains(message), "lectern \(arguments.joined(separator: " ")): \(output)")
            }
        }
    }
}
