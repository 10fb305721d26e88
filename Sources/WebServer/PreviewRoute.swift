import HTTPTypes
import Hummingbird
import LecternRuntime
import NIOCore

/// `serve --watch`: the drafts' preview, `GET /_lectern/preview/<path>` from `preview/` (a draft
/// at `/2025/06/my-draft/` previews at `/_lectern/preview/2025/06/my-draft/`), beside the live
/// site, which never shows a draft.
///
/// Answered only to a browser on this machine talking to the server directly: a loopback peer
/// and no proxy's forwarding header. A watching server put behind nginx by mistake shows its
/// drafts to nobody; never cached, never indexed.
struct PreviewRoute: Sendable {
    let files: StaticFileResponder

    static let forwardingFields: [HTTPField.Name] = [HTTPField.Name("Forwarded")!, HTTPField.Name("X-Forwarded-For")!,
                                                    HTTPField.Name("X-Real-IP")!]

    func add(to router: Router<BlogRequestContext>) {
        let prefix = Blog.previewPrefix
        for pattern in [prefix, prefix + "/**"] {
            router.get(RouterPath(pattern)) { request, context -> Response in
                guard Self.isLocal(context.remoteAddress), !Self.forwardingFields.contains(where: { request.headers[$0] != nil }) else {
                    return StaticFileResponder.plain(.forbidden, "Previews are shown only to a browser on the machine that runs lectern serve --watch.\n")
                }
                var head = request.head
                let rest = request.uri.path.dropFirst(prefix.count)
                head.path = rest.isEmpty ? "/" : String(rest)
                var response: Response
                if case .response(let answer) = try await files.answer(Request(head: head, body: request.body), context: context) {
                    response = answer
                } else {
                    response = files.notFound(request)
                }
                if let location = response.headers[.location], location.hasPrefix("/") { response.headers[.location] = prefix + location }
                response.headers[.cacheControl] = "no-store"
                response.headers[HTTPField.Name("X-Robots-Tag")!] = "noindex"
                return response
            }
        }
    }

    static func isLocal(_ address: SocketAddress?) -> Bool {
        guard let ip = address?.ipAddress else { return false }
        return ip.hasPrefix("127.") || ip == "::1" || ip.hasPrefix("::ffff:127.")
    }
}
