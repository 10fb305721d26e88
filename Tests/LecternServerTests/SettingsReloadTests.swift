import Foundation
import Testing

/// `lectern.yml` read again while the server runs (the file changed, or SIGHUP) applies to the
/// inbox at once, not only after a restart.
@Suite struct SettingsReloadTests {
    @Test func theInboxTakesSettingsReadAgain() async throws {
        try await withBlog { _, blog in
            func likeFrom(_ name: String) async throws -> Int {
                let stranger = try FakeInstance(names: [name])
                try await stranger.start()
                defer { stranger.stop() }
                let like: [String: Any] = ["id": stranger.actorID(name) + "/likes/1", "type": "Like", "actor": stranger.actorID(name),
                                           "object": blog.postID]
                return try await stranger.send(like, as: name, to: blog.sharedInbox)
            }
            #expect(try await likeFrom("dave") == 202, "a server on this machine, allowed by the settings read at start")
            let file = blog.root.appendingPathComponent("lectern.yml")
            let settings = try String(contentsOf: file, encoding: .utf8)
            try settings.replacingOccurrences(of: "allowPrivateAddresses: true", with: "allowPrivateAddresses: false")
                .write(to: file, atomically: true, encoding: .utf8)
            #expect(try await eventually { !blog.server.blog.config.federation.allowPrivateAddresses }, "read again")
            #expect(try await likeFrom("erin") != 202, "its key, on a private address, is no longer fetched")
        }
    }
}
