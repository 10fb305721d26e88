import Foundation
import Storage
import Testing

/// `lectern backup` while the server takes comments, and `lectern restore` into another folder:
/// every row back, the keys the same, the site rebuilt; refused where it would do harm.
@Suite(.serialized) struct BackupTests {
    @Test func backupDuringWritesRestoresEveryRow() async throws {
        try await withBlog(follower: "alice") { remote, blog in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-backups-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }

            // A burst of comments, and a backup taken in the middle of it.
            func comment(_ n: Int) async throws -> Int {
                let id = remote.base.value + "/notes/burst-\(n)"
                return try await remote.send(blog.create(blog.note(id, by: remote, "bob", inReplyTo: blog.postID, content: "<p>Burst \(n)</p>"),
                                                         by: remote, "bob"), as: "bob", to: blog.sharedInbox)
            }
            // bob's key fetched once first: 60 at once for an unknown key would be told to come back (503).
            #expect(try await comment(0) == 202)
            let during = folder.appendingPathComponent("during.tar.gz")
            let root = blog.root
            async let backup = Task.detached { try lectern(["backup", during.path], site: root) }.value
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for n in 1..<60 { group.addTask { try await comment(n) } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            let saved = try await backup
            #expect(saved.contains("saved data/lectern.sqlite"), "\(saved)")
            #expect(statuses.allSatisfy { $0 == 202 }, "\(statuses.sorted())")
            let mode = try FileManager.default.attributesOfItem(atPath: during.path)[.posixPermissions] as? Int
            #expect(mode == 0o600, "the archive holds the private keys")
            let unpacked = folder.appendingPathComponent("unpacked")
            try FileManager.default.createDirectory(at: unpacked, withIntermediateDirectories: true)
            #expect(try run(["tar", "-xzf", during.path, "-C", unpacked.path]).0 == 0)
            try Store.checkIntegrity(path: unpacked.appendingPathComponent("data/lectern.sqlite").path)
            let snapshot = try Store(path: unpacked.appendingPathComponent("data/lectern.sqlite").path)
            #expect((0...60).contains(try snapshot.rowCounts()["comments"] ?? -1), "a consistent snapshot")

            // After the burst: a backup restores, into another folder, every row and the same keys.
            #expect(try await eventually { try blog.store.inbox.inboundBacklog() == 0 && blog.store.rowCounts()["comments"] == 60 })
            let after = folder.appendingPathComponent("after.tar.gz")
            try lectern(["backup", after.path], site: blog.root)
            let elsewhere = folder.appendingPathComponent("restored-site")
            try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
            // The service user's folder (run as root, as an administrator restores): it keeps its owner, and so does what is restored.
            let serviceUser = getuid() == 0 ? 65_534 : Int(getuid())
            try FileManager.default.setAttributes([.ownerAccountID: serviceUser, .groupOwnerAccountID: serviceUser, .posixPermissions: 0o750],
                                                  ofItemAtPath: elsewhere.path)
            let restored = try lectern(["restore", after.path], site: elsewhere)
            #expect(restored.contains("restored data/lectern.sqlite"), "\(restored)")
            let live = try blog.store.rowCounts()
            let back = try Store(path: elsewhere.appendingPathComponent("data/lectern.sqlite").path).rowCounts()
            for table in ["comments", "followers", "remote_actors", "posts", "deliveries", "outbound_activities"] {
                #expect(back[table] == live[table], "\(table): \(back[table] ?? -1) restored, \(live[table] ?? -1) live")
            }
            for key in try FileManager.default.contentsOfDirectory(atPath: blog.root.appendingPathComponent("data/keys").path) {
                #expect(FileManager.default.contents(atPath: elsewhere.appendingPathComponent("data/keys/\(key)").path)
                        == FileManager.default.contents(atPath: blog.root.appendingPathComponent("data/keys/\(key)").path), "\(key)")
            }
            #expect(FileManager.default.fileExists(atPath: elsewhere.appendingPathComponent("public/index.html").path), "rebuilt")
            for path in ["", "data", "data/lectern.sqlite", "data/keys", "content", "public", "public/index.html"] {
                let attributes = try FileManager.default.attributesOfItem(atPath: elsewhere.appendingPathComponent(path).path)
                #expect(attributes[.ownerAccountID] as? Int == serviceUser, "\(path) belongs to the site's owner")
            }
            #expect(try FileManager.default.attributesOfItem(atPath: elsewhere.path)[.posixPermissions] as? Int == 0o750,
                    "the folder keeps its mode")
            let page = try String(contentsOf: elsewhere.appendingPathComponent("public/2025/welcome-to-lectern/index.html"), encoding: .utf8)
            #expect(page.contains("Burst 59"), "the comments are on the rebuilt page")

            // Refused: over a running server, onto an existing file, from something that is no backup.
            let refused = try lectern(["restore", after.path], site: blog.root, expectSuccess: false)
            #expect(refused.contains("a server is running"), "\(refused)")
            #expect(try lectern(["backup", after.path], site: blog.root, expectSuccess: false).contains("exists"))
            let garbage = folder.appendingPathComponent("garbage.tar.gz")
            try Data("not an archive".utf8).write(to: garbage)
            let bad = try lectern(["restore", garbage.path], site: elsewhere, expectSuccess: false)
            #expect(bad.hasPrefix("error:"), "\(bad)")
            #expect(try Store(path: elsewhere.appendingPathComponent("data/lectern.sqlite").path).rowCounts()["comments"] == 60,
                    "a failed restore leaves the site as it was")
        }
    }

    /// An archive holding a symlink out of the site: restored as root, the link itself changes
    /// owner, never what it points to.
    @Test func restoreNeverChownsThroughSymlinks() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-symlink-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let stage = work.appendingPathComponent("stage"), victim = work.appendingPathComponent("victim"), site = work.appendingPathComponent("site")
        for folder in [stage, victim, site] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let owner = try #require(FileManager.default.attributesOfItem(atPath: victim.path)[.ownerAccountID] as? Int)
        let serviceUser = getuid() == 0 ? 65_534 : Int(getuid())
        try FileManager.default.setAttributes([.ownerAccountID: serviceUser, .groupOwnerAccountID: serviceUser], ofItemAtPath: site.path)
        try "title: Symlinked\n".write(to: stage.appendingPathComponent("lectern.yml"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(at: stage.appendingPathComponent("content"), withDestinationURL: victim)
        let archive = work.appendingPathComponent("evil.tar.gz")
        #expect(try run(["tar", "-czf", archive.path, "-C", stage.path, "lectern.yml", "content"]).0 == 0)
        _ = try lectern(["restore", archive.path], site: site, expectSuccess: false)
        #expect(try FileManager.default.attributesOfItem(atPath: victim.path)[.ownerAccountID] as? Int == owner,
                "the folder the link points to keeps its owner")
    }
}
