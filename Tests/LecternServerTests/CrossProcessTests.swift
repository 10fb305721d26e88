import Foundation
import LecternRuntime
import Testing
@testable import WebServer

/// The `lectern` command, as built next to the tests.
let lecternBinary = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent(".build/debug/lectern").path

/// Runs `lectern ARGUMENTS -s SITE` as a second process; its output, and fails the test on a
/// non-zero exit.
@discardableResult
func lectern(_ arguments: [String], site: URL, expectSuccess: Bool = true,
             sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
    let (status, output) = try run([lecternBinary] + arguments + ["-s", site.path])
    if expectSuccess { #expect(status == 0, "lectern \(arguments.joined(separator: " ")): \(output)", sourceLocation: sourceLocation) }
    return output
}

/// Polls until `condition` holds (up to 10 s: the suite runs many servers at once on 2 cores) and prints how long the server took to serve it:
/// the 1-second goal is a figure for `bench/`, not an assertion here.
func served(_ what: String, _ condition: () async throws -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let start = ContinuousClock.now
    let ok = try await eventually(within: 10, condition)
    print("served within \(ContinuousClock.now - start): \(what)")
    #expect(ok, "served: \(what)", sourceLocation: sourceLocation)
}

/// Front matter dates: `days` before now (posts dated long before the blog first published are
/// recorded without being announced: back-dated imports).
func dated(daysAgo days: Double = 0) -> String {
    ISO8601DateFormatter().string(from: Date().addingTimeInterval(-days * 86_400 - 60))
}
let thisYear = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date().addingTimeInterval(-60)).year!

/// One blog, two processes: the server (in this test process, without --watch) and the `lectern`
/// command. Whatever the command changes, the server serves; what it announces, it serves first.
@Suite(.serialized) struct CrossProcessTests {
    @Test func commandsChangeWhatTheRunningServerServes() async throws {
        let remote = try FakeInstance()
        try await remote.start()
        defer { remote.stop() }
        let blog = try await BlogFixture(remote: remote)
        defer { blog.stop() }
        try await blog.follow(by: remote, "alice")

        // A new post, published by the command: served in both forms before followers hear of it.
        let file = blog.root.appendingPathComponent("content/posts/cross.md")
        try "---\ntitle: Across processes\ndate: \(dated())\n---\nFirst words.\n".write(to: file, atomically: true, encoding: .utf8)
        let published = try lectern(["publish"], site: blog.root)
        #expect(published.contains("1 new"), "\(published)")
        let path = "/\(thisYear)/across-processes/"
        try await served("new post page") { try await blog.get(path).status == 200 }
        try await served("new post Article") { try await blog.get(path, accept: "application/activity+json").status == 200 }
        try await served("Create delivered") { !remote.activities(type: "Create").isEmpty }
        let create = try #require(remote.activities(type: "Create").first)
        #expect(create.objectFetchStatus == 200, "the Article answered when the Create arrived")

        // An edit: the page changes, and the Update names what is served.
        try "---\ntitle: Across processes\ndate: \(dated())\n---\nSecond words.\n".write(to: file, atomically: true, encoding: .utf8)
        try lectern(["publish"], site: blog.root)
        try await served("edited page") { try await blog.get(path).body.contains("Second words.") }
        try await served("Update delivered") { !remote.activities(type: "Update").isEmpty }
        #expect(remote.activities(type: "Update").first?.objectFetchStatus == 200)

        // A comment, then moderation by the command.
        let note = remote.base.value + "/notes/x1"
        #expect(try await remote.send(blog.create(blog.note(note, by: remote, "bob", inReplyTo: blog.base + path,
                                                            content: "<p>Bob was here.</p>"), by: remote, "bob"),
                                      as: "bob", to: blog.sharedInbox) == 202)
        try await served("comment on the page") { try await blog.get(path).body.contains("Bob was here.") }
        try lectern(["comments", "reject", note], site: blog.root)
        try await served("rejected comment gone from the page") { try await !blog.get(path).body.contains("Bob was here.") }
        try lectern(["comments", "approve", note], site: blog.root)
        try await served("approved comment back") { try await blog.get(path).body.contains("Bob was here.") }

        // A block hides bob's comment and closes the inbox to him.
        try lectern(["blocks", "add", remote.actorID("bob")], site: blog.root)
        try await served("blocked author's comment hidden") { try await !blog.get(path).body.contains("Bob was here.") }
        if try await blog.get(path).body.contains("Bob was here.") {
            print("DEBUG state=\(String(describing: try blog.store.comments.comment(id: note)?.state)) generations=\(try blog.store.changes.changeGenerations())")
        }
        #expect(try await remote.send(["id": remote.actorID("bob") + "/likes/9", "type": "Like", "actor": remote.actorID("bob"),
                                       "object": blog.base + path], as: "bob", to: blog.sharedInbox) == 403)

        // A follower removed: the followers collection counts one fewer.
        try lectern(["followers", "remove", remote.actorID("alice")], site: blog.root)
        try await served("follower removed") { try await blog.getJSON("/actor/followers")["totalItems"] as? Int == 0 }

        // A configuration edit: the new title on the pages and in the actor.
        let config = blog.root.appendingPathComponent("lectern.yml")
        let text = try String(contentsOf: config, encoding: .utf8)
        try text.replacingOccurrences(of: "title: Field Notes", with: "title: Renamed Notes").write(to: config, atomically: true, encoding: .utf8)
        try await served("new title on the home page") { try await blog.get("/").body.contains("Renamed Notes") }
        try await served("new title in the actor") { try await blog.getJSON("/actor")["name"] as? String == "Renamed Notes" }

        // A new image, built by the command.
        let image = blog.root.appendingPathComponent("static/images/new.png")
        try FileManager.default.createDirectory(at: image.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: image)
        try lectern(["build"], site: blog.root)
        try await served("new image") { try await blog.get("/images/new.png").status == 200 }

        // The post removed: 410 in both forms, and followers told.
        try FileManager.default.removeItem(at: file)
        try lectern(["publish"], site: blog.root)
        try await served("removed post: 410 page") { try await blog.get(path).status == 410 }
        let tombstone = try await blog.get(path, accept: "application/activity+json")
        #expect(tombstone.status == 410 && tombstone.body.contains("Tombstone"))
        #expect(remote.activities(type: "Delete").isEmpty, "alice no longer follows: no Delete to her")
    }

    /// A changed slug or date keeps the post: same id, comments, reactions; the old URL redirects
    /// browsers (301) and still gives servers the Article; followers get an Update, no Delete.
    @Test func changingTheSlugKeepsThePost() async throws {
        let remote = try FakeInstance()
        try await remote.start()
        defer { remote.stop() }
        let blog = try await BlogFixture(remote: remote)
        defer { blog.stop() }
        try await blog.follow(by: remote, "alice")
        let file = blog.root.appendingPathComponent("content/posts/moving.md")
        let firstDate = dated(), secondDate = "\(thisYear - 1)-12-31T12:00:00Z"
        try "---\ntitle: Moving\ndate: \(firstDate)\n---\nBody.\n".write(to: file, atomically: true, encoding: .utf8)
        try lectern(["publish"], site: blog.root)
        let old = "/\(thisYear)/moving/", new = "/\(thisYear - 1)/moved-here/", final = "/\(thisYear - 1)/final/"
        try await served("post published") { !remote.activities(type: "Create").isEmpty }
        let note = remote.base.value + "/notes/m1"
        #expect(try await remote.send(blog.create(blog.note(note, by: remote, "bob", inReplyTo: blog.base + old,
                                                            content: "<p>Comment that moves along.</p>"), by: remote, "bob"),
                                      as: "bob", to: blog.sharedInbox) == 202)
        try await served("comment on the old page") { try await blog.get(old).body.contains("Comment that moves along.") }

        try "---\ntitle: Moving\ndate: \(secondDate)\nslug: moved-here\n---\nBody.\n".write(to: file, atomically: true, encoding: .utf8)
        try lectern(["publish"], site: blog.root)
        try await served("new URL") { try await blog.get(new).body.contains("Comment that moves along.") }
        let redirect = try await HTTPClientForTests.get(blog.base + old, accept: "text/html")
        #expect(redirect.status == 301 && redirect.header("location") == new)
        let article = try await blog.getJSON(old)
        #expect(article["id"] as? String == blog.base + old, "the id is the first URL")
        #expect(article["url"] as? String == blog.base + new)
        #expect(try await blog.getJSON(new)["id"] as? String == blog.base + old)
        try await served("Update delivered") { !remote.activities(type: "Update").isEmpty }
        let update = try #require(remote.activities(type: "Update").first?.object)
        #expect(update["id"] as? String == blog.base + old && update["url"] as? String == blog.base + new)
        #expect(remote.activities(type: "Delete").isEmpty, "no Delete for a moved post")
        #expect(try blog.store.comments.comment(id: note)?.postPath == new)

        // Renamed file, new slug again: `id:` in the front matter keeps the identity.
        try FileManager.default.removeItem(at: file)
        try "---\ntitle: Moving\ndate: \(secondDate)\nslug: final\nid: \(blog.base + old)\n---\nBody.\n"
            .write(to: blog.root.appendingPathComponent("content/posts/renamed.md"), atomically: true, encoding: .utf8)
        try lectern(["publish"], site: blog.root)
        try await served("renamed file keeps the post") { try await blog.get(final).body.contains("Comment that moves along.") }
        #expect(try await HTTPClientForTests.get(blog.base + new, accept: "text/html").header("location") == final)
        #expect(remote.activities(type: "Delete").isEmpty)

        // `aliases:` by hand: a 301 for browsers.
        try "---\ntitle: Moving\ndate: \(secondDate)\nslug: final\nid: \(blog.base + old)\naliases: [/blog/old-moving.html]\n---\nBody.\n"
            .write(to: blog.root.appendingPathComponent("content/posts/renamed.md"), atomically: true, encoding: .utf8)
        try lectern(["build"], site: blog.root)
        try await served("alias redirect") {
            try await HTTPClientForTests.get(blog.base + "/blog/old-moving.html", accept: "text/html").header("location") == final
        }

        // Pages too (an imported blog's /about.html, say).
        try "---\ntitle: About\naliases: [/about.html, /about-me/]\n---\nWho writes here.\n"
            .write(to: blog.root.appendingPathComponent("content/pages/about.md"), atomically: true, encoding: .utf8)
        try lectern(["build"], site: blog.root)
        try await served("page alias redirect") {
            try await HTTPClientForTests.get(blog.base + "/about.html", accept: "text/html").header("location") == "/about/"
        }
        #expect(try await HTTPClientForTests.get(blog.base + "/about-me/", accept: "text/html").status == 301)
        // Old links were shared with and without the trailing slash: both spellings answer.
        #expect(try await HTTPClientForTests.get(blog.base + "/about-me", accept: "text/html").header("location") == "/about/")
        #expect(try await HTTPClientForTests.get(blog.base + "/about.html/", accept: "text/html").header("location") == "/about/")
        // A URL in another script (a Greek WordPress slug): its redirects' Location is ASCII,
        // percent-encoded, as a header must be (raw UTF-8 there broke clients such as Python's).
        try "---\ntitle: Επίπεδο\nslug: επιπεδο\naliases: [/greek/επιπεδο-2/]\n---\nΛέξεις.\n"
            .write(to: blog.root.appendingPathComponent("content/pages/greek.md"), atomically: true, encoding: .utf8)
        try lectern(["build"], site: blog.root)
        let encoded = "/%CE%B5%CF%80%CE%B9%CF%80%CE%B5%CE%B4%CE%BF/"
        try await served("non-ASCII alias redirect") {
            try await HTTPClientForTests.get(blog.base + "/greek/%ce%b5%cf%80%ce%b9%cf%80%ce%b5%ce%b4%ce%bf-2/", accept: "text/html")
                .header("location") == encoded
        }
        #expect(try await HTTPClientForTests.get(blog.base + "/greek/%ce%b5%cf%80%ce%b9%cf%80%ce%b5%ce%b4%ce%bf-2", accept: "text/html")
            .header("location") == encoded)
        #expect(try await HTTPClientForTests.get(blog.base + String(encoded.dropLast()), accept: "text/html").header("location") == encoded)
        #expect(try await HTTPClientForTests.get(blog.base + encoded, accept: "text/html").status == 200)
        // A file of the site wins over an alias's other spelling.
        #expect(try await HTTPClientForTests.get(blog.base + "/about/", accept: "text/html").status == 200)
        // Readers of an old blog's feed (Hugo, WordPress, Zola) keep reading it here.
        for (old, new) in [("/index.xml", "/rss.xml"), ("/feed", "/rss.xml"), ("/feed/", "/rss.xml"), ("/atom.xml", "/feed.xml")] {
            #expect(try await HTTPClientForTests.get(blog.base + old, accept: "application/rss+xml").header("location") == new, "\(old)")
        }
    }

    /// Edits that change nothing followers see send nothing; `federate: false` takes a post off
    /// the fediverse (a Delete, a Tombstone for servers) and leaves it on the site.
    @Test func invisibleEditsAndPostsKeptOffTheFediverse() async throws {
        let remote = try FakeInstance()
        try await remote.start()
        defer { remote.stop() }
        let blog = try await BlogFixture(remote: remote)
        defer { blog.stop() }
        try await blog.follow(by: remote, "alice")
        let file = blog.root.appendingPathComponent("content/posts/quiet.md")
        let date = dated()
        try "---\ntitle: Quiet\ndate: \(date)\n---\nSome words.\n".write(to: file, atomically: true, encoding: .utf8)
        try lectern(["publish"], site: blog.root)
        try await served("Create delivered") { remote.activities(type: "Create").count == 1 }
        // Whitespace and a YAML comment: the same page, the same Article.
        try "---\n# a note to self\ntitle: Quiet\ndate: \(date)\n---\n\nSome   words.\n\n\n".write(to: file, atomically: true, encoding: .utf8)
        let output = try lectern(["publish"], site: blog.root)
        #expect(output.contains("0 updated"), "\(output)")
        try await Task.sleep(for: .milliseconds(600))
        #expect(remote.activities(type: "Update").isEmpty)

        try "---\ntitle: Quiet\ndate: \(date)\nfederate: false\n---\nSome words.\n".write(to: file, atomically: true, encoding: .utf8)
        try lectern(["publish"], site: blog.root)
        let path = "/\(thisYear)/quiet/"
        try await served("Delete delivered") { remote.activities(type: "Delete").count == 1 }
        let asServer = try await blog.get(path, accept: "application/activity+json")
        #expect(asServer.status == 410 && asServer.body.contains("Tombstone"))
        #expect(try await blog.get(path).status == 200, "still on the site")
        #expect(try await blog.get(path).body.contains("Some words."))
    }

    /// A section federates only when `lectern.yml` says so; its posts are on the site either way.
    @Test func sectionsFederateOnlyWhenConfigured() async throws {
        try await withBlog(extraConfig: "sections:\n  journal:\n    federate: true\n", follower: "alice") { remote, blog in
            let date = dated()
            for folder in ["notes", "journal"] {
                let file = blog.root.appendingPathComponent("content/\(folder)/entry.md")
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try "---\ntitle: In \(folder)\ndate: \(date)\n---\nWords.\n".write(to: file, atomically: true, encoding: .utf8)
            }
            try lectern(["publish"], site: blog.root)
            try await served("Create delivered") { remote.activities(type: "Create").count == 1 }
            try await Task.sleep(for: .milliseconds(600))
            let creates = remote.activities(type: "Create")
            #expect(creates.count == 1)
            let announced = creates.map { String(describing: $0.activity) }.joined()
            #expect(announced.contains("/journal/in-journal/"))
            #expect(try await blog.get("/notes/in-notes/").status == 200, "on the site")
            #expect(try await blog.get("/notes/in-notes/", accept: "application/activity+json").status != 200,
                    "not an Article: the section does not federate")
            #expect(try await blog.get("/journal/in-journal/", accept: "application/activity+json").status == 200)
        }
    }

    /// A post dated in the future stays out of the site, the feeds and federation until its
    /// time, then the running server publishes and announces it, once.
    @Test func scheduledPostsWaitForTheirTime() async throws {
        let remote = try FakeInstance()
        try await remote.start()
        defer { remote.stop() }
        let blog = try await BlogFixture(remote: remote)
        defer { blog.stop() }
        try await blog.follow(by: remote, "alice")
        // Far enough ahead that `publish` and the two checks before its time finish on a loaded machine.
        let stamp = ISO8601DateFormatter().string(from: Date().addingTimeInterval(8))
        let due = ISO8601DateFormatter().date(from: stamp)!
        try "---\ntitle: Later\ndate: \(stamp)\n---\nNot yet.\n"
            .write(to: blog.root.appendingPathComponent("content/posts/later.md"), atomically: true, encoding: .utf8)
        let output = try lectern(["publish"], site: blog.root)
        #expect(output.contains("0 new"), "\(output)")
        let year = Calendar(identifier: .gregorian).component(.year, from: due)
        #expect(try await blog.get("/\(year)/later/").status == 404)
        #expect(try await !blog.get("/feed.xml").body.contains("Later"))
        #expect(try await eventually(within: 20) { try await blog.get("/\(year)/later/").status == 200 })
        print("scheduled post served \(Date().timeIntervalSince(due)) s after its time")
        #expect(try await eventually { remote.activities(type: "Create").count == 1 })
        try await Task.sleep(for: .seconds(1))
        #expect(remote.activities(type: "Create").count == 1, "announced once")
        #expect(try await blog.get("/feed.xml").body.contains("Later"))
    }
}

/// `lectern import` into a blog a server is serving: the posts are served (old URLs redirect),
/// recorded as published, and never announced to followers.
@Suite(.serialized) struct ImportCommandTests {
    @Test func importedPostsAreServedAndNeverAnnounced() async throws {
        let remote = try FakeInstance()
        try await remote.start()
        defer { remote.stop() }
        let blog = try await BlogFixture(remote: remote)
        defer { blog.stop() }
        try await blog.follow(by: remote, "alice")
        let feed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/import/programmer-blog.rss").path
        let dry = try lectern(["import", feed, "--dry-run", "--json"], site: blog.root)
        #expect(dry.contains("\"dryRun\" : true") || dry.contains("\"dryRun\":true"), "\(dry.prefix(300))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: blog.root.appendingPathComponent("content/posts").path).count == 4,
                "a dry run writes nothing")
        let output = try lectern(["import", feed], site: blog.root)
        #expect(output.contains("ownership-in-rust-part-1"), "\(output.prefix(500))")
        try await served("an imported post") { try await blog.get("/2019/ownership-in-rust-part-1/").status == 200 }
        let old = try await HTTPClientForTests.get(blog.base + "/2019/05/ownership-in-rust-part-1/", accept: "text/html")
        #expect(old.status == 301 && old.header("location") == "/2019/ownership-in-rust-part-1/", "the old URL redirects")
        // Publishing afterwards announces none of them.
        let published = try lectern(["publish"], site: blog.root)
        #expect(published.contains("0 new"), "\(published)")
        try await Task.sleep(for: .milliseconds(500))
        #expect(remote.activities(type: "Create").isEmpty, "imports are never announced")
        // Importing again skips what is there, and overwrites nothing.
        let again = try lectern(["import", feed, "--json"], site: blog.root)
        #expect(again.contains("skipped"), "\(again.prefix(300))")
    }
}
