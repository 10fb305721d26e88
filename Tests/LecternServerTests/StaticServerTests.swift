import BlogModel
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
@testable import WebServer
import Site

/// Builds a small site and runs the real server on an ephemeral loopback port.
private func withServer(_ test: @escaping @Sendable (any TestClientProtocol, URL, ServedFiles) async throws -> Void) async throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-serve-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    try SiteScaffold.create(at: root)
    try Data(String(repeating: "big file ", count: 1_200_000).utf8)
        .write(to: root.appendingPathComponent("static/big.txt"))
    try SiteBuilder(root: root).build()
    // A symlink that points out of public/ must never be followed.
    try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("public/escape.txt").path,
                                               withDestinationPath: root.appendingPathComponent("lectern.yml").path)
    let site = try ServedFiles(publicFolder: root.appendingPathComponent("public"))
    var logger = Logger(label: "test")
    logger.logLevel = .critical  // cancelled test servers report their shutdown as errors
    let app = LecternServer.makeApplication(site: site, host: "127.0.0.1", port: 0, logger: logger)
    try await app.test(.live) { client in try await test(client, root, site) }
}

@Suite struct StaticServerTests {
    let post = "/2025/welcome-to-lectern/"

    @Test func servesPagesWithTypesAndValidators() async throws {
        try await withServer { client, _, _ in
            try await client.execute(uri: post, method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                #expect(response.headers[.eTag]?.hasPrefix("\"") == true)
                #expect(response.headers[.lastModified]?.hasSuffix("GMT") == true)
                #expect(response.headers[.cacheControl] == "public, no-cache")
                #expect(String(buffer: response.body).contains("<h1 class=\"p-name\" dir=\"auto\">Welcome to Lectern</h1>"))
            }
            try await client.execute(uri: "/feed.xml", method: .get) { response in
                #expect(response.headers[.contentType] == "application/atom+xml; charset=utf-8")
            }
            try await client.execute(uri: "/images/lectern.svg", method: .get) { response in
                #expect(response.headers[.contentType] == "image/svg+xml; charset=utf-8")
            }
        }
    }

    @Test func answers304ForMatchingValidators() async throws {
        try await withServer { client, _, _ in
            let first = try await client.execute(uri: post, method: .get)
            let etag = try #require(first.headers[.eTag])
            let modified = try #require(first.headers[.lastModified])
            try await client.execute(uri: post, method: .get, headers: [.ifNoneMatch: "\"other\", \(etag)"]) {
                #expect($0.status == .notModified)
                #expect($0.body.readableBytes == 0)
            }
            try await client.execute(uri: post, method: .get, headers: [.ifModifiedSince: modified]) {
                #expect($0.status == .notModified)
            }
            try await client.execute(uri: post, method: .get, headers: [.ifNoneMatch: "\"stale\""]) {
                #expect($0.status == .ok)
            }
            try await client.execute(uri: post, method: .get,
                                     headers: [.ifModifiedSince: "Mon, 01 Jan 2001 00:00:00 GMT"]) {
                #expect($0.status == .ok)
            }
        }
    }

    @Test func servesPrecompressedGzipWhenAccepted() async throws {
        try await withServer { client, _, _ in
            let plain = try await client.execute(uri: post, method: .get)
            #expect(plain.headers[.contentEncoding] == nil)
            #expect(plain.headers[.vary] == "Accept-Encoding")
            try await client.execute(uri: post, method: .get, headers: [.acceptEncoding: "br, gzip;q=0.8"]) { response in
                #expect(response.headers[.contentEncoding] == "gzip")
                #expect(response.body.readableBytes < plain.body.readableBytes)
                #expect(response.body.getBytes(at: 0, length: 2) == [0x1f, 0x8b])
            }
            try await client.execute(uri: post, method: .get, headers: [.acceptEncoding: "gzip;q=0, deflate"]) {
                #expect($0.headers[.contentEncoding] == nil)
            }
        }
    }

    @Test func headHasHeadersButNoBody() async throws {
        try await withServer { client, _, _ in
            let get = try await client.execute(uri: "/", method: .get)
            try await client.execute(uri: "/", method: .head) { response in
                #expect(response.status == .ok)
                #expect(response.body.readableBytes == 0)
                #expect(response.headers[.contentLength] == String(get.body.readableBytes))
            }
        }
    }

    @Test func redirectsFolderWithoutSlash() async throws {
        try await withServer { client, _, _ in
            try await client.execute(uri: "/2025/welcome-to-lectern?ref=x", method: .get) { response in
                #expect(response.status == .movedPermanently)
                #expect(response.headers[.location] == "/2025/welcome-to-lectern/?ref=x")
            }
        }
    }

    @Test func unknownPathsGetTheSite404Page() async throws {
        try await withServer { client, _, _ in
            try await client.execute(uri: "/no/such/page/", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(String(buffer: response.body).contains("Page not found"))
            }
        }
    }

    @Test(arguments: ["/../lectern.yml", "/%2e%2e/lectern.yml", "/2025/%2e%2e/%2e%2e/lectern.yml",
                      "/..%2flectern.yml", "/.lectern/manifest.json", "/escape.txt", "/index.html.gz",
                      "/%2Fetc%2Fpasswd", "//etc/passwd", "/..%5Clectern.yml"])
    func traversalNeverEscapesPublic(path: String) async throws {
        try await withServer { client, _, _ in
            try await client.execute(uri: path, method: .get) { response in
                #expect(response.status == .notFound || response.status == .badRequest, "\(path) → \(response.status)")
                #expect(!String(buffer: response.body).contains("baseURL"))
            }
        }
    }

    @Test func nulByteIsABadRequest() async throws {
        try await withServer { client, _, _ in
            try await client.execute(uri: "/index.html%00.txt", method: .get) { #expect($0.status == .badRequest) }
        }
    }

    @Test func largeFilesStreamFromDisk() async throws {
        try await withServer { client, _, _ in
            try await client.execute(uri: "/big.txt", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.body.readableBytes == 9 * 1_200_000)
                #expect(response.headers[.contentLength] == String(9 * 1_200_000))
            }
        }
    }

    /// What grows with a blog's history, older pages of comments and the comments JSON, is read
    /// from disk at each request (its gzip twin too), with validators from memory; the post's own
    /// page stays in memory.
    @Test func olderCommentPagesAndTheCommentsJSONAreReadFromDisk() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-cold-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try SiteScaffold.create(at: root)
        let comments = (1...45).map { number in
            Discussion.Comment(id: "https://m.example/notes/\(number)", parentID: nil, authorName: "Ana", authorHandle: "@ana@m.example",
                               authorURL: "https://m.example/@ana", avatarURL: nil, url: "https://m.example/@ana/\(number)",
                               contentHTML: "<p>Comment number \(number), long enough to be worth compressing for sure.</p>",
                               summary: nil, sensitive: false, published: Date(timeIntervalSince1970: 1_750_000_000 + Double(number * 60)),
                               updated: nil)
        }
        try SiteBuilder(root: root).build(.init(discussions: [post: Discussion(comments: comments)]))
        let folder = root.appendingPathComponent("public")
        let site = try ServedFiles(publicFolder: folder)
        let older = "2025/welcome-to-lectern/comments/1/index.html", json = "comments/2025/welcome-to-lectern.json"
        #expect(site.index[older]?.body == nil && site.index[older]?.gzipOnDisk != nil)
        #expect(site.index[json]?.body == nil)
        #expect(site.index["2025/welcome-to-lectern/index.html"]?.body != nil)
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let app = LecternServer.makeApplication(site: site, host: "127.0.0.1", port: 0, logger: logger)
        try await app.test(.live) { client in
            let plain = try Data(contentsOf: folder.appendingPathComponent(older))
            let compressed = try Data(contentsOf: folder.appendingPathComponent(older + ".gz"))
            let jsonBytes = try Data(contentsOf: folder.appendingPathComponent(json))
            let etag = try await client.execute(uri: "/" + older.dropLast("index.html".count), method: .get) { response in
                #expect(response.status == .ok && response.headers[.contentEncoding] == nil)
                #expect(Data(buffer: response.body) == plain && String(buffer: response.body).contains("Comment number 1,"))
                return response.headers[.eTag]
            }
            try await client.execute(uri: "/" + older.dropLast("index.html".count), method: .get, headers: [.acceptEncoding: "gzip"]) { response in
                #expect(response.headers[.contentEncoding] == "gzip" && response.headers[.vary] == "Accept-Encoding")
                #expect(Data(buffer: response.body) == compressed)
            }
            try await client.execute(uri: "/" + older.dropLast("index.html".count), method: .get, headers: [.ifNoneMatch: etag ?? ""]) {
                #expect($0.status == .notModified)
            }
            try await client.execute(uri: "/" + json, method: .get) { response in
                #expect(response.status == .ok && response.headers[.contentType]?.hasPrefix("application/json") == true)
                #expect(Data(buffer: response.body) == jsonBytes)
            }
        }
    }

    @Test func reloadServesTheNewBuild() async throws {
        try await withServer { client, root, site in
            try Data("---\ntitle: Fresh Post\ndate: 2025-05-05\n---\nNew!\n".utf8)
                .write(to: root.appendingPathComponent("content/posts/fresh.md"))
            try await client.execute(uri: "/2025/fresh-post/", method: .get) { #expect($0.status == .notFound) }
            try SiteBuilder(root: root).build()
            try site.reload()
            try await client.execute(uri: "/2025/fresh-post/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("New!"))
            }
        }
    }
}

@Suite struct RequestPathTests {
    @Test func resolution() {
        let files: Set<String> = ["index.html", "a/index.html", "feed.xml"]
        func resolve(_ path: String) -> RequestPath.Resolution { RequestPath.resolve(path) { files.contains($0) } }
        #expect(resolve("/") == .file("index.html"))
        #expect(resolve("/a/") == .file("a/index.html"))
        #expect(resolve("/a") == .redirect("/a/"))
        #expect(resolve("/feed.xml") == .file("feed.xml"))
        #expect(resolve("/b/") == .notFound)
        #expect(resolve("/%ZZ") == .badRequest)
        #expect(resolve("/a/%2e%2e/feed.xml") == .notFound)
    }

    @Test func acceptEncoding() {
        #expect(ConditionalRequest.acceptsGzip([.acceptEncoding: "gzip"]))
        #expect(ConditionalRequest.acceptsGzip([.acceptEncoding: "*"]))
        #expect(!ConditionalRequest.acceptsGzip([.acceptEncoding: "gzip;q=0"]))
        #expect(!ConditionalRequest.acceptsGzip([.acceptEncoding: "identity"]))
        #expect(!ConditionalRequest.acceptsGzip([:]))
    }
}
