import ActivityPub
import Foundation
import Hummingbird
import Interactions

/// `GET /interact?instance=…&uri=…`: the comment section's "reply from your server" form. Sends
/// the reader on (303) to their server's reply intent (FEP-3b86) when they typed their handle and
/// the server publishes one, else to its `authorize_interaction` page; or says what was wrong.
struct InteractRoute: Sendable {
    let current: @Sendable () -> BlogActor

    func add(to router: Router<BlogRequestContext>) {
        router.get("/interact") { request, _ -> Response in
            let query = request.uri.queryParameters
            let (instance, uri) = (query["instance"].map(String.init) ?? "", query["uri"].map(String.init) ?? "")
            do {
                let site = current()
                var target = try await site.replyIntent(typed: instance, uri: uri)
                if target == nil { target = try RemoteInteraction(baseURL: site.config.baseURL).redirect(instance: instance, uri: uri) }
                guard let target else { throw RemoteInteraction.Refusal.notAHostname }
                return Response(status: .seeOther, headers: [.location: target, .contentLength: "0", .cacheControl: "no-store"])
            } catch let refusal as RemoteInteraction.Refusal {
                return StaticFileResponder.plain(.badRequest, refusal.description + "\n")
            }
        }
    }
}
