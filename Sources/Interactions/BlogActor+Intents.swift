import ActivityPub
import Foundation

extension BlogActor {
    /// Where the reply form sends a reader who typed their handle: their server's FEP-3b86
    /// intent for a reply to `uri` (a post of this blog, checked first), when it publishes one;
    /// nil otherwise (the caller falls back to `authorize_interaction`).
    public func replyIntent(typed: String, uri: String) async throws -> String? {
        try RemoteInteraction(baseURL: config.baseURL).check(uri: uri)
        return await intents(typed: typed) { $0.reply(to: uri, host: $1, allowHTTP: $2) }
    }

    /// Where the follow card sends a reader who typed their handle: their server's FEP-3b86
    /// `Follow` intent for the blog's actor (else its subscribe template); nil otherwise (the
    /// caller falls back to `authorize_interaction`).
    public func followIntent(typed: String) async -> String? {
        let actor = urls.actor
        return await intents(typed: typed) { $0.follow(actor, host: $1, allowHTTP: $2) }
    }

    /// The reader's intents, through the bounded lookup, turned into a redirect by `pick`
    /// (given the typed server and whether http is allowed).
    private func intents(typed: String, _ pick: (ActivityIntents, String, Bool) -> String?) async -> String? {
        let development = config.federation.allowPrivateAddresses
        guard let (user, host) = RemoteInteraction.account(typed, allowLoopback: development) else { return nil }
        let scheme = development && host.hasPrefix("127.0.0.1:") ? "http" : "https"
        guard let intents = await intentLookup.intents(user: user, authority: host, scheme: scheme) else { return nil }
        return pick(intents, host, development)
    }
}
