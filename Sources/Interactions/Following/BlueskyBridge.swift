import ActivityPub
import ActivityStreams
import BlogModel
import Foundation
import Storage

/// Bridgy Fed's bridge to Bluesky: the blog opts in by following its bot account; the bot
/// accepts, then sends the blog a direct note saying it is bridged and under which Bluesky
/// handle (`blog.example.ap.brid.gy` for `@blog@example`, or the custom domain set up with
/// the bot). Replies from Bluesky come back as ActivityPub replies from `bsky.brid.gy` actors
/// and become comments like any other. See docs/following.md.
public enum BlueskyBridge {
    /// Bridgy Fed's bot for Bluesky.
    public static let botHandle = "@bsky.brid.gy@bsky.brid.gy"
    /// The store settings: the bot's actor id once `lectern bridge bluesky` followed it, and
    /// what its last direct note said.
    static let botKey = "bluesky_bridge_actor"
    static let handleKey = "bluesky_bridge_handle"
    static let messageKey = "bluesky_bridge_message"
    static let messageAtKey = "bluesky_bridge_message_at"
    /// The domain the owner last asked for with `--handle` (the bot's answer may name it).
    static let requestedKey = "bluesky_bridge_requested_handle"
    /// The longest message text kept (the bot's are a few sentences).
    static let maximumMessage = 1000

    /// What the blog knows of its bridge.
    public struct Status: Sendable, Equatable, Encodable {
        /// The bot the blog followed (nil: the bridge is off).
        public var bot: String?
        /// `pending` until the bot's Accept, then `accepted` (or `rejected`).
        public var follow: String?
        /// The blog's Bluesky handle, from the bot's message.
        public var handle: String?
        /// The bot's last direct message, as plain text.
        public var message: String?
        public var messageAt: Date?
    }

    public static func status(values: StoredValues, following: Following) throws -> Status {
        guard let bot = try values.setting(botKey) else { return Status() }
        return Status(bot: bot, follow: try following.followedAccount(actorID: bot)?.state.rawValue,
                      handle: try values.setting(handleKey), message: try values.setting(messageKey).map(withoutControlCharacters),
                      messageAt: try values.setting(messageAtKey).flatMap(Double.init).map(Date.init(timeIntervalSince1970:)))
    }

    /// Records (or, with nil, forgets) which actor is the bridge's bot.
    public static func setBot(_ actorID: String?, values: StoredValues) throws {
        try values.setSetting(botKey, actorID)
        if actorID == nil {
            for key in [handleKey, messageKey, messageAtKey, requestedKey] { try values.setSetting(key, nil) }
        }
    }

    public enum BridgeError: Error, CustomStringConvertible {
        case off
        case notADomain(String)

        public var description: String {
            switch self {
            case .off: return "the Bluesky bridge is not on (lectern bridge bluesky)"
            case .notADomain(let text): return "'\(text)' is not a domain name such as blog.example"
            }
        }
    }

    /// Asks the bot for a custom-domain handle: a direct note `username DOMAIN`, Bridgy Fed's
    /// command (its docs: "Can I use my own domain as my Bluesky handle?"). The domain must first
    /// prove the bridged account's DID (`_atproto` TXT record or `/.well-known/atproto-did`); the
    /// bot's answer names the handle, recorded like its first message.
    public static func requestHandle(_ domain: String, site: BlogActor, outbox: Outbox, now: Date = Date()) throws {
        let domain = domain.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "@ "))
        guard isHandle(domain) else { throw BridgeError.notADomain(domain) }
        try tell("username " + domain, site: site, outbox: outbox, now: now)
        try site.store.values.setSetting(requestedKey, domain)
    }

    /// Sends the bot one of its DM commands (`username DOMAIN`, `stop`…) as a direct note.
    static func tell(_ command: String, site: BlogActor, outbox: Outbox, now: Date) throws {
        guard let id = try site.store.values.setting(botKey), let bot = try site.store.actors.remoteActor(id: id) else { throw BridgeError.off }
        let note = try Activities(urls: site.urls, config: site.config)
            .directNote(to: bot, html: "<p>\(HTMLText.escape(command))</p>", inReplyTo: nil, now: now)
        try outbox.send(note.activity, to: [bot.inbox], keeping: note.kept, now: now)
    }

    /// Stops the bridge as Bridgy Fed's docs say (unfollowing alone leaves the bridged account
    /// up): the `stop` command, then `Undo(Follow)`; the bot and its messages are forgotten.
    /// Returns the bot, nil when the bridge was not on.
    public static func stop(site: BlogActor, outbox: Outbox, now: Date = Date()) throws -> RemoteActor? {
        guard let id = try site.store.values.setting(botKey) else { return nil }
        let bot = try site.store.actors.remoteActor(id: id)
        if bot != nil { try tell("stop", site: site, outbox: outbox, now: now) }
        try Follows(actors: site.store.actors, blocks: site.store.blocks, following: site.store.following, urls: site.urls, outbox: outbox).unfollow(id, now: now)
        try setBot(nil, values: site.store.values)
        return bot
    }

    /// The handles the blog can have on Bluesky: the bridge's own for the blog's account
    /// (`user.host.ap.brid.gy`, as Bridgy Fed names fediverse accounts) and the domain the owner
    /// asked for with `--handle`. Nothing else a message names is taken.
    static func acceptedHandles(urls: FederationURLs, values: StoredValues) throws -> Set<String> {
        var handles = Set<String>()
        if let host = Origin(urls.actor)?.host {
            handles.insert((urls.username + "." + host + ".ap.brid.gy").lowercased().replacingOccurrences(of: "_", with: "-"))
        }
        if let requested = try values.setting(requestedKey) { handles.insert(requested.lowercased()) }
        return handles
    }

    /// The first of `accepted` a message from the bot names: as a `bsky.app/profile/…` link of
    /// its text, or as a name in its text. Other handles (a Bluesky user's, in Bridgy Fed's
    /// notification of a reply or mention) are passed over.
    static func handle(html: String, accepted: Set<String>) -> String? {
        var candidates: [String] = []
        for link in InboxProcessor.hrefs(in: html) {
            guard let url = URLComponents(string: link), url.host?.lowercased() == "bsky.app" else { continue }
            let parts = url.path.split(separator: "/")
            if parts.count >= 2, parts[0] == "profile" { candidates.append(String(parts[1])) }
        }
        let words = HTMLText.plain(html).split(whereSeparator: { $0.isWhitespace || $0 == "," || $0 == "(" || $0 == ")" || $0 == "!" || $0 == "\"" })
        for word in words {
            var candidate = word.drop(while: { $0 == "@" })
            while candidate.last == "." || candidate.last == ":" { candidate = candidate.dropLast() }
            candidates.append(String(candidate))
        }
        return candidates.map { $0.lowercased() }.first { isHandle($0) && accepted.contains($0) }
    }

    /// Whether a message from the bot is one that names the blog's handle: its welcome ("…
    /// bridged to Bluesky at …") or its answer to a command the blog sent (a reply to it).
    static func namesHandle(text: String, inReplyTo: String?, urls: FederationURLs) -> Bool {
        text.lowercased().contains("bridged to bluesky") || Origin.same(inReplyTo, urls.actor)
    }

    /// `text` without C0 and C1 control characters (a newline stays): the message is printed
    /// by `lectern bridge bluesky`, and an escape sequence must not reach the terminal.
    static func withoutControlCharacters(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 == "\n" || !($0.value < 0x20 || (0x7f...0x9f).contains($0.value)) }))
    }

    /// A Bluesky handle: a DNS name of letters, digits and hyphens in at least two labels.
    static func isHandle(_ text: String) -> Bool {
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        return text.count <= 253 && labels.count >= 2 && labels.allSatisfy { label in
            !label.isEmpty && label.count <= 63 && label.first != "-" && label.last != "-"
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
    }
}

extension InboxProcessor {
    /// A direct note from the bridge's bot (not a reply to one of our posts): its text and the
    /// handle it names are kept for `lectern bridge bluesky` and `lectern status`; nil for
    /// anything else, which goes on as usual.
    func bridgeMessage(_ note: APObject, authorID: String, now: Date) throws -> Effects? {
        guard let bot = try store.values.setting(BlueskyBridge.botKey), bot == authorID,
              note.id.map({ Origin.same($0, authorID) }) == true, try store.following.isFollowing(authorID) else { return nil }
        // A reply to a post is a comment, whoever wrote it.
        if let target = note.inReplyTo?.id, try postPath(for: target) != nil { return nil }
        let html = CommentConversion.content(of: note, language: config.language).html
        let text = String(BlueskyBridge.withoutControlCharacters(HTMLText.plain(html)).prefix(BlueskyBridge.maximumMessage))
        // Only the welcome or an answer to the blog's command names the handle, and only one of
        // the blog's own (Mention tags, and the links of a notification, are someone else's).
        var values: [(String, String?)] = [(BlueskyBridge.messageKey, text), (BlueskyBridge.messageAtKey, String(now.timeIntervalSince1970))]
        if BlueskyBridge.namesHandle(text: text, inReplyTo: note.inReplyTo?.id, urls: urls),
           let handle = BlueskyBridge.handle(html: html, accepted: try BlueskyBridge.acceptedHandles(urls: urls, values: store.values)) {
            values.insert((BlueskyBridge.handleKey, handle), at: 0)
        }
        // One write: a reader never sees the new handle beside the old message.
        try store.values.setSettings(values)
        return .applied("bridge-message")
    }

    /// The `href`s of the links in sanitized HTML.
    static func hrefs(in html: String) -> [String] {
        html.components(separatedBy: "href=\"").dropFirst().compactMap { $0.split(separator: "\"", maxSplits: 1).first }
            .map { HTMLText.plain(String($0)) }
    }
}
