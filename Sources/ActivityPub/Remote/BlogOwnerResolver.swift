import ActivityStreams
import Foundation
import Storage

/// Finds the owner's fediverse actor from `owner` in the configuration: an actor URL, or a
/// handle (`@me@social.example`) looked up with WebFinger. The answer is cached in the store.
public struct BlogOwnerResolver: Sendable {
    public let fetcher: RemoteFetcher
    public let actors: Actors
    public let blocks: Blocks
    public let values: StoredValues

    public init(fetcher: RemoteFetcher, actors: Actors, blocks: Blocks, values: StoredValues) {
        self.fetcher = fetcher
        (self.actors, self.blocks, self.values) = (actors, blocks, values)
    }

    public enum ResolveError: Error, CustomStringConvertible {
        case badHandle(String)
        case noActorLink(String)
        case notAnActor(String)
        case blocked(String)

        public var description: String {
            switch self {
            case .badHandle(let owner): return "owner '\(owner)' is neither @name@host nor an actor URL"
            case .noActorLink(let owner): return "WebFinger for \(owner) names no ActivityPub actor"
            case .notAnActor(let url): return "\(url) is not an actor document"
            case .blocked(let url): return "\(url) is blocked (lectern blocks list)"
            }
        }
    }

    /// The store setting that remembers which actor `owner` (a handle or URL) resolved to.
    package static func settingKey(_ owner: String) -> String { "owner_actor:" + owner }

    public func resolve(_ owner: String) async throws -> RemoteActor {
        let key = Self.settingKey(owner)
        if let id = try values.setting(key), let actor = try actors.remoteActor(id: id) { return actor }
        let actor = try await lookUp(owner).actor
        try values.setSetting(key, actor.id)
        return actor
    }

    /// Fetches the actor a handle or URL names, from its own origin, and remembers it (uncached:
    /// `lectern move` needs its `alsoKnownAs` as it is now).
    public func lookUp(_ handleOrURL: String) async throws -> (actor: RemoteActor, document: APObject) {
        let actorURL = handleOrURL.hasPrefix("https://") || handleOrURL.hasPrefix("http://") ? handleOrURL : try await webFinger(handleOrURL)
        // A WebFinger answer may name an actor on another server: a block holds there too.
        if try blocks.isBlocked(actorID: actorURL) { throw ResolveError.blocked(actorURL) }
        let document = try await fetcher.fetchAuthentic(actorURL).object
        guard let actor = ActorConversion.actor(from: document) else { throw ResolveError.notAnActor(actorURL) }
        try await actors.saveRemoteActor(actor, keys: ActorConversion.keys(from: document, owner: actor.id),
                                        assertionKeys: ActorConversion.assertionKeys(from: document, owner: actor.id))
        return (actor, document)
    }

    /// `@me@social.example` → the `self` link of type activity+json.
    func webFinger(_ handle: String) async throws -> String {
        let parts = handle.drop(while: { $0 == "@" }).split(separator: "@")
        guard parts.count == 2 else { throw ResolveError.badHandle(handle) }
        let account = "acct:\(parts[0])@\(parts[1])"
        let query = account.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed.subtracting(CharacterSet(charactersIn: "@:"))) ?? account
        let path = "://\(parts[1])/.well-known/webfinger?resource=\(query)"
        let answer: JRD
        do {
            answer = try await fetcher.fetch("https" + path, accept: "application/jrd+json, application/json").jrd()
        } catch where fetcher.client.allowPrivateAddresses {
            // Local testing: a peer on loopback usually speaks plain http.
            answer = try await fetcher.fetch("http" + path, accept: "application/jrd+json, application/json").jrd()
        }
        guard let href = answer.actorLink else { throw ResolveError.noActorLink(handle) }
        return href
    }
}
