import BlogModel
import Foundation
import GRDB
import LecternRuntime
import Site
@testable import Storage
import Testing
@testable import WebServer

/// Every real-world activity shape in `Tests/Fixtures/activities/` (Mastodon, Misskey, Pleroma,
/// GoToSocial, Lemmy, Friendica, WordPress, PeerTube…), signed by a fake instance and sent to the
/// real server, ends as what `expected.json` says: the right comment, reaction, follow… or
/// nothing, with its reason counted. None is accepted silently.
@Suite(.serialized) struct ActivityFixtureTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/activities")

    struct Expectation: Decodable {
        var outcome: String
        var reason: String?
        var status: Int?
        var contains: [String]?
        var visibility: String?
        var parent: String?
        var attachments: Int?
        var contentWarning: String?
        var quote: String?
        var poll: [String]?
        var kind: String?
        var after: String?
    }

    @Test func everyFixtureEndsAsExpected() async throws {
        let expectations = try JSONDecoder().decode([String: Expectation].self,
                                                    from: Data(contentsOf: Self.folder.appendingPathComponent("expected.json")))
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
        let fixtures = files.filter { $0.hasSuffix(".json") && !$0.hasSuffix(".remote.json") && $0 != "expected.json" }
            .map { String($0.dropLast(5)) }.sorted()
        #expect(fixtures.count >= 60)
        #expect(Set(fixtures) == Set(expectations.keys), "every fixture has an expectation")
        for name in fixtures {
            #expect(files.contains(name + ".source.md"), "\(name) names its source")
        }
        let text = try fixtures.map { try String(contentsOf: Self.folder.appendingPathComponent($0 + ".json"), encoding: .utf8) }.joined()
            + (try files.filter { $0.hasSuffix(".remote.json") }
                .map { try String(contentsOf: Self.folder.appendingPathComponent($0), encoding: .utf8) }.joined())
        let names = Set(text.matches(of: /\{\{REMOTE\}\}\/users\/([a-z0-9_]+)/).map { String($0.1) }).union(["bob"]).sorted()
        let remote = try FakeInstance(names: names)
        try await remote.start()
        defer { remote.stop() }
        let blog = try await BlogFixture(remote: remote)
        defer { blog.stop() }
        let comment = remote.base.value + "/users/bob/notes/existing-bob"

        // Dependencies first (an Undo after what it undoes).
        let ordered = fixtures.filter { expectations[$0]?.after == nil } + fixtures.filter { expectations[$0]?.after != nil }
        var failures: [String] = []
        var rerun = 0
        for name in ordered {
            let expected = expectations[name]!
            try await ensureComment(comment, blog: blog, remote: remote)
            // One automatic answer per actor and post a day: each fixture starts with none sent.
            try await blog.store.database.write { try $0.execute(sql: "DELETE FROM automatic_replies") }
            // One like or boost per actor and post: a fixture's actors start without any.
            if expected.outcome == "reaction" {
                let raw = try String(contentsOf: Self.folder.appendingPathComponent(name + ".json"), encoding: .utf8)
                for actor in Set(raw.matches(of: /\{\{REMOTE\}\}\/users\/([a-z0-9_]+)/).map { String($0.1) }) where actor != "bob" {
                    _ = try blog.store.comments.deleteActorContent(actorID: remote.actorID(actor))
                }
            }
            // An Undo needs what it undoes: that fixture is sent again first, under a new id.
            var renamed: (String, String)?
            if let dependency = expected.after {
                rerun += 1
                let text = try String(contentsOf: Self.folder.appendingPathComponent(dependency + ".json"), encoding: .utf8)
                var again = try #require(try JSONSerialization.jsonObject(with: Data(substituteBase(text, blog, remote, comment).utf8)) as? [String: Any])
                let original = again["id"] as! String
                again["id"] = original + "-again-\(rerun)"
                renamed = (original, original + "-again-\(rerun)")
                let actor = String((again["actor"] as! String).split(separator: "/").last!)
                #expect(try await remote.send(again, as: actor, to: blog.sharedInbox) == 202)
                #expect(try await eventually { try blog.store.inbox.inboundBacklog() == 0 })
            }
            let substitute = { (text: String) in
                var text = substituteBase(text, blog, remote, comment)
                if let (from, to) = renamed { text = text.replacingOccurrences(of: "\"\(from)\"", with: "\"\(to)\"") }
                return text
            }
            let served = Self.folder.appendingPathComponent(name + ".remote.json")
            if let data = FileManager.default.contents(atPath: served.path),
               let documents = try JSONSerialization.jsonObject(with: Data(substitute(String(decoding: data, as: UTF8.self)).utf8)) as? [String: [String: Any]] {
                for (path, document) in documents { remote.serve(path, document) }
            }
            var activity = try #require(try JSONSerialization.jsonObject(
                with: Data(substitute(try String(contentsOf: Self.folder.appendingPathComponent(name + ".json"), encoding: .utf8)).utf8))
                as? [String: Any], "\(name) is JSON")
            // Undo fixtures share shapes (and ids) with each other: each is sent under its own.
            if renamed != nil, let id = activity["id"] as? String { activity["id"] = id + "-run-\(rerun)" }
            let actor = try #require((activity["actor"] as? String) ?? ((activity["actor"] as? [String: Any])?["id"] as? String))
            let signer = String(actor.split(separator: "/").last!)
            let before = try Snapshot(blog: blog, remote: remote, comment: comment, activity: activity)
            let status = try await remote.send(activity, as: signer, to: blog.sharedInbox)
            #expect(try await eventually { try blog.store.inbox.inboundBacklog() == 0 })
            try blog.runtime.inboxCounter.flush(to: blog.store.inboxCounts)
            let after = try Snapshot(blog: blog, remote: remote, comment: comment, activity: activity)
            if let problem = try check(name, expected, status: status, before: before, after: after, blog: blog, remote: remote,
                                       substitute: substitute) {
                failures.append("\(name): \(problem)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(fixtures.count) fixtures:\n\(failures.joined(separator: "\n"))")
        print("activity fixtures: \(fixtures.count - failures.count) of \(fixtures.count) as expected")
    }

    /// The placeholders of a fixture, filled in.
    func substituteBase(_ text: String, _ blog: BlogFixture, _ remote: FakeInstance, _ comment: String) -> String {
        text.replacingOccurrences(of: "{{REMOTE}}", with: remote.base.value)
            .replacingOccurrences(of: "{{POST}}", with: blog.postID).replacingOccurrences(of: "{{POST_URL}}", with: blog.postID)
            .replacingOccurrences(of: "{{BLOG_ACTOR}}", with: blog.actor)
            .replacingOccurrences(of: "{{BLOG_FOLLOWERS}}", with: blog.actor + "/followers")
            .replacingOccurrences(of: "{{BLOG_INBOX}}", with: blog.actor + "/inbox")
            .replacingOccurrences(of: "{{COMMENT}}", with: comment)
            .replacingOccurrences(of: "{{NOW}}", with: ISO8601DateFormatter().string(from: Date()))
    }

    /// bob's comment `{{COMMENT}}` refers to, there again if a fixture deleted it.
    func ensureComment(_ id: String, blog: BlogFixture, remote: FakeInstance) async throws {
        guard try blog.store.comments.comment(id: id) == nil else { return }
        // A fixture deleted it: its tombstone would (rightly) keep a new Create of it out.
        try blog.store.comments.liftTombstone(id: id)
        var note = blog.note(id, by: remote, "bob", inReplyTo: blog.postID, content: "<p>bob's existing comment</p>")
        note["url"] = id
        var create = blog.create(note, by: remote, "bob")
        create["id"] = id + "/activity-\(UUID().uuidString)"
        #expect(try await remote.send(create, as: "bob", to: blog.sharedInbox) == 202)
        #expect(try await eventually { try blog.store.comments.comment(id: id) != nil && blog.store.inbox.inboundBacklog() == 0 })
    }

    /// What a fixture could change.
    struct Snapshot {
        var counts: [InboxOutcome: Int]
        var likes: Int, announces: Int
        var followers: Set<String>
        var mentions: Int
        var comment: CommentRecord?
        var objectComment: CommentRecord?
        var delivered: Int
        var sentObjects: Int
        var commentIDs: Set<String>

        init(blog: BlogFixture, remote: FakeInstance, comment: String, activity: [String: Any]) throws {
            counts = try blog.store.inboxCounts.inboxCounts(since: Date().addingTimeInterval(-86_400))
            let reactions = try blog.store.reactions.reactionCounts(postPath: blog.post)
            (likes, announces) = (reactions.likes, reactions.announces)
            followers = Set(try blog.store.followers.followers().map(\.actorID))
            mentions = try blog.store.rowCounts()["mentions"] ?? 0
            self.comment = try blog.store.comments.comment(id: comment)
            let objectID = (activity["object"] as? [String: Any])?["id"] as? String ?? activity["object"] as? String
            objectComment = try objectID.flatMap { try blog.store.comments.comment(id: $0) }
            delivered = remote.received.value.count
            sentObjects = try blog.store.rowCounts()["sent_objects"] ?? 0
            commentIDs = Set(try blog.store.comments.comments(limit: 100_000).map(\.comment.id))
        }
    }

    func check(_ name: String, _ expected: Expectation, status: Int, before: Snapshot, after: Snapshot, blog: BlogFixture,
               remote: FakeInstance, substitute: (String) -> String) throws -> String? {
        if expected.outcome == "refused" { return status == expected.status ? nil : "answered \(status), expected \(expected.status ?? 0)" }
        guard status == 202 else { return "answered \(status), expected 202" }
        let counted = after.counts.filter { $0.value != before.counts[$0.key] }.map(\.key)
        switch expected.outcome {
        case "ignored":
            let reason = expected.reason ?? ""
            return counted.contains { $0.kind == .ignored && ($0.reason == reason || $0.reason.hasPrefix(reason + ":")) }
                ? nil : "not counted as ignored (\(reason)); counted \(counted)"
        case "profile-update":
            return counted.contains { $0.reason == "profile-update" } ? nil : "counted \(counted)"
        case "comment":
            let fresh = try blog.store.comments.comments(limit: 100_000).map(\.comment).filter { !before.commentIDs.contains($0.id) }
            let words = expected.contains?.first ?? ""
            guard let stored = fresh.first(where: { ($0.contentHTML + ($0.title ?? "")).contains(words) }) ?? fresh.last else {
                return "no comment stored; counted \(counted)"
            }
            let shown = stored.contentHTML + " " + (stored.title ?? "")
            for words in expected.contains ?? [] where !shown.contains(words) { return "comment lacks “\(words)”: \(shown)" }
            if let visibility = expected.visibility, stored.visibility.rawValue != visibility { return "visibility \(stored.visibility)" }
            if expected.parent == "comment", stored.parentID == nil { return "not threaded under a comment" }
            if expected.parent == "post", stored.parentID != nil { return "threaded under \(stored.parentID!)" }
            if let count = expected.attachments, CommentAttachment.decode(stored.attachments).count != count {
                return "\(CommentAttachment.decode(stored.attachments).count) attachments, expected \(count)"
            }
            if let warning = expected.contentWarning, stored.summary != warning { return "warning \(stored.summary ?? "none")" }
            if let quote = expected.quote.map(substitute), stored.quoteURL != quote { return "quote \(stored.quoteURL ?? "none")" }
            if let options = expected.poll, CommentPoll.decode(stored.poll)?.options.map(\.name) != options {
                return "poll \(String(describing: CommentPoll.decode(stored.poll)))"
            }
            return nil
        case "edit":
            let text = after.comment?.contentHTML ?? ""
            return (expected.contains ?? []).allSatisfy(text.contains) ? nil : "comment not edited: \(text)"
        case "delete":
            return after.comment == nil ? nil : "comment still there"
        case "reaction":
            let grew = expected.kind == "announce" ? after.announces > before.announces : after.likes > before.likes
            return grew ? nil : "no \(expected.kind ?? "") counted; counted \(counted)"
        case "unreaction":
            let shrank = expected.kind == "announce" ? after.announces < before.announces : after.likes < before.likes
            return shrank || counted.contains { $0.reason == "unreaction" } ? nil : "reaction not removed; counted \(counted)"
        case "follow":
            return after.followers.count > before.followers.count ? nil : "no follower added"
        case "unfollow":
            return after.followers.count < before.followers.count || counted.contains { $0.reason == "unfollow" }
                ? nil : "follower not removed; counted \(counted)"
        case "auto-reply":
            return counted.contains { $0.reason == "auto-reply" } && after.objectComment == nil ? nil : "counted \(counted)"
        case "mention":
            return after.mentions > before.mentions ? nil : "no mention kept; counted \(counted)"
        case "answered":
            // An activity answered by one of ours (a quote request): counted, and the answer kept to be served.
            let reason = expected.reason ?? ""
            return counted.contains { $0.reason == reason } && after.sentObjects > before.sentObjects
                ? nil : "not answered (\(reason)); counted \(counted), \(after.sentObjects - before.sentObjects) objects kept"
        default:
            return "unknown expectation \(expected.outcome)"
        }
    }
}
