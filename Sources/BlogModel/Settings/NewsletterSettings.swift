import Foundation

/// `newsletter:` in `lectern.yml`: email subscribers, double opt-in, each new post mailed to the
/// confirmed ones through the operator's SMTP relay. Off unless the block says `enabled: true`.
///
/// ```yaml
/// newsletter:
///   enabled: true
///   smtp: smtp://127.0.0.1:25          # smtps://smtp.provider.example:465, smtp://…:587 (STARTTLS)
///   credentials: /etc/lectern/smtp     # optional: a file holding user:password (or LECTERN_SMTP_USER/_PASSWORD)
///   from: "Field Notes <blog@blog.example>"
///   replyTo: me@blog.example           # optional
///   unsubscribeMailto: unsubscribe@blog.example   # optional: a mailto: in List-Unsubscribe too
///   perMinute: 30                      # messages a minute to the relay
///   confirmationsPerHour: 60           # confirmation mails an hour, all addresses together
/// ```
public struct NewsletterSettings: Sendable, Equatable {
    public var enabled = false
    /// The relay: `smtp://host[:port]` (STARTTLS when offered, required when credentials are
    /// set) or `smtps://host[:port]` (TLS from the start).
    public var smtp = "smtp://127.0.0.1:25"
    /// A file holding `user:password` for the relay (never the secret itself in lectern.yml).
    public var credentialsFile: String?
    public var from: NamedMailAddress?
    public var replyTo: NamedMailAddress?
    public var unsubscribeMailto: MailAddress?
    public var perMinute = 30
    public var confirmationsPerHour = 60

    public init() {}
}

package extension YAMLFields {
    func newsletterSettings() throws -> NewsletterSettings {
        var settings = NewsletterSettings()
        guard let block = try nested("newsletter") else { return settings }
        try block.rejectUnknown(allowed: ["enabled", "smtp", "credentials", "from", "replyTo", "unsubscribeMailto",
                                          "perMinute", "confirmationsPerHour"])
        settings.enabled = try block.bool("enabled") ?? false
        if let smtp = try block.string("smtp") {
            guard let parts = URLComponents(string: smtp), ["smtp", "smtps"].contains(parts.scheme ?? ""),
                  parts.host?.isEmpty == false, parts.user == nil, parts.password == nil, (parts.path.isEmpty || parts.path == "/") else {
                throw block.error("smtp", "must be smtp://HOST[:PORT] or smtps://HOST[:PORT], without a user or password (those go in 'credentials')")
            }
            settings.smtp = smtp
        }
        settings.credentialsFile = try block.string("credentials")
        if let from = try block.string("from") {
            guard let named = NamedMailAddress(from) else { throw block.error("from", "must be an address such as \"Blog <blog@example.com>\"") }
            settings.from = named
        }
        if let replyTo = try block.string("replyTo") {
            guard let named = NamedMailAddress(replyTo) else { throw block.error("replyTo", "must be an address such as me@example.com") }
            settings.replyTo = named
        }
        if let mailto = try block.string("unsubscribeMailto") {
            guard let address = MailAddress(mailto) else { throw block.error("unsubscribeMailto", "must be an address such as unsubscribe@example.com") }
            settings.unsubscribeMailto = address
        }
        if let rate = try block.positiveInt("perMinute") { settings.perMinute = rate }
        if let cap = try block.positiveInt("confirmationsPerHour") { settings.confirmationsPerHour = cap }
        if settings.enabled && settings.from == nil {
            throw block.error("enabled", "needs 'from:' too (the address the newsletter is sent from)")
        }
        return settings
    }
}
