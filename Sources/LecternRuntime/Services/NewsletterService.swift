import BlogModel
import Foundation
import Logging
import Mail
import ServiceLifecycle
import Site
import Storage

/// Sends the newsletter's queue to the operator's relay, one mail at a time, at most
/// `newsletter.perMinute` a minute (a relay is never flooded), each on a thread of its own (a relay
/// that stalls holds only this service, for `SMTPRelay.timeout` at most). A mail is leased before
/// it is sent: a crash mid-send sends that one again, and no other. A relay that is away or busy
/// (4xx) is tried again later and later for about two days; a refusal for good (5xx) fails the
/// mail, and three in a row mark the address bouncing (mailed no more).
public struct NewsletterService: Service {
    public let blog: Blog
    static let retryDelays: [TimeInterval] = [60, 300, 1800, 7200, 21_600, 43_200, 86_400, 86_400]
    static let bouncingAfter = 3

    public init(blog: Blog) { self.blog = blog }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let settings = blog.config.newsletter
                guard settings.enabled else {
                    await blog.mailSignal.wait(upTo: .seconds(60))
                    continue
                }
                let pause = Duration.milliseconds(max(1, 60_000 / settings.perMinute))
                do {
                    let relay = try Self.relay(settings)
                    let leased = try await OffPool.run { [store = blog.store] in try store.mails.lease(limit: 10) }
                    // The theme once for the batch (a broken one is each mail's compose error, retried).
                    let blog = blog
                    let theme: Result<Theme, any Error> = leased.contains { $0.kind == .post }
                        ? try await OffPool.run { Result { try blog.mailTheme() } } : .failure(CancellationError())  // not needed
                    for mail in leased where !Task.isCancelled {
                        let report = try await OffPool.run { try Self.send(mail, relay: relay, blog: blog, theme: theme) }
                        blog.metrics.mail(report.metric)
                        if let line = report.log { blog.logger.log(level: report.metric == "sent" ? .info : .warning, "newsletter: \(line)") }
                        try await Task.sleep(for: pause)
                    }
                    if !leased.isEmpty { continue }
                    let due = try await OffPool.run { [store = blog.store] in try store.mails.nextDue() }
                        .map { max(0.05, min(60, $0.timeIntervalSinceNow)) } ?? 60
                    await blog.mailSignal.wait(upTo: .milliseconds(Int(due * 1000)))
                } catch is CancellationError {
                    return
                } catch {
                    blog.logger.error("newsletter: \(error)")
                    await blog.mailSignal.wait(upTo: .seconds(30))
                }
            }
        }
    }

    /// What became of one mail: the metric it counts under, and a line for the log (no address).
    struct Report: Sendable {
        var metric: String
        var log: String?
    }

    /// Composes, sends and records one mail, on the calling thread (a thread of its own: the
    /// theme is read, the relay talked to, the store written). Only a refusal of the recipient
    /// (5xx at RCPT) counts against the address; everything else is tried again later.
    static func send(_ mail: QueuedMail, relay: SMTPRelay, blog: Blog, theme: Result<Theme, any Error>) throws -> Report {
        let store = blog.store
        // A relay's reply often names the recipient: the log never does.
        func logged(_ why: String) -> String { why.replacingOccurrences(of: mail.email, with: "<subscriber>", options: .caseInsensitive) }
        func later(_ why: String) throws -> Report {
            guard mail.attempts < retryDelays.count else {
                try store.mails.failed(mail, error: why, permanent: false, bouncingAfter: bouncingAfter)
                return Report(metric: "failed", log: "a mail given up after \(mail.attempts) tries: \(logged(why))")
            }
            try store.mails.retry(mail, at: Date().addingTimeInterval(retryDelays[mail.attempts - 1]), error: why)
            return Report(metric: "retrying", log: "a mail not sent (trying again later): \(logged(why))")
        }
        let message: MailMessage?
        do {
            message = try blog.composeMail(mail, theme: mail.kind == .post ? try theme.get() : nil)
        } catch {
            return try later("could not compose the mail: \(error)")
        }
        guard let message, let to = MailAddress(mail.email) else {
            // Its post is not in what the server has read (yet: a command published it a moment
            // ago, or the settings are being read again), or it is gone for good.
            if mail.kind == .post, try store.posts.post(path: mail.postPath).map({ $0.deletedAt == nil }) == true {
                try store.mails.retry(mail, at: Date().addingTimeInterval(10), error: "its post is not loaded yet")
                return Report(metric: "retrying", log: nil)
            }
            try store.mails.failed(mail, error: "its post is no longer on the blog", permanent: false, bouncingAfter: bouncingAfter)
            return Report(metric: "failed", log: nil)
        }
        let encoded = message.encoded(date: Date(), messageID: "<\(UUID().uuidString.lowercased())@\(blog.config.host)>")
        switch relay.send(encoded, from: message.from.address, to: to) {
        case .sent:
            try store.mails.sent(mail)
            return Report(metric: "sent", log: nil)
        case .temporary(let why):
            return try later(why)
        case .refused(_, let why):
            return try later("the relay refused it (check newsletter.smtp, credentials and from): " + why)
        case .recipientRefused(_, let why):
            try store.mails.failed(mail, error: why, permanent: true, bouncingAfter: bouncingAfter)
            return Report(metric: "failed", log: "the relay refused a recipient for good: \(logged(why))")
        }
    }

    /// The relay as the settings say, with its credentials from the file they name, else from
    /// `LECTERN_SMTP_USER` and `LECTERN_SMTP_PASSWORD` (never from lectern.yml itself).
    static func relay(_ settings: NewsletterSettings) throws -> SMTPRelay {
        var relay = SMTPRelay(url: settings.smtp)
        if let file = settings.credentialsFile {
            let text = try String(contentsOfFile: file, encoding: .utf8).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            guard let colon = text.firstIndex(of: ":") else {
                throw CredentialsError(file: file)
            }
            relay.username = String(text[..<colon])
            relay.password = String(text[text.index(after: colon)...])
        } else if let user = ProcessInfo.processInfo.environment["LECTERN_SMTP_USER"] {
            relay.username = user
            relay.password = ProcessInfo.processInfo.environment["LECTERN_SMTP_PASSWORD"]
        }
        return relay
    }

    struct CredentialsError: Error, CustomStringConvertible {
        let file: String
        var description: String { "\(file) must hold user:password on its first line" }
    }
}
