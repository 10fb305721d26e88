import Foundation
import LecternCrypto

/// Signs requests with RFC 9421 for servers known to accept it: covers `@method`,
/// `@target-uri` and, with a body, `content-type` and `content-digest` (RFC 9530).
public struct RFC9421Signer: Sendable {
    public let keyId: String
    public let key: PrivateKey
    public var label = "sig1"

    public init(keyId: String, key: PrivateKey) {
        self.keyId = keyId
        self.key = key
    }

    /// Adds `Content-Digest` (with a body), `Signature-Input` and `Signature` to `request`.
    public func sign(_ request: inout HTTPRequestParts, now: Date = Date()) throws {
        var components = ["@method", "@target-uri"]
        if request.method != "GET" && request.method != "HEAD" {
            request.setHeader("Content-Digest", BodyDigest.contentDigestHeader(for: request.body))
            if request.field("content-type") != nil { components.append("content-type") }
            components.append("content-digest")
        }
        let algorithm: SignatureAlgorithm = key.type == .ed25519 ? .ed25519 : .rsaV15SHA256
        let list = StructuredField.InnerList(
            components.map { StructuredField.ParameterizedItem(.string($0)) },
            parameters: [("created", .integer(Int64(now.timeIntervalSince1970))), ("keyid", .string(keyId)),
                         ("alg", .string(algorithm.rawValue))])
        let (input, signature) = try RFC9421Signature.sign(request, label: label, covering: list, key: key, algorithm: algorithm)
        request.setHeader("Signature-Input", input)
        request.setHeader("Signature", signature)
    }
}
