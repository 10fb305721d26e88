import Dates
import Foundation
import LecternCrypto

/// Signs requests with RFC 9421: covers `@method`, `@target-uri` and, with a body,
/// `content-type` and `content-digest` (RFC 9530); plus whatever the server asked for in
/// `Accept-Signature` (its label, components, `nonce` and `tag`).
public struct RFC9421Signer: Sendable {
    public let keyId: String
    public let key: PrivateKey
    public var label = "sig1"
    /// A server's `Accept-Signature` request to honour.
    public var asked: AcceptSignature?

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
        for name in asked?.components ?? [] where !components.contains(name) {
            if name == "date", request.field("date") == nil { request.setHeader("Date", HTTPDate.format(now)) }
            if name == "host", request.field("host") == nil { request.setHeader("Host", request.authority) }
            components.append(name)
        }
        let algorithm: SignatureAlgorithm = key.type == .ed25519 ? .ed25519 : .rsaV15SHA256
        var parameters: StructuredField.Parameters = [("created", .integer(Int64(now.timeIntervalSince1970))),
                                                      ("keyid", .string(keyId)), ("alg", .string(algorithm.rawValue))]
        if let nonce = asked?.nonce { parameters.append(("nonce", .string(nonce))) }
        if let tag = asked?.tag { parameters.append(("tag", .string(tag))) }
        let list = StructuredField.InnerList(components.map { StructuredField.ParameterizedItem(.string($0)) }, parameters: parameters)
        let (input, signature) = try RFC9421Signature.sign(request, label: asked?.label ?? label, covering: list, key: key,
                                                           algorithm: algorithm)
        request.setHeader("Signature-Input", input)
        request.setHeader("Signature", signature)
    }
}
