import ActivityPub
import Foundation
import HTTPSignatures
import Hummingbird
import Interactions
import Logging

/// Authorized fetch (Mastodon's "secure mode"): with `federation.authorizedFetch`, ActivityPub
/// documents other than the actors and discovery are only given to signed requests.
struct SignedFetch: Sendable {
    let current: @Sendable () -> BlogActor
    static let logger = Logger(label: "lectern.fetch")

    /// nil when the request may proceed; otherwise the 401 to send.
    func check(_ request: Request) async throws -> Response? {
        let site = current()
        guard site.requiresSignedFetch else { return nil }
        do {
            let verified = try await site.verifyFetch(Self.parts(of: request, baseURL: site.config.baseURL))
            if try site.isBlocked(keyID: verified.keyId) {
                Self.logger.notice("refused a blocked actor's fetch of \(request.uri.path): \(verified.keyId)")
                return ActivityPubRoutes.json(Data(#"{"error":"forbidden"}"#.utf8), type: "application/json; charset=utf-8",
                                              status: .forbidden)
            }
            return nil
        } catch SignatureError.keyTemporarilyUnavailable(let why) {
            Self.logger.notice("fetch of \(request.uri.path) deferred, its signing key is not available now: \(why)")
            return ActivityPubRoutes.json(Data(#"{"error":"try again later"}"#.utf8), type: "application/json; charset=utf-8",
                                          status: .serviceUnavailable, extra: [.retryAfter: String(InboxGate.retryAfterSeconds)])
        } catch let error as SignatureError {
            Self.logger.notice("refused unsigned or badly signed fetch of \(request.uri.path): \(error)")
            return ActivityPubRoutes.json(Data(#"{"error":"Request not signed or signature invalid"}"#.utf8),
                                          type: "application/json; charset=utf-8", status: .unauthorized)
        }
    }

    /// Who is asking, for objects addressed to someone: the actor whose key signed the request,
    /// or nil (unsigned, or a signature that does not verify). A key that cannot be had right now
    /// is a 503, so the asker retries instead of concluding the object is not there.
    enum Asker { case actor(String?), retryLater(Response) }

    func asker(_ request: Request) async throws -> Asker {
        guard request.headers[.init("Signature")!] != nil || request.headers[.init("Signature-Input")!] != nil else { return .actor(nil) }
        let site = current()
        do {
            let verified = try await site.verifyFetch(Self.parts(of: request, baseURL: site.config.baseURL))
            if try site.isBlocked(keyID: verified.keyId) { return .actor(nil) }
            return .actor(try site.keyOwner(keyID: verified.keyId))
        } catch SignatureError.keyTemporarilyUnavailable {
            return .retryLater(ActivityPubRoutes.json(Data(#"{"error":"try again later"}"#.utf8), type: "application/json; charset=utf-8",
                                                      status: .serviceUnavailable, extra: [.retryAfter: String(InboxGate.retryAfterSeconds)]))
        } catch let error as SignatureError {
            Self.logger.notice("a signed fetch of \(request.uri.path) did not verify: \(error)")
            return .actor(nil)
        }
    }

    /// The request as the signature saw it: the public scheme (we may sit behind a TLS proxy),
    /// the Host the client sent, and the path and query as sent.
    static func parts(of request: Request, baseURL: String) -> HTTPRequestParts {
        let scheme = URLComponents(string: baseURL)?.scheme ?? "https"
        let host = request.head.authority ?? ""  // HTTP/1 Host arrives as the authority
        let target = request.uri.query.map { "\(request.uri.path)?\($0)" } ?? request.uri.path
        // swift-http-types moves Host into the authority; signatures cover it as a header.
        let headers = [(name: "Host", value: host)] + request.headers.map { (name: $0.name.rawName, value: $0.value) }
        return HTTPRequestParts(method: request.method.rawValue, url: "\(scheme)://\(host)\(target)", headers: headers)
    }
}
