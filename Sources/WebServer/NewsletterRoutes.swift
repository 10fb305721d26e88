import BlogModel
import Foundation
import Hummingbird
import LecternRuntime
import NIOCore

/// The newsletter's pages: `POST /subscribe` (the footer's form), the confirmation link
/// (`GET /subscribe/confirm` shows a button, whose `POST` confirms: a mail scanner that follows
/// links subscribes nobody), and the unsubscribe link (`GET /unsubscribe` shows a button;
/// `POST /unsubscribe?token=…` removes the address at once, RFC 8058's one-click). Every answer
/// is a page of the theme, never cached; each store call runs off the cooperative pool.
struct NewsletterRoutes: Sendable {
    let blog: Blog
    /// Form bodies over this are refused (413): an address and a token fit in far less.
    static let maximumBody = 4096

    func add(to router: Router<BlogRequestContext>) {
        router.post("/subscribe") { request, _ in
            guard let form = try await Self.form(request) else { return try await page(.contentTooLarge, "Too long", "<p>That form is too long.</p>") }
            let typed = form["email"] ?? ""
            let blog = blog
            switch try await OffPool.run({ try blog.subscribe(typed: typed) }) {
            case .checkYourInbox:
                return try await page(.ok, "Check your inbox", """
                    <p>If <strong>\(HTMLText.escape(typed.trimmingCharacters(in: .whitespaces)))</strong> is not on the list yet, a mail with \
                    a link to confirm is on its way. Nothing else is sent before you confirm.</p>
                    """)
            case .invalidAddress:
                return try await page(.badRequest, "Not an address", "<p>That is not an email address this newsletter can take (user@example.com).</p>")
            case .refused:
                return try await page(.forbidden, "Not taken", "<p>This newsletter does not take addresses of that domain.</p>")
            case .busy:
                var response = try await page(.serviceUnavailable, "Try again later",
                                              "<p>Many people subscribed in the last hour; please try again in an hour.</p>")
                response.headers[.retryAfter] = "3600"
                return response
            case .off:
                return try await page(.notFound, "No newsletter", "<p>This blog has no newsletter.</p>")
            }
        }
        router.get("/subscribe/confirm") { request, _ in
            let token = request.uri.queryParameters["token"].map(String.init) ?? ""
            let blog = blog
            guard try await OffPool.run({ try blog.confirmationIsValid(token: token) }) else { return try await unknownLink() }
            return try await page(.ok, "Confirm your subscription", """
                <p>One more step: press the button to get new posts by email.</p>
                <form method="post" action="/subscribe/confirm"><input type="hidden" name="token" value="\(HTMLText.escape(token))">\
                <button type="submit">Confirm my subscription</button></form>
                """)
        }
        router.post("/subscribe/confirm") { request, _ in
            guard let form = try await Self.form(request) else { return try await unknownLink() }
            let token = form["token"] ?? ""
            let blog = blog
            guard try await OffPool.run({ try blog.confirmSubscription(token: token) }) else { return try await unknownLink() }
            return try await page(.ok, "Subscribed", "<p>Done: each new post will come to you by email. Every mail has a one-click unsubscribe link.</p>")
        }
        router.get("/unsubscribe") { request, _ in
            let token = request.uri.queryParameters["token"].map(String.init) ?? ""
            let blog = blog
            guard try await OffPool.run({ try blog.isSubscribed(unsubscribeToken: token) }) else {
                return try await page(.ok, "Not subscribed", "<p>This address is not on the list (any more).</p>")
            }
            return try await page(.ok, "Unsubscribe", """
                <p>Press the button to get no more mail from this blog.</p>
                <form method="post" action="/unsubscribe?token=\(HTMLText.escape(token))"><button type="submit">Unsubscribe</button></form>
                """)
        }
        router.post("/unsubscribe") { request, _ in
            let form = try await Self.form(request) ?? [:]
            let token = request.uri.queryParameters["token"].map(String.init) ?? form["token"] ?? ""
            let blog = blog
            let removed = try await OffPool.run { try blog.unsubscribe(token: token) }
            return try await page(.ok, removed ? "Unsubscribed" : "Not subscribed",
                                  removed ? "<p>Done: this address is off the list, and nothing about it is kept.</p>"
                                          : "<p>This address is not on the list (any more).</p>")
        }
    }

    /// 410: a 404 from a route would give way to the site's own "not found" page.
    private func unknownLink() async throws -> Response {
        try await page(.gone, "Link unknown or expired", "<p>This link is unknown, was used already, or is more than two days old. Subscribe again from any page of the blog.</p>")
    }

    private func page(_ status: HTTPResponse.Status, _ title: String, _ html: String) async throws -> Response {
        let blog = blog
        let text = try await OffPool.run { try blog.noticePage(title: title, html: html) }
        return Response(status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                                                  .contentLength: String(text.utf8.count)],
                        body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// The form's fields; nil when the body is over `maximumBody`.
    static func form(_ request: Request) async throws -> [String: String]? {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maximumBody { return nil }
        var request = request
        do {
            let body = try await request.collectBody(upTo: maximumBody)
            return SearchRoute.formFields(String(buffer: body))
        } catch is NIOTooManyBytesError {
            return nil
        }
    }
}
