import Foundation
import Testing
@testable import WebServer

/// HEAD answers as GET does, without the body, on every route (RFC 9110 §9.1, §9.3.2; issue 37).
@Suite(.serialized) struct HeadRequestTests {
    @Test func everyRouteAnswersHead() async throws {
        try await withBlog { remote, blog in
            let host = "127.0.0.1:\(blog.port)"
            let paths = ["/.well-known/webfinger?resource=acct:blog@\(host)", "/.well-known/host-meta", "/.well-known/nodeinfo",
                         "/nodeinfo/2.1", "/actor", "/actor/outbox", "/actor/followers", "/", blog.post]
            for path in paths {
                let get = try await blog.get(path, accept: "application/activity+json")
                let connection = try RawConnection(port: blog.port)
                connection.send("HEAD \(path) HTTP/1.1\r\nHost: \(host)\r\nAccept: application/activity+json\r\nConnection: close\r\n\r\n")
                let answer = try #require(connection.receive(within: 5), "\(path): no answer")
                let status = answer.split(separator: " ").dropFirst().first.map(String.init)
                #expect(status == String(get.status), "\(path): HEAD \(status ?? "?"), GET \(get.status)")
                let parts = answer.components(separatedBy: "\r\n\r\n")
                #expect(parts.count == 2 && parts[1].isEmpty, "\(path): a HEAD answer has no body")
                #expect(answer.lowercased().contains("content-length: \(get.body.utf8.count)"), "\(path): \(parts[0])")
            }
        }
    }
}
