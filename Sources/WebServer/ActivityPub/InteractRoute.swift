import ActivityPub
import Foundation
import Hummingbird
import Interactions

/// `GET /interact?instance=…&uri=…`: the comment section's "reply from your server" form, and
/// with `intent=follow` the follow card's (the blog's actor is then the object, whatever `uri`
/// says). Sends the reader on (303) to their server's intent (FEP-3b86 `Create` or `Follow`)
/// when they typed their handle and the server publishes one, else to its
/// `authorize_interaction` page; or says what was wrong.
struct InteractRoute: Sendable {
    let current: @Sendable () -> BlogActor

    func add(to router: Router<BlogRequestContext>) {
        router.get("/interact") { request, _ -> Response in
            let query = request.uri.queryParameters
            let instance = query["instance"].map(String.init) ?? ""
            do {
                let site = current()
                let target: String?
                if query["intent"] == "follow" {
                    let actor = site.urls.actor
                    if let intent = await site.followIntent(typed: instance) { target = intent } else {
                        target = try RemoteInteraction(baseURL: site.config.baseURL).redirect(instance: instance, uri: actor)
                    }
                } else {
                    let uri = query["uri"].map(String.init) ?? ""
                    if let intent = try await site.replyIntent(typed: instance, uri: uri) { target = intent } else {
                        target = try RemoteInteraction(baseURL: site.config.baseURL).redirect(instance: instance, uri: uri)
                    }
                }
                guard let target else { throw RemoteInteraction.Refusal.notAHostname }
                return Response(status: .seeOther, headers: [.location: target, .contentLength: "0", .cacheControl: "no-store"])
            } catch let refusal as RemoteInteraction.Refusal {
                return StaticFileResponder.plain(.badRequest, refusal.description + "\n")
            }
        }
    }
}
