import ActivityPub
import Foundation
import Hummingbird
import Interactions

/// The read side of the ActivityPub surface: discovery, actors and collections.
/// (Post URLs are negotiated in `SiteResponder`, next to the static files.)
enum ActivityPubRoutes {
    static let activityJSON = "application/activity+json; charset=utf-8"

    /// `current` gives the ActivityPub face as the settings say now (they can be reloaded).
    static func add(to router: Router<BlogRequestContext>, current: @escaping @Sendable () -> BlogActor) {
        let username = current().config.username
        let cors: HTTPFields = [.accessControlAllowOrigin: "*"]
        router.get("/.well-known/webfinger") { request, _ -> Response in
            guard let resource = request.uri.queryParameters["resource"].map(String.init), !resource.isEmpty else {
                return plain(.badRequest, "the resource parameter is required\n")
            }
            guard let jrd = try current().webFinger(resource: resource) else { return plain(.notFound, "no such account here\n") }
            return json(jrd, type: "application/jrd+json; charset=utf-8", extra: cors)
        }
        router.get("/.well-known/host-meta") { _, _ -> Response in
            Response(status: .ok, headers: [.contentType: "application/xrd+xml; charset=utf-8", .accessControlAllowOrigin: "*"],
                     body: .init(byteBuffer: ByteBuffer(string: current().hostMeta)))
        }
        router.get("/.well-known/nodeinfo") { _, _ -> Response in
            json(try current().nodeInfoLinks(), type: "application/json; charset=utf-8", extra: cors)
        }
        for version in BlogActor.nodeInfoVersions {
            router.get("/nodeinfo/\(version)") { _, _ -> Response in
                json(try current().nodeInfo(version: version),
                     type: "application/json; profile=\"http://nodeinfo.diaspora.software/ns/schema/\(version)#\"; charset=utf-8", extra: cors)
            }
        }
        router.get("/actor") { _, _ -> Response in json(try current().actorJSON) }
        router.get("/@\(username)") { request, _ -> Response in
            // People who open the handle's URL in a browser get the blog itself.
            if !ContentNegotiation.wantsActivityJSON(accept: request.headers[.accept]) {
                return Response(status: .found, headers: [.location: "/", .contentLength: "0"])
            }
            return json(try current().actorJSON)
        }
        router.get("/instance-actor") { _, _ -> Response in json(try current().instanceActorJSON) }
        router.get("/instance-actor/:collection") { _, context -> Response in
            guard let collection = try current().instanceCollection(context.parameters.get("collection") ?? "") else {
                return plain(.notFound, "not found\n")
            }
            return json(collection)
        }
        // A rotated key, current or retired less than 7 days ago: public, like the actor.
        router.get("/actor/keys/:token") { _, context -> Response in
            guard let key = try current().keyDocument(token: context.parameters.get("token") ?? "") else {
                return plain(.notFound, "not found\n")
            }
            return json(key)
        }
        let signed = SignedFetch(current: current)
        router.get("/actor/outbox") { request, _ -> Response in
            try await signed.check(request) ?? json(try current().outbox(page: try page(request)))
        }
        router.get("/actor/followers") { request, _ -> Response in
            if let domain = request.uri.queryParameters["domain"] { return try await partialFollowers(domain: String(domain), request) }
            return try await signed.check(request) ?? json(try current().followers(page: try page(request)))
        }
        router.get("/actor/following") { request, _ -> Response in try await signed.check(request) ?? json(try current().following(page: try page(request))) }
        router.get("/actor/featured") { request, _ -> Response in try await signed.check(request) ?? json(try current().featured()) }
        postCollection("replies") { site, path, request in try site.replies(postPath: path, page: try page(request)) }
        postCollection("context") { site, path, request in try site.threadContext(postPath: path, page: try page(request)) }
        postCollection("likes") { site, path, _ in try site.reactions(postPath: path, .likes) }
        postCollection("shares") { site, path, _ in try site.reactions(postPath: path, .shares) }
        for kind in ["notes", "quotes"] {
            router.get("/actor/\(kind)/:token") { request, context -> Response in
                let site = current()
                let id = site.urls.actor + "/\(kind)/" + (context.parameters.get("token") ?? "")
                let asker: String?
                switch try await signed.asker(request) {
                case .retryLater(let response): return response
                case .actor(let actor): asker = actor
                }
                switch try site.sentObject(id: id, fetchedBy: asker) {
                case .document(let data): return json(data, extra: [.cacheControl: "private, no-store"])
                case .gone(let tombstone): return json(tombstone, status: .gone, extra: [.cacheControl: "private, no-store"])
                case .notFound: return plain(.notFound, "not found\n")
                }
            }
        }

        /// FEP-8fcf: only an actor of `domain`, by a verified signature, sees its followers of the blog.
        @Sendable func partialFollowers(domain: String, _ request: Request) async throws -> Response {
            switch try await signed.asker(request) {
            case .retryLater(let response): return response
            case .actor(nil):
                return json(Data(#"{"error":"Request not signed or signature invalid"}"#.utf8), type: "application/json; charset=utf-8",
                            status: .unauthorized)
            case .actor(let actor?):
                guard let collection = try current().partialFollowers(domain: domain, asker: actor) else {
                    return json(Data(#"{"error":"forbidden"}"#.utf8), type: "application/json; charset=utf-8", status: .forbidden)
                }
                return json(collection, extra: [.cacheControl: "private, no-store"])
            }
        }

        /// `/:year/:slug/<name>`: a collection about one post; 404 when the path is no post.
        func postCollection(_ name: String, _ document: @escaping @Sendable (BlogActor, String, Request) throws -> Data?) {
            router.get("/:year/:slug/\(name)") { request, context -> Response in
                if let refusal = try await signed.check(request) { return refusal }
                let path = "/\(context.parameters.get("year") ?? "")/\(context.parameters.get("slug") ?? "")/"
                guard let collection = try document(current(), path, request) else { throw HTTPError(.notFound) }
                return json(collection)
            }
        }
    }

    /// `?page=N` (1-based); absent means the collection itself.
    static func page(_ request: Request) throws -> Int? {
        guard let text = request.uri.queryParameters["page"] else { return nil }
        guard let page = Int(text), page >= 1, page <= 1_000_000 else { throw HTTPError(.badRequest, message: "bad page number") }
        return page
    }

    static func json(_ data: Data, type: String = activityJSON, status: HTTPResponse.Status = .ok,
                     extra: HTTPFields = [:]) -> Response {
        var headers: HTTPFields = [.contentType: type, .contentLength: String(data.count), .cacheControl: "public, max-age=60"]
        for field in extra { headers[field.name] = field.value }  // replaces the defaults
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func plain(_ status: HTTPResponse.Status, _ text: String) -> Response {
        StaticFileResponder.plain(status, text)
    }
}
