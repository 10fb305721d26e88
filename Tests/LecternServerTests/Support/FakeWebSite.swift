import BlogModel
import Foundation
import Hummingbird
import Synchronization

/// Someone else's web site, in process on a loopback port: pages served as scripted (status,
/// headers, body, delay), and the POSTs it receives recorded (a webmention endpoint). Serves the
/// sources of webmentions sent to the blog, and the targets of those the blog sends.
final class FakeWebSite: Sendable {
    struct Page: Sendable {
        var status = 200
        var headers: [(String, String)] = [("Content-Type", "text/html; charset=utf-8")]
        var body = ""
        /// Seconds before answering.
        var delay: Double = 0
    }

    struct Post: Sendable {
        let path: String
        let query: String?
        let contentType: String?
        let form: [String: String]
    }

    let base = Box("")
    let pages = Box<[String: Page]>([:])
    let posts = Box<[Post]>([])
    /// Statuses POSTs answer with, in turn, per path (then 202).
    let scripted = Box<[String: [Int]]>([:])
    let gets = Box<[String: Int]>([:])
    private let application = Box<RunningApplication?>(nil)

    func url(_ path: String) -> String { base.value + path }
    var host: String { String(base.value.dropFirst("http://".count)) }

    func serve(_ path: String, _ page: Page) { pages.update { $0[path] = page } }
    func serve(_ path: String, html: String, status: Int = 200) { serve(path, Page(status: status, body: html)) }

    func start() async throws {
        let router = Router()
        let pages = self.pages, posts = self.posts, scripted = self.scripted, gets = self.gets
        router.get("/**") { request, _ -> Response in
            let path = request.uri.path
            gets.update { $0[path, default: 0] += 1 }
            guard let page = pages.value[path] else { return Response(status: .notFound) }
            if page.delay > 0 { try await Task.sleep(for: .milliseconds(Int(page.delay * 1000))) }
            var headers = HTTPFields()
            for (name, value) in page.headers { headers.append(HTTPFields.Element(name: HTTPFields.Element.Name(name)!, value: value)) }
            return Response(status: .init(code: page.status), headers: headers, body: .init(byteBuffer: ByteBuffer(string: page.body)))
        }
        router.post("/**") { request, _ -> Response in
            var request = request
            let body = try await request.collectBody(upTo: 1 << 16)
            let path = request.uri.path
            var form: [String: String] = [:]
            for pair in String(buffer: body).split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
                if parts.count == 2 { form[parts[0]] = parts[1] }
            }
            posts.update { $0.append(Post(path: path, query: request.uri.query, contentType: request.headers[.contentType], form: form)) }
            var status = 202
            scripted.update { script in
                if var statuses = script[path], !statuses.isEmpty { status = statuses.removeFirst(); script[path] = statuses }
            }
            return Response(status: .init(code: status))
        }
        let base = self.base
        let (_, application) = try await startApplication { onRunning in
            Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                        onServerRunning: { channel in
                            let port = channel.localAddress?.port ?? 0
                            base.value = "http://127.0.0.1:\(port)"
                            await onRunning(port)
                        }, logger: quietLogger("website"))
        }
        self.application.value = application
    }

    func stop() { application.value?.stop() }
}
