import Foundation
import Testing

/// No secret in the logs: a whole federation story at debug level (follow, comment, publish,
/// digest, key rotation, signed fetches both ways), then the log is searched for every private
/// key the site ever had.
@Suite(.serialized) struct SecretsInLogsTests {
    @Test func aDebugLogOfAFullRunHoldsNoPrivateKey() async throws {
        let remote = try FakeInstance()
        try await remote.start()
        defer { remote.stop() }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-secrets-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try run([lecternBinary, "init", root.path]).0 == 0)
        let port = try freePort()
        let configFile = root.appendingPathComponent("lectern.yml")
        try (String(contentsOf: configFile, encoding: .utf8).replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(port)")
             + "owner: \"\(remote.actorID("owner"))\"\nfederation:\n  allowPrivateAddresses: true\n")
            .write(to: configFile, atomically: true, encoding: .utf8)
        let logFile = root.deletingLastPathComponent().appendingPathComponent("lectern-secrets-\(UUID().uuidString).log")
        #expect(FileManager.default.createFile(atPath: logFile.path, contents: nil))
        defer { try? FileManager.default.removeItem(at: logFile) }
        let log = try FileHandle(forWritingTo: logFile)
        let server = Process()
        server.executableURL = URL(fileURLWithPath: lecternBinary)
        server.arguments = ["serve", "-s", root.path, "--port", String(port), "--log-level", "debug"]
        server.standardOutput = log
        server.standardError = log
        try server.run()
        defer { if server.isRunning { server.terminate(); server.waitUntilExit() } }
        let base = "http://127.0.0.1:\(port)"
        #expect(try await eventually(within: 20) { (try? await HTTPClientForTests.get(base + "/", accept: "text/html"))?.status == 200 })

        func pems() throws -> [String] {
            let folder = root.appendingPathComponent("data/keys")
            return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".pem") }
                .map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }
        }
        var secrets = try pems()

        // Follow, comment, publish, digest, rotate, and more activity after the rotation.
        #expect(try await remote.send(["id": remote.actorID("alice") + "/follows/1", "type": "Follow", "actor": remote.actorID("alice"),
                                       "object": base + "/actor"], as: "alice", to: base + "/inbox") == 202)
        let post = base + "/2025/welcome-to-lectern/"
        let note: [String: Any] = ["id": remote.base.value + "/notes/s1", "type": "Note", "attributedTo": remote.actorID("bob"),
                                   "inReplyTo": post, "content": "<p>Secretly public.</p>", "published": "2026-11-22T10:00:00Z",
                                   "to": ["https://www.w3.org/ns/activitystreams#Public"]]
        #expect(try await remote.send(["id": remote.base.value + "/notes/s1/activity", "type": "Create", "actor": remote.actorID("bob"),
                                       "object": note], as: "bob", to: base + "/inbox") == 202)
        #expect(try await eventually(within: 10) {
            String(decoding: try await HTTPClientForTests.get(post, accept: "text/html").body, as: UTF8.self).contains("Secretly public.")
        })
        try "---\ntitle: Published while logging\ndate: \(dated())\n---\nText.\n"
            .write(to: root.appendingPathComponent("content/posts/logged.md"), atomically: true, encoding: .utf8)
        try lectern(["publish"], site: root)
        try lectern(["digest", "--now"], site: root)
        try lectern(["keys", "rotate"], site: root)
        secrets += try pems()
        #expect(try await remote.send(["id": remote.actorID("carol") + "/follows/1", "type": "Follow", "actor": remote.actorID("carol"),
                                       "object": base + "/actor"], as: "carol", to: base + "/inbox") == 202)
        #expect(try await eventually(within: 10) { remote.activities(type: "Accept").count >= 2 && !remote.activities(type: "Update").isEmpty })
        server.terminate()
        server.waitUntilExit()
        try log.close()

        let text = try String(contentsOf: logFile, encoding: .utf8)
        #expect(text.contains("debug"), "the log is at debug level")
        #expect(text.split(separator: "\n").count > 20, "and it logged the run (\(text.count) bytes)")
        #expect(!text.contains("PRIVATE KEY"))
        for pem in Set(secrets) {
            // Every 64-character line of the key's base64, and any 24 characters of it.
            let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }
            for line in body where line.count >= 24 {
                #expect(!text.contains(line.prefix(24)), "a private key's base64 is in the log")
            }
        }
    }
}
