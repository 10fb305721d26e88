import Federation
import Foundation
import Hummingbird

/// `GET /interact?instance=…&uri=…`: the comment section's "reply from your server" form. Sends
/// the reader on (303) to their server's `authorize_interaction` page, or says what was wrong.
struct InteractRoute: Sendable {
    let current: @Sendable () -> ActivityPubSite

    func add(to router: Router<BasicRequestContext>) {
        router.get("/interact") { request, _ -> Response in
            let query = request.uri.queryParameters
            do {
                let target = try RemoteInteraction(baseURL: current().config.baseURL)
                    .redirect(instance: query["instance"].map(String.init) ?? "", uri: query["uri"].map(String.init) ?? "")
                return Response(status: .seeOther, headers: [.location: target, .contentLength: "0", .cacheControl: "no-store"])
            } catch let refusal as RemoteInteraction.Refusal {
                return StaticFileResponder.plain(.badRequest, refusal.description + "\n")
            }
        }
    }
}
