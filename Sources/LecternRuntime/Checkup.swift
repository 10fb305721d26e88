import BlogModel
import Foundation
import Mail
import OutboundHTTP
import Interactions
import LecternCrypto
import Site
import Storage

/// `lectern doctor`: what a stranger's server needs to be right, each with a fix when it is not.
public struct Checkup: Sendable {
    public struct Check: Sendable, Encodable, Equatable {
        public enum Status: String, Sendable, Encodable { case ok, warning, failed }
        public var name: String
        public var status: Status
        public var detail: String
        /// What to do about it (nil when all is well).
        public var fix: String?
    }

    public let root: URL

    public init(root: URL) { self.root = root.standardizedFileURL }

    /// Every check, in order. Reaching the public `baseURL` is tried only with `online`.
    public func run(online: Bool, now: Date = Date()) async -> [Check] {
        var checks: [Check] = []
        let config: SiteConfig
        do {
            config = try SiteConfig.load(from: root)
            checks.append(Check(name: "config", status: .ok, detail: "\(SiteConfig.fileName) is valid"))
        } catch {
            return [Check(name: "config", status: .failed, detail: "\(error)", fix: "correct \(SiteConfig.fileName) at the place named")]
        }
        checks += baseURLChecks(config)
        checks += fileModes()
        let pending: [String]
        do {
            pending = try Store.pendingMigrations(path: root.appendingPathComponent("data/lectern.sqlite").path)
        } catch {
            checks.append(Check(name: "database", status: .failed, detail: "cannot be read: \(error)",
                                fix: "check data/lectern.sqlite (owner, mode); restore a backup if it is damaged"))
            return checks
        }
        let blog: Blog
        do {
            blog = try Blog.open(root: root)
        } catch {
            checks.append(Check(name: "database", status: .failed, detail: "\(error)",
                                fix: "check data/ (owner, mode, free space); restore a backup if the file is damaged"))
            return checks
        }
        checks += databaseChecks(blog.store, pendingBefore: pending)
        checks.append(openSSLCheck())
        checks.append(keysCheck(blog.activityPub))
        checks.append(diskCheck())
        checks.append(clockCheck(now: now))
        checks.append(libcurlCheck())
        checks += queueChecks(blog.store, now: now)
        if online { checks += await reachability(blog.activityPub) }
        if online && config.newsletter.enabled { checks.append(await relayCheck(config.newsletter)) }
        return checks
    }

    /// The newsletter's relay takes this host's mail: connected as a send would (EHLO, STARTTLS,
    /// AUTH with the configured credentials), then `NOOP`.
    func relayCheck(_ settings: NewsletterSettings) async -> Check {
        let outcome: SMTPRelay.Outcome
        do {
            let relay = try NewsletterService.relay(settings)
            outcome = try await OffPool.run { relay.check() }
        } catch {
            return Check(name: "newsletter", status: .failed, detail: "\(error)", fix: "correct newsletter.credentials (user:password on the first line)")
        }
        switch outcome {
        case .sent:
            return Check(name: "newsletter", status: .ok, detail: "the relay \(settings.smtp) answers (TLS and login as configured)")
        case .temporary(let why), .recipientRefused(_, let why), .refused(_, let why):
            return Check(name: "newsletter", status: .failed, detail: "the relay \(settings.smtp) did not take a session: \(why)",
                         fix: "check newsletter.smtp (host, port; smtps:// for port 465), the credentials, and that the relay lets this host send")
        }
    }

    /// Both private keys parse (opening the blog does not read them; the server signs with them).
    func keysCheck(_ site: BlogActor) -> Check {
        do {
            try site.readKeys()
            return Check(name: "keys", status: .ok, detail: "blog actor \(try site.actorKey.type) and \(try site.assertionKey.type), instance actor \(try site.instanceKey.type)")
        } catch {
            return Check(name: "keys", status: .failed, detail: "\(error)",
                         fix: "a key others can read: chmod 600 it; a damaged or missing one: put data/keys back from a backup "
                             + "(other servers verify the blog's requests with it)")
        }
    }

    func baseURLChecks(_ config: SiteConfig) -> [Check] {
        guard config.baseURLIsSet else {
            return [Check(name: "baseURL", status: .failed, detail: "not set: the site links and federates as \(config.baseURL)",
                          fix: "add `baseURL: https://your.domain` to \(SiteConfig.fileName)")]
        }
        let parts = URLComponents(string: config.baseURL)
        let host = parts?.host ?? ""
        let local = ["localhost", "127.0.0.1", "::1"].contains(host) || host.hasSuffix(".localhost")
        var checks: [Check] = []
        if parts?.scheme != "https" && !local {
            checks.append(Check(name: "baseURL", status: .failed, detail: "\(config.baseURL) is not https: fediverse servers refuse it",
                                fix: "serve the blog over TLS (deploy/nginx.conf) and set an https baseURL"))
        } else if !(parts?.path ?? "").isEmpty && parts?.path != "/" {
            checks.append(Check(name: "baseURL", status: .failed, detail: "\(config.baseURL) has a path; the blog must own its host's root",
                                fix: "serve the blog at the root of its own (sub)domain, such as https://blog.example"))
        } else {
            checks.append(Check(name: "baseURL", status: local ? .warning : .ok,
                                detail: config.baseURL + (local ? " (local: fine for trying, not for federating)" : ""),
                                fix: local ? "set baseURL to the public https address before others follow the blog" : nil))
        }
        if let port = parts?.port, config.server.port != port, !local {
            checks.append(Check(name: "port", status: .warning,
                                detail: "baseURL names port \(port), server.port is \(config.server.port)",
                                fix: "fine behind a proxy; otherwise make them agree"))
        }
        return checks
    }

    /// Keys and the database readable by their owner only.
    func fileModes() -> [Check] {
        let files = FileManager.default
        var loose: [String] = []
        let keys = root.appendingPathComponent("data/keys")
        for name in (try? files.contentsOfDirectory(atPath: keys.path)) ?? [] where name.hasSuffix(".pem") {
            if Self.mode(keys.appendingPathComponent(name)).map({ $0 & 0o077 != 0 }) == true { loose.append("data/keys/\(name)") }
        }
        for path in ["data/lectern.sqlite", "data"] where Self.mode(root.appendingPathComponent(path)).map({ $0 & 0o007 != 0 }) == true {
            loose.append(path)
        }
        guard loose.isEmpty else {
            return [Check(name: "permissions", status: .failed, detail: "readable by others: " + loose.joined(separator: ", "),
                          fix: "chmod 700 \(root.path)/data && chmod 600 \(root.path)/data/keys/*.pem \(root.path)/data/lectern.sqlite")]
        }
        return [Check(name: "permissions", status: .ok, detail: "keys and database readable by their owner only")]
    }

    func databaseChecks(_ store: Store, pendingBefore pending: [String]) -> [Check] {
        var checks: [Check] = []
        do {
            let problems = try store.integrityProblems()
            checks.append(problems.isEmpty
                ? Check(name: "database", status: .ok, detail: "integrity_check ok")
                : Check(name: "database", status: .failed, detail: "integrity_check: " + problems.prefix(3).joined(separator: "; "),
                        fix: "stop the server and `lectern restore` the last backup"))
            let applied = try store.appliedMigrations()
            checks.append(pending.isEmpty
                ? Check(name: "migrations", status: .ok, detail: "\(applied.count) applied, none pending")
                : Check(name: "migrations", status: .warning, detail: "applied now: " + pending.joined(separator: ", "),
                        fix: "this binary is newer than the database: a backup before upgrading is wise (`lectern backup`)"))
        } catch {
            checks.append(Check(name: "database", status: .failed, detail: "\(error)", fix: "check data/lectern.sqlite"))
        }
        return checks
    }

    func diskCheck() -> Check {
        var stats = statvfs()
        guard statvfs(root.path, &stats) == 0 else { return Check(name: "disk", status: .warning, detail: "free space unknown") }
        let free = Double(stats.f_bavail) * Double(stats.f_frsize)
        let share = Double(stats.f_bavail) / max(1, Double(stats.f_blocks))
        let text = String(format: "%.1f GiB free (%.0f %%)", free / 1_073_741_824, share * 100)
        return free < 512 * 1_048_576 || share < 0.05
            ? Check(name: "disk", status: .failed, detail: text, fix: "free space: SQLite and builds need room to write")
            : Check(name: "disk", status: .ok, detail: text)
    }

    /// The libcrypto that signs and verifies, as it names itself. It is linked: without it the
    /// loader would not have started `lectern` (nor `doctor`) at all.
    func openSSLCheck() -> Check {
        Check(name: "openssl", status: .ok, detail: OpenSSLLibrary.fullVersion)
    }

    /// The libcurl that delivers and fetches, as it names itself (linked, like libcrypto); it
    /// fails only if it cannot initialize, and then a server would fail every delivery and fetch.
    func libcurlCheck() -> Check {
        switch FetchClient.library() {
        case .success(let version): Check(name: "libcurl", status: .ok, detail: version)
        case .failure(let error): Check(name: "libcurl", status: .failed, detail: "\(error)",
                                        fix: "reinstall the libcurl4 package, then restart `lectern serve`: deliveries and fetches need it")
        }
    }

    /// Signatures older than 12 hours are refused everywhere: a wrong clock silences the blog.
    func clockCheck(now: Date) -> Check {
        let year = Calendar(identifier: .gregorian).component(.year, from: now)
        return year < 2025
            ? Check(name: "clock", status: .failed, detail: "the clock says \(ISO8601DateFormatter().string(from: now))",
                    fix: "enable time synchronisation (timedatectl set-ntp true)")
            : Check(name: "clock", status: .ok, detail: ISO8601DateFormatter().string(from: now) + " (keep it synchronised: signatures expire)")
    }

    func queueChecks(_ store: Store, now: Date) -> [Check] {
        let stats: DeliveryStats
        do { stats = try store.deliveries.deliveryStats() } catch {
            return [Check(name: "deliveries", status: .failed, detail: "the queue cannot be read: \(error)", fix: "check data/lectern.sqlite")]
        }
        let failing = stats.hosts.filter { $0.failingSince != nil || $0.paused }
        let oldest = stats.oldestQueued.map { now.timeIntervalSince($0) } ?? 0
        if oldest > 86_400 {
            return [Check(name: "deliveries", status: .warning,
                          detail: "\(stats.queued) queued, the oldest for \(Int(oldest / 3600)) h; \(failing.count) failing hosts",
                          fix: "is the server running? `lectern deliveries` shows which hosts fail")]
        }
        return [Check(name: "deliveries", status: .ok, detail: "\(stats.queued) queued, \(stats.failed) failed, \(failing.count) failing hosts")]
    }

    /// The public address answers with this blog: WebFinger names our actor, the actor is ours.
    func reachability(_ site: BlogActor) async -> [Check] {
        var client = BlogActor.client(site.config)
        client.allowPrivateAddresses = true
        client.totalTimeout = .seconds(5)
        let webfinger = site.urls.base + "/.well-known/webfinger?resource=acct:\(site.urls.username)@\(site.urls.host)"
        let fix = "make \(site.urls.base) reach this server (DNS, TLS, deploy/nginx.conf proxying to lectern serve)"
        do {
            let answer = try await client.perform(OutgoingRequest(url: webfinger, headers: [("Accept", "application/jrd+json")]))
            guard answer.status == 200, String(decoding: answer.body, as: UTF8.self).contains("\"\(site.urls.actor)\"") else {
                return [Check(name: "reachable", status: .failed, detail: "WebFinger at \(site.urls.base) answered \(answer.status), not this blog",
                              fix: fix)]
            }
            let actor = try await client.perform(OutgoingRequest(url: site.urls.actor, headers: [("Accept", "application/activity+json")]))
            let document = (try? JSONSerialization.jsonObject(with: Data(actor.body))) as? [String: Any]
            guard actor.status == 200, document?["id"] as? String == site.urls.actor else {
                return [Check(name: "reachable", status: .failed, detail: "the actor at \(site.urls.actor) answered \(actor.status)", fix: fix)]
            }
            return [Check(name: "reachable", status: .ok, detail: "\(site.urls.base) serves this blog's WebFinger and actor")]
        } catch {
            return [Check(name: "reachable", status: .failed, detail: "\(site.urls.base): \(error)", fix: fix)]
        }
    }

    static func mode(_ url: URL) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.posixPermissions] as? Int
    }
}
