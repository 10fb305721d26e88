import Dates
import Foundation
import LecternCrypto

/// Verifies draft-cavage signatures with Mastodon's rules (app/controllers/concerns/
/// signature_verification.rb): what must be signed, the digest, the time window, and the
/// `(request-target)` with and without the query string.
struct CavageVerifier {
    let now: Date
    let audience: SignatureAudience?

    /// Everything that can be checked before the key is known. Returns the parsed header and
    /// the last moment the signature is acceptable.
    func precheck(_ request: HTTPRequestParts) throws -> (header: CavageSignatureHeader, acceptedUntil: Date?) {
        guard let value = request.field("signature") ?? request.field("authorization") else {
            throw SignatureError.missingSignature
        }
        let header = try CavageSignatureHeader.parse(value)
        let algorithm = header.algorithm ?? "hs2019"
        guard algorithm == "rsa-sha256" || algorithm == "hs2019" else { throw SignatureError.unsupportedAlgorithm(algorithm) }
        let signed = header.headers  // a handful of names: a list beats building a set
        if signed.contains("(created)") && !(algorithm == "hs2019" && header.created != nil) {
            throw SignatureError.malformed("(created) is only valid with hs2019 and a created parameter")
        }
        guard signed.contains("date") || signed.contains("(created)") else { throw SignatureError.notCovered("date or (created)") }
        guard signed.contains("(request-target)") || signed.contains("digest") else {
            throw SignatureError.notCovered("(request-target) or digest")
        }
        if request.method == "GET" && !signed.contains("host") { throw SignatureError.notCovered("host") }
        if request.method == "POST" && !signed.contains("digest") { throw SignatureError.notCovered("digest") }
        if signed.contains("digest") {
            guard let digest = request.field("digest") else { throw SignatureError.digestMissing }
            try BodyDigest.verifyDigestHeader(digest, body: request.body)
        }
        // A server verifying for itself needs to know the request was meant for it: without a
        // covered `host`, a delivery signed for any inbox path anywhere could be replayed here.
        // (Mastodon, GoToSocial, Misskey, Pleroma, PeerTube and Lemmy all sign it.)
        if let audience {
            guard signed.contains("host") else { throw SignatureError.notCovered("host") }
            guard let host = request.field("host"), audience.contains(host) else {
                throw SignatureError.wrongAudience(request.field("host") ?? "no host")
            }
        }
        // Only what the signature covers dates it: an uncovered `created` or `expires` is
        // anyone's to add, and must not make an old signed `Date` current again.
        var until: Date?
        if signed.contains("(created)") {
            guard let created = header.created else { throw SignatureError.missingParameter("created") }
            let expires = signed.contains("(expires)") ? header.expires : nil
            until = try TimeWindow.check(created: created, expires: expires, now: now)
        }
        if signed.contains("date") {
            guard let date = request.field("date") else { throw SignatureError.missingHeader("date") }
            guard let parsed = HTTPDate.parse(date) else { throw SignatureError.malformed("Date header is not an HTTP date") }
            let dateUntil = try TimeWindow.check(created: parsed, expires: nil, now: now)
            until = min(until ?? dateUntil, dateUntil)
        }
        let acceptedUntil = until
        return (header, acceptedUntil)
    }

    /// Checks the signature itself, trying `(request-target)` with the query, then without.
    func verify(_ header: CavageSignatureHeader, request: HTTPRequestParts, key: PublicKey) throws -> Bool {
        let algorithm: SignatureAlgorithm
        switch (header.algorithm ?? "hs2019", key.type) {
        case ("rsa-sha256", .rsa), ("hs2019", .rsa): algorithm = .rsaV15SHA256
        case ("hs2019", .ed25519): algorithm = .ed25519
        default: throw SignatureError.unsupportedAlgorithm("\(header.algorithm ?? "hs2019") with a \(key.type) key")
        }
        if key.verify(header.signature, for: try header.signingBytes(for: request), algorithm: algorithm) { return true }
        guard request.query != nil else { return false }
        return key.verify(header.signature, for: try header.signingBytes(for: request, includeQuery: false), algorithm: algorithm)
    }
}
