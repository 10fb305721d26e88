import Dates
import Foundation
import LecternCrypto

/// Signs requests the way Mastodon expects (draft-cavage-12, `rsa-sha256`):
/// POST covers `(request-target) host date digest content-type` and carries `Digest`;
/// GET covers `(request-target) host date accept`.
public struct CavageSigner: Sendable {
    public let keyId: String
    public let key: PrivateKey

    public init(keyId: String, key: PrivateKey) {
        self.keyId = keyId
        self.key = key
    }

    /// Adds `Host`, `Date`, (`Digest`) and `Signature` to `request`.
    public func sign(_ request: inout HTTPRequestParts, now: Date = Date()) throws {
        request.setHeader("Host", request.authority)
        request.setHeader("Date", HTTPDate.format(now))
        var covered = ["(request-target)", "host", "date"]
        if request.method == "GET" || request.method == "HEAD" {
            if request.field("accept") != nil { covered.append("accept") }
        } else {
            request.setHeader("Digest", BodyDigest.digestHeader(for: request.body))
            covered.append("digest")
            if request.field("content-type") != nil { covered.append("content-type") }
        }
        let (algorithm, name): (SignatureAlgorithm, String) = switch key.type {
        case .rsa: (.rsaV15SHA256, "rsa-sha256")
        case .ed25519: (.ed25519, "hs2019")
        }
        var header = CavageSignatureHeader(keyId: keyId, algorithm: name, headers: covered, signature: [])
        header.signature = try key.sign(try header.signingBytes(for: request), algorithm: algorithm)
        request.setHeader("Signature", header.serialized)
    }
}
