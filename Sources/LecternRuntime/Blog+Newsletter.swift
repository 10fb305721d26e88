import BlogModel
import Foundation
import Interactions
import LecternCrypto
import Mail
import Site
import Storage

/// The newsletter's side of the blog: the form's requests (double opt-in), the links in the
/// mails, and the mails themselves, composed when they are sent.
///
/// Tokens: a confirmation link carries a random token (kept hashed, valid two days, made when its
/// mail is sent); an unsubscribe link carries `HMAC-SHA256(secret, address)` (the secret a random
/// key kept in the database), so every mail can carry it without any token kept in clear.
extension Blog {
    public enum SubscribeAnswer: Sendable, Equatable {
        /// The page says "check your inbox" (also for an address already subscribed, or one
        /// confirmed less than a day ago: the answer does not tell who is on the list).
        case checkYourInbox
        /// Not an address the newsletter takes (400).
        case invalidAddress
        /// The address's domain is blocked (403).
        case refused
        /// The hour's confirmation mails are spent (503, try later).
        case busy
        /// The newsletter is off (404).
        case off
    }

    static let confirmationLifetime: TimeInterval = 2 * 86_400
    static let newsletterSecretKey = "newsletter.secret"

    public func subscribe(typed: String, now: Date = Date()) throws -> SubscribeAnswer {
        let settings = config.newsletter
        guard settings.enabled else { return .off }
        guard let address = MailAddress(typed) else { metrics.subscribeRequest("invalid"); return .invalidAddress }
        if try store.blocks.isBlocked(actorID: "https://\(address.domain)/") { metrics.subscribeRequest("refused"); return .refused }
        let outcome = try store.subscribers.subscribe(email: address.text, mailbox: address.mailbox, unsubscribeHash: try unsubscribeHash(address.text),
                                                      hourlyCap: settings.confirmationsPerHour, now: now)
        switch outcome {
        case .confirmationQueued: metrics.subscribeRequest("queued"); mailSignal.signal(); return .checkYourInbox
        case .alreadyConfirmed: metrics.subscribeRequest("already"); return .checkYourInbox
        case .tooSoon: metrics.subscribeRequest("too_soon"); return .checkYourInbox
        case .capReached: metrics.subscribeRequest("cap"); return .busy
        }
    }

    /// Whether a confirmation link is valid (the page then offers its button).
    public func confirmationIsValid(token: String, now: Date = Date()) throws -> Bool {
        try store.subscribers.pendingAddress(confirmHash: Self.tokenHash(token), now: now) != nil
    }

    /// Confirms the address of a valid confirmation link.
    public func confirmSubscription(token: String, now: Date = Date()) throws -> Bool {
        try store.subscribers.confirm(confirmHash: Self.tokenHash(token), now: now) != nil
    }

    public func isSubscribed(unsubscribeToken token: String) throws -> Bool {
        try store.subscribers.isSubscribed(unsubscribeHash: Self.tokenHash(token))
    }

    /// Removes the address of an unsubscribe link, with every trace of it.
    public func unsubscribe(token: String) throws -> Bool {
        try store.subscribers.unsubscribe(unsubscribeHash: Self.tokenHash(token))
    }

    /// Adds confirmed addresses (`subscribers add`, `import`); returns how many were new.
    public func addSubscribers(_ addresses: [MailAddress], origin: Subscriber.Origin, now: Date = Date()) throws -> Int {
        var added = 0
        for address in addresses where try store.subscribers.add(email: address.text, mailbox: address.mailbox, origin: origin,
                                                                 unsubscribeHash: try unsubscribeHash(address.text), now: now) {
            added += 1
        }
        return added
    }

    // MARK: mails

    /// The mail `mail` stands for, composed now; nil when there is nothing to send any more (its
    /// post was removed before it went out).
    /// `theme`: the site's theme, read once for a batch of mails (read here when nil).
    func composeMail(_ mail: QueuedMail, theme: Theme? = nil, now: Date = Date()) throws -> MailMessage? {
        let settings = config.newsletter
        guard let from = settings.from, let to = MailAddress(mail.email) else { return nil }
        let token = try unsubscribeToken(mail.email)
        let unsubscribe = config.baseURL + "/unsubscribe?token=" + token
        var listUnsubscribe = "<\(unsubscribe)>"
        if let mailto = settings.unsubscribeMailto { listUnsubscribe += ", <mailto:\(mailto.text)?subject=unsubscribe>" }
        switch mail.kind {
        case .confirmation:
            let confirmToken = Self.randomToken()
            try store.subscribers.setConfirmation(email: mail.email, tokenHash: Self.tokenHash(confirmToken),
                                                  expires: now.addingTimeInterval(Self.confirmationLifetime))
            let link = config.baseURL + "/subscribe/confirm?token=" + confirmToken
            let text = """
                Someone (we hope you) asked to get the posts of \(config.title) by email at this address.

                To confirm, open this link and press the button there:
                \(link)

                If it was not you, ignore this mail: nothing more will be sent. The link works for two days.

                \(config.title) — \(config.baseURL)/
                """
            return MailMessage(from: from, to: to, replyTo: settings.replyTo, subject: "Confirm your subscription to \(config.title)",
                               text: text)
        case .post:
            guard let copy = activityPub.mailCopy(path: mail.postPath) else { return nil }
            let html = try renderMail(copy, unsubscribe: unsubscribe, theme: theme ?? mailTheme())
            var text = "\(copy.title)\n\(copy.url)\n\n"
            if let summary = copy.summary { text += summary + "\n\n" }
            text += Self.plainParagraphs(copy.html) + "\n\n—\nRead it on the blog, and reply from the fediverse: \(copy.url)\n"
                + "Unsubscribe (one click): \(unsubscribe)\n"
            return MailMessage(from: from, to: to, replyTo: settings.replyTo, subject: copy.title, text: text, html: html,
                               headers: [("List-Unsubscribe", listUnsubscribe), ("List-Unsubscribe-Post", "List-Unsubscribe=One-Click"),
                                         ("List-Id", "<newsletter.\(config.host)>")])
        }
    }

    /// The theme's `email` template (`theme/email.mustache` overrides it) for a post.
    func mailTheme() throws -> Theme { try Theme.load(overrideFolder: root.appendingPathComponent("theme")) }

    func renderMail(_ copy: BlogActor.MailCopy, unsubscribe: String, theme: Theme) throws -> String {
        let context: [String: any TemplateValue] = [
            "site": ["title": config.title, "baseURL": config.baseURL, "language": config.language] as [String: any TemplateValue],
            "post": ["title": copy.title, "url": copy.url, "content": copy.html, "summary": copy.summary ?? ""] as [String: any TemplateValue],
            "unsubscribe": unsubscribe,
        ]
        return try theme.library.render(context, template: "email")
    }

    /// The text of an HTML body, a blank line between its blocks.
    static func plainParagraphs(_ html: String) -> String {
        let marked = html.replacingOccurrences(of: #"</(p|h[1-6]|li|blockquote|pre|div|tr)>|<br\s*/?>"#, with: "$0\u{1F}",
                                               options: [.regularExpression, .caseInsensitive])
        return marked.split(separator: "\u{1F}").map { HTMLText.plain(String($0)) }.filter { !$0.isEmpty }.joined(separator: "\n\n")
    }

    // MARK: tokens

    func unsubscribeToken(_ email: String) throws -> String {
        Self.hex(HMACSHA256.mac(key: try newsletterSecret(), data: Array(email.utf8)))
    }

    func unsubscribeHash(_ email: String) throws -> String { Self.tokenHash(try unsubscribeToken(email)) }

    static func tokenHash(_ token: String) -> String { hex(Digest.sha256(Array(token.utf8))) }

    static func randomToken() -> String { hex(SecureRandom.bytes(32)) }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// The key of the unsubscribe links: made once (whoever asks first, the others read it back),
    /// kept in the database and its backups.
    func newsletterSecret() throws -> [UInt8] {
        let stored = try store.values.settingOrInsert(Self.newsletterSecretKey, Self.hex(SecureRandom.bytes(32)))
        let bytes = stride(from: 0, to: stored.count, by: 2).compactMap { UInt8(stored.dropFirst($0).prefix(2), radix: 16) }
        guard stored.count == 64, bytes.count == 32 else { throw NewsletterSecretError() }
        return bytes
    }

    struct NewsletterSecretError: Error, CustomStringConvertible {
        var description: String { "the newsletter's key (settings '\(Blog.newsletterSecretKey)') is damaged: restore it from a backup, or every unsubscribe link breaks" }
    }
}
