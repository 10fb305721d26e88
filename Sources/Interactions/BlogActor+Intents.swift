import ActivityPub
import Foundation

extension BlogActor {
    /// Where the reply form sends a reader who typed their handle: their server's FEP-3b86
    /// intent for a reply to `uri` (a post of this blog, checked first), when it publishes one;
    /// nil otherwise (the caller falls back to `authorize_interaction`).
    public func replyIntent(typed: String, uri: String) async throws -> String? {
        try RemoteInteraction(baseURL: config.baseURL).check(uri: uri)
        let development = config.federation.allowPrivateAddresses
        guard let (user, host) = RemoteInteraction.account(typed, allowLoopback: development) else { return nil }
        let scheme = development && host.hasPrefix("127.0.0.1:") ? "http" : "https"
        guard let intents = await intentLookup.intents(user: user, authority: host, scheme: scheme) else { return nil }
        return intents.reply(to: uri, host: host, allowHTTP: development)
    }
}
