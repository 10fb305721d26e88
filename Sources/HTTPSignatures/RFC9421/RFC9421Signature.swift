import Foundation
import LecternCrypto

/// Low-level RFC 9421 signing and checking of one labelled signature. Policy (what must be
/// covered, time windows, digests) lives in `RFC9421Verifier`; this is the part the RFC's
/// test vectors exercise exactly.
public enum RFC9421Signature {
    /// Returns the `Signature-Input` and `Signature` header values for one label.
    public static func sign(_ request: HTTPRequestParts, label: String, covering list: StructuredField.InnerList,
                            key: PrivateKey, algorithm: SignatureAlgorithm) throws -> (input: String, signature: String) {
        let signature = try key.sign(try SignatureBase.bytes(for: request, covering: list), algorithm: algorithm)
        return (StructuredFieldSerializer.dictionary([(label, .innerList(list))]),
                StructuredFieldSerializer.dictionary([(label, .item(.init(.bytes(signature))))]))
    }

    /// Whether `signature` is valid for `list` over `request` with `key`. With no `alg`
    /// parameter an RSA key is tried as PKCS#1 v1.5 (what the fediverse uses), then as PSS.
    public static func isValid(_ signature: [UInt8], request: HTTPRequestParts, covering list: StructuredField.InnerList,
                               key: PublicKey) throws -> Bool {
        let (first, second) = try algorithms(for: list, key: key)
        let base = try SignatureBase.bytes(for: request, covering: list)
        return key.verify(signature, for: base, algorithm: first) || second.map { key.verify(signature, for: base, algorithm: $0) } == true
    }

    /// What to try, in order: a pair, not an array (one allocation less on every check).
    static func algorithms(for list: StructuredField.InnerList, key: PublicKey) throws -> (SignatureAlgorithm, SignatureAlgorithm?) {
        if let alg = list.parameter("alg") {
            guard let name = alg.string, let algorithm = SignatureAlgorithm(rawValue: name) else {
                throw SignatureError.unsupportedAlgorithm(alg.string ?? "\(alg)")
            }
            guard algorithm.fits(key.type) else { throw SignatureError.unsupportedAlgorithm("\(name) with a \(key.type) key") }
            return (algorithm, nil)
        }
        switch key.type {
        case .rsa: return (.rsaV15SHA256, .rsaPSSSHA512)
        case .ed25519: return (.ed25519, nil)
        }
    }
}
