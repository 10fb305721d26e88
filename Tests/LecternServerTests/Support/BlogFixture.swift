import Foundation
import Hummingbird
import Logging
import NIOCore
import Prometheus
import LecternRuntime
import WebServer
import Site
import Storage
import Testing

/// A scaffolded blog served by the real runtime (server, inbox worker, deliveries, re-rendering)
/// on a loopback port, federating with a `FakeInstance`.
final class BlogFixture: Sendable {
    let root: URL
    let port: Int
    /// The admin listener's port (`/healthz`, `/metrics`) when it was asked for.
    let adminPort: Int?
    let server: BlogServer
    private let application: RunningApplication
    /// Held like `lectern serve` holds it: commands run meanwhile know a server runs.
    private let presence: FileLock

    /// The blog as every command opens it.
    var runtime: Blog { server.blog }

    var base: String { "http://127.0.0.1:\(port)" }
    var actor: String { base + "/actor" }
    var sharedInbox: String { base + "/inbox" }
    var store: Store { server.blog.store }
    let post = "/2025/welcome-to-lectern/"
    var postID: String { base + post }

    /// `extraConfig` is appended to `lectern.yml` (a `comments:` block, say).
    /// `background: false` leaves the workers off (tests drive deliveries themselves).
    init(remote: FakeInstance, extraConfig: String = "", owner: String? = nil, privateAddresses: Bool = true,
         background: Bool = true, requestTimeout: TimeAmount = LecternServer.requestTimeout,
         busyTimeout: TimeInterval = 5, admin: Bool = false, drafts: Bool = false, watch: Bool = false,
         threads: Bool = false) async throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-e2e-\(UUID().uuidString)")
        try SiteScaffold.create(at: root)
        port = try freePort()
        let configFile = root.appendingPathComponent("lectern.yml")
        var config = try String(contentsOf: configFile, encoding: .utf8)
            .replacingOccurrences(of: "http://127.0.0.1:8080", with: "http://127.0.0.1:\(port)")
        config += "\nfederation:\n  allowPrivateAddresses: \(privateAddresses)\n" + extraConfig
        if let owner { config += "owner: \"\(owner)\"\n" }
        try config.write(to: configFile, atomically: true, encoding: .utf8)
        presence = try ServerPresence(root: root).claim(address: "127.0.0.1:\(port)")!
        var options = Blog.Options()
        options.logger = Logger(label: "blog")
        options.logger.logLevel = ProcessInfo.processInfo.environment["LECTERN_TEST_LOG"].flatMap(Logger.Level.init(rawValue:)) ?? .error
        options.busyTimeout = busyTimeout
        options.includeDrafts = drafts  // as `lectern serve --drafts`
        options.includeFuture = drafts
        options.readsThreads = threads  // only the tests of threads: no fetch of it outlives another test
        let exported = admin ? AdminServer.metrics() : nil
        if let (metrics, _) = exported { options.metrics = metrics }
        let adminPort = admin ? try freePort() : nil
        self.adminPort = adminPort
        // Builds, reads the posts and publishes before it listens, as `lectern serve` does.
        // The first build runs on a thread of its own, as in `lectern serve`: not on the threads
        // the other servers of the test process answer on.
        let root = root, settings = options
        let server = try await OffPool.run { try BlogServer(blog: try Blog.open(root: root, options: settings), watch: watch) }
        self.server = server
        let port = port
        let (_, application) = try await startApplication { onRunning in
            server.makeApplication(host: "127.0.0.1", port: port, requestTimeout: requestTimeout, background: background,
                                   admin: zipAdmin(adminPort, exported?.1), onServerRunning: onRunning)
        }
        self.application = application
    }

    func stop() {
        application.stop()
        try? FileManager.default.removeItem(at: root)
    }

    /// `name` on `remote` follows the blog; returns once the blog has recorded it.
    func follow(by remote: FakeInstance, _ name: String) async throws {
        #expect(try await remote.send(["id": remote.actorID(name) + "/follows/1", "type": "Follow",
                                       "actor": remote.actorID(name), "object": actor], as: name, to: sharedInbox) == 202)
        #expect(try await eventually { try store.followers.isFollower(remote.actorID(name)) })
    }

    /// What the server does when it notices the sources changed: rebuild and publish.
    func rebuild() throws { try server.rebuildService.refresh(sources: true) }

    func get(_ path: String, accept: String = "text/html") async throws -> (status: Int, body: String) {
        let response = try await HTTPClientForTests.get(base + path, accept: accept)
        return (response.status, String(decoding: response.body, as: UTF8.self))
    }

    func getJSON(_ path: String) async throws -> [String: Any] {
        let response = try await HTTPClientForTests.get(base + path, accept: "application/activity+json")
        return try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any] ?? [:]
    }

    /// A public reply (Mastodon's addressing) from `name` to `target`.
    func note(_ id: String, by remote: FakeInstance, _ name: String, inReplyTo target: String, content: String,
              to: [String]? = nil, cc: [String]? = nil) -> [String: Any] {
        let author = remote.actorID(name)
        return [
            "id": id, "type": "Note", "attributedTo": author, "inReplyTo": target, "content": content,
            "published": "2026-11-22T10:00:00Z", "url": id.replacingOccurrences(of: "/notes/", with: "/@\(name)/"),
            "to": to ?? ["https://www.w3.org/ns/activitystreams#Public"], "cc": cc ?? [author + "/followers", actor],
            "tag": [["type": "Mention", "href": actor, "name": "@blog@127.0.0.1:\(port)"]],
        ]
    }

    func create(_ note: [String: Any], by remote: FakeInstance, _ name: String) -> [String: Any] {
        ["@context": "https://www.w3.org/ns/activitystreams", "id": "\(note["id"]!)/activity", "type": "Create",
         "actor": remote.actorID(name), "to": note["to"]!, "cc": note["cc"]!, "object": note]
    }
}

import OutboundHTTP
enum HTTPClientForTests {
    static func get(_ url: String, accept: String) async throws -> IncomingResponse {
        try await FetchClient(allowPrivateAddresses: true).perform(OutgoingRequest(url: url, headers: [("Accept", accept)]), on: testTransfers)
    }
}

/// A fake instance and a blog federating with it (`follower` on it following the blog first),
/// both stopped once `body` is done.
/// `admin`: with the admin listener (`/metrics`, `/healthz`) on `blog.adminPort`.
func withBlog<T>(extraConfig: String = "", follower: String? = nil, admin: Bool = false, background: Bool = true,
                 _ body: (FakeInstance, BlogFixture) async throws -> T) async throws -> T {
    try await withBlog(extraConfig: { _ in extraConfig }, follower: follower, admin: admin, background: background, body)
}

/// The same, with configuration that names the fake instance's addresses.
func withBlog<T>(extraConfig: (FakeInstance) -> String, follower: String? = nil, admin: Bool = false, background: Bool = true,
                 _ body: (FakeInstance, BlogFixture) async throws -> T) async throws -> T {
    let remote = try FakeInstance()
    try await remote.start()
    defer { remote.stop() }
    let blog = try await BlogFixture(remote: remote, extraConfig: extraConfig(remote), background: background, admin: admin)
    defer { blog.stop() }
    if let follower { try await blog.follow(by: remote, follower) }
    return try await body(remote, blog)
}

extension BlogFixture {
    /// The admin listener's Prometheus text (a fixture started with `admin: true`).
    func metrics() async throws -> String {
        let admin = "http://127.0.0.1:\(try #require(adminPort))"
        return String(decoding: try await HTTPClientForTests.get(admin + "/metrics", accept: "*/*").body, as: UTF8.self)
    }
}

/// One series' value in Prometheus text (`name{labels}` exactly as written there).
func metricValue(_ text: String, _ series: String) -> Double? {
    text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.split(separator: " ").last!) }
}

/// The admin listener's settings when both its port and registry are there.
func zipAdmin(_ port: Int?, _ registry: PrometheusCollectorRegistry?) -> BlogServer.Admin? {
    guard let port, let registry else { return nil }
    return BlogServer.Admin(port: port, registry: registry)
}
