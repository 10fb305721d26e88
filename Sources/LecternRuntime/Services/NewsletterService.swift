import BlogModel
import Foundation
import Logging
import Mail
import ServiceLifecycle
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
                    let leased = try blog.store.mails.lease(limit: 10)
                    for mail in leased where !Task.isCancelled {
                        try await send(mail, relay: relay)
                        try await Task.sleep(for: pause)
                    }
                    if !leased.isEmpty { continue }
                    let due = try blog.store.mails.nextDue().map { max(0.05, min(60, $0.timeIntervalSinceNow)) } ?? 60
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

    private func send(_ mail: QueuedMail, relay: SMTPRelay) async throws {
        let logger = blog.logger
        guard let message = try blog.composeMail(mail), let to = MailAddress(mail.email) else {
            try blog.store.mails.failed(mail, error: "its post is no longer on the blog", permanent: false, bouncingAfter: Self.bouncingAfter)
            return
        }
        let host = blog.config.host
        let encoded = message.encoded(date: Date(), messageID: "<\(UUID().uuidString.lowercased())@\(host)>")
        let from = message.from.address
        let outcome = try await OffPool.run { relay.send(encoded, from: from, to: to) }
        // A relay's reply often names the recipient: the log never does.
        func logged(_ why: String) -> String { why.replacingOccurrences(of: mail.email, with: "<subscriber>", options: .caseInsensitive) }
        switch outcome {
        case .sent:
            try blog.store.mails.sent(mail)
            blog.metrics.mail("sent")
        case .temporary(let why) where mail.attempts < Self.retryDelays.count:
            try blog.store.mails.retry(mail, at: Date().addingTimeInterval(Self.retryDelays[mail.attempts - 1]), error: why)
            blog.metrics.mail("retrying")
            logger.warning("newsletter: the relay did not take a mail (trying again later): \(logged(why))")
        case .temporary(let why):
            try blog.store.mails.failed(mail, error: why, permanent: false, bouncingAfter: Self.bouncingAfter)
            blog.metrics.mail("failed")
            logger.error("newsletter: a mail given up after \(mail.attempts) tries: \(logged(why))")
        case .permanent(_, let why):
            try blog.store.mails.failed(mail, error: why, permanent: true, bouncingAfter: Self.bouncingAfter)
            blog.metrics.mail("failed")
            logger.warning("newsletter: the relay refused a mail for good: \(logged(why))")
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
