import Foundation
import Testing

/// Moderation from the fediverse: the owner answers the digest from their own account and the
/// blog acts; a stranger answering the same digest changes nothing.
@Suite(.serialized) struct OwnerModerationTests {
    @Test func theOwnerModeratesByAnsweringTheDigest() async throws {
        try await withBlog(extraConfig: { "digest:\n  interval: 1h\nowner: \"\($0.actorID("owner"))\"\n" }) { remote, blog in
            var ids: [String] = []
            for (n, name) in ["bob", "bob", "carol"].enumerated() {
                let id = remote.base.value + "/notes/digest-\(n)"
                #expect(try await remote.send(blog.create(blog.note(id, by: remote, name, inReplyTo: blog.postID, content: "<p>Comment \(n)</p>"),
                                                          by: remote, name), as: name, to: blog.sharedInbox) == 202)
                #expect(try await eventually { try blog.store.comments.comment(id: id) != nil })
                ids.append(id)
            }
            guard case .sent = try await blog.runtime.digest().sendIfDue(force: true) else { Issue.record("no digest"); return }
            try await served("digest delivered to the owner") { !remote.activities(at: "/users/owner/inbox", type: "Create").isEmpty }
            let digest = try #require(remote.activities(at: "/users/owner/inbox", type: "Create").first?.object)
            let digestID = try #require(digest["id"] as? String)
            let text = digest["content"] as? String ?? ""
            #expect(text.contains("1. ") && text.contains("3. ") && text.contains("Answer this message"), "\(text)")
            // The numbers as the digest gave them.
            func number(of comment: String) -> Int? {
                let words = "Comment \(ids.firstIndex(of: comment)!)"
                return text.components(separatedBy: "<p>").first { $0.contains(words) }.flatMap { Int($0.prefix { $0.isNumber }) }
            }
            let (first, second, third) = (try #require(number(of: ids[0])), try #require(number(of: ids[1])), try #require(number(of: ids[2])))
            func answer(_ html: String, as name: String, id: String) -> [String: Any] {
                var note = blog.note(remote.base.value + "/notes/\(id)", by: remote, name, inReplyTo: digestID, content: html,
                                     to: [blog.actor], cc: [])
                note["tag"] = [["type": "Mention", "href": blog.actor, "name": "@blog"]]
                return blog.create(note, by: remote, name)
            }

            // A stranger answering the digest: nothing happens.
            #expect(try await remote.send(answer("<p>hide \(second)</p>", as: "alice", id: "stranger"), as: "alice",
                                          to: blog.sharedInbox) == 202)
            #expect(try await eventually { try blog.store.inbox.inboundBacklog() == 0 })
            #expect(try blog.store.comments.comment(id: ids[1])?.state == .approved)

            // The owner: hide the first, block carol, and a number that is not there.
            let commands = "<p><span class=\"h-card\">@blog</span> hide \(first)<br>Block \(third)<br>approve 9</p>"
            #expect(try await remote.send(answer(commands, as: "owner", id: "owner-answer"), as: "owner", to: blog.sharedInbox) == 202)
            #expect(try await eventually { try blog.store.comments.comment(id: ids[0])?.state == .rejected })
            // The commands apply one after the other: the block may land a moment after the hide.
            #expect(try await eventually { try blog.store.blocks.isBlocked(actorID: remote.actorID("carol")) })
            #expect(try blog.store.comments.comment(id: ids[2])?.state == .rejected)
            #expect(try blog.store.comments.comment(id: ids[1])?.state == .approved)
            try await served("comments gone from the page") {
                let page = try await blog.get(blog.post).body
                return !page.contains("Comment 0") && !page.contains("Comment 2") && page.contains("Comment 1")
            }
            try await served("the blog answers the owner") { remote.activities(at: "/users/owner/inbox", type: "Create").count >= 2 }
            let reply = try #require(remote.activities(at: "/users/owner/inbox", type: "Create").last?.object)
            let said = reply["content"] as? String ?? ""
            #expect(said.contains("hidden") && said.contains("blocked") && said.contains("9: no such comment"), "\(said)")
            #expect(reply["inReplyTo"] as? String == remote.base.value + "/notes/owner-answer")
            #expect(reply["to"] as? [String] == [remote.actorID("owner")])
        }
    }
}
