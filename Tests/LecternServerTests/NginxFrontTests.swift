import Foundation
import Testing

/// Real nginx with the shipped `deploy/nginx.conf` (plain HTTP, as it is before certbot adds TLS;
/// only the ports and the paths substituted) in front of a real Lectern, both on loopback.
@Suite(.serialized) struct NginxFrontTests {
    static let deploy = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("deploy")

    /// curl: status, headers (lower-cased names) and body.
    func curl(_ url: String, _ arguments: [String] = []) throws -> (status: Int, headers: [String: String], body: String) {
        let (code, output) = try run(["curl", "-s", "--max-time", "10", "-D", "-", url] + arguments)
        #expect(code == 0, "curl \(url): \(output)")
        let parts = output.components(separatedBy: "\r\n\r\n")
        let head = parts.first?.split(separator: "\r\n") ?? []
        let status = head.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return (status, headers, parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    @Test func shippedNginxConfigServesFilesAndProxiesTheRest() async throws {
        // The blog is reached through nginx's port: that host is one of its names.
        let http = try freePort()
        try await withBlog(extraConfig: "  hostAliases: [\"127.0.0.1:\(http)\"]\n") { remote, blog in
            let work = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-nginx-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: work) }
            // A removed post, to be answered 410 by Lectern through nginx.
            let removed = "/2025/cafe-creme-naive-resume/"
            try FileManager.default.removeItem(at: blog.root.appendingPathComponent("content/posts/2025-03-21-cafe-notes.md"))
            try blog.rebuild()
            #expect(try await blog.get(removed).status == 410)

            // An ACME HTTP challenge in the webroot (what `certbot certonly --webroot` writes).
            let challenges = work.appendingPathComponent(".well-known/acme-challenge")
            try FileManager.default.createDirectory(at: challenges, withIntermediateDirectories: true)
            try "proof".write(to: challenges.appendingPathComponent("t0ken"), atomically: true, encoding: .utf8)
            let shipped = try String(contentsOf: Self.deploy.appendingPathComponent("nginx.conf"), encoding: .utf8)
            let site = shipped
                .replacingOccurrences(of: "/etc/nginx/lectern_proxy.conf", with: Self.deploy.appendingPathComponent("lectern_proxy.conf").path)
                .replacingOccurrences(of: "/var/lib/lectern/public", with: blog.root.appendingPathComponent("public").path)
                .replacingOccurrences(of: "/var/www/html", with: work.path)
                .replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(blog.port)")
                .replacingOccurrences(of: "listen 80;", with: "listen 127.0.0.1:\(http);")
                .replacingOccurrences(of: "listen [::]:80;", with: "listen [::1]:\(http);")
            #expect(site != shipped)
            try site.write(to: work.appendingPathComponent("site.conf"), atomically: true, encoding: .utf8)
            let main = """
                daemon off;
                user root;
                pid \(work.path)/nginx.pid;
                error_log \(work.path)/error.log;
                events {}
                http {
                    include /etc/nginx/mime.types;
                    access_log \(work.path)/access.log;
                    client_body_temp_path \(work.path)/body; proxy_temp_path \(work.path)/proxy;
                    fastcgi_temp_path \(work.path)/fastcgi; uwsgi_temp_path \(work.path)/uwsgi; scgi_temp_path \(work.path)/scgi;
                    include \(work.path)/site.conf;
                }
                """
            try main.write(to: work.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
            let nginx = Process()
            nginx.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
            nginx.arguments = ["-c", work.appendingPathComponent("nginx.conf").path, "-p", work.path]
            nginx.standardError = FileHandle.nullDevice
            try nginx.run()
            defer { nginx.terminate(); nginx.waitUntilExit() }
            let base = "http://127.0.0.1:\(http)"
            #expect(try await eventually(within: 10) { (try? run(["curl", "-s", "-o", "/dev/null", base + "/"]).0) == 0 },
                    "nginx started: \((try? String(contentsOf: work.appendingPathComponent("error.log"), encoding: .utf8)) ?? "")")

            // A page straight from public/ (nginx's own ETag: mtime-size), with Vary: Accept.
            let home = try curl(base + "/")
            #expect(home.status == 200 && home.body.contains("<html"))
            #expect(home.headers["etag"]?.wholeMatch(of: /"[0-9a-f]+-[0-9a-f]+"/) != nil, "served by nginx: \(home.headers)")
            #expect(home.headers["vary"]?.contains("Accept") == true)
            // The same URL as ActivityPub: Lectern's Article.
            let article = try curl(base + blog.post, ["-H", "Accept: application/activity+json"])
            #expect(article.status == 200)
            #expect(article.body.contains("\"type\":\"Article\"") || article.body.contains("\"type\" : \"Article\""), "\(article.body.prefix(200))")
            // Lectern's answers: a removed post, a missing slash, WebFinger; the build's records are hidden.
            #expect(try curl(base + removed).status == 410)
            #expect(try curl(base + removed, ["-H", "Accept: application/activity+json"]).body.contains("Tombstone"))
            #expect(try curl(base + "/.lectern/manifest").status == 404)
            let webfinger = try curl(base + "/.well-known/webfinger?resource=acct:blog@127.0.0.1:\(blog.port)")
            #expect(webfinger.status == 200, "\(webfinger.body)")
            // IPv6, and the ACME challenge from the webroot (not Lectern's /.well-known/).
            #expect(try curl("http://[::1]:\(http)/").status == 200)
            let acme = try curl(base + "/.well-known/acme-challenge/t0ken")
            #expect(acme.status == 200 && acme.body == "proof", "\(acme)")

            // A signed Follow through nginx: the signature (Host included) verifies, the follower is kept.
            let follow: [String: Any] = ["id": remote.actorID("alice") + "/follows/nginx", "type": "Follow",
                                         "actor": remote.actorID("alice"), "object": blog.actor]
            let signed = try remote.signedPost(follow, as: "alice", to: base + "/inbox")
            let body = work.appendingPathComponent("follow.json")
            try Data(signed.body).write(to: body)
            let headers = signed.headers.flatMap { ["-H", "\($0.0): \($0.1)"] }
            let posted = try curl(base + "/inbox", ["-X", "POST", "--data-binary", "@" + body.path] + headers)
            #expect(posted.status == 202, "\(posted)")
            #expect(try await eventually { try blog.store.followers.isFollower(remote.actorID("alice")) })
        }
    }
}
