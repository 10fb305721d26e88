/// Why a request's signature was not accepted. The inbox logs the description and answers 401.
public enum SignatureError: Error, Equatable, CustomStringConvertible {
    case missingSignature
    case malformed(String)
    case missingParameter(String)
    case unsupportedAlgorithm(String)
    /// A header or component the rules require to be covered is not.
    case notCovered(String)
    /// A covered header or component has no value in the request.
    case missingHeader(String)
    case unsupportedComponent(String)
    case digestMissing
    case digestMismatch
    case unsupportedDigest(String)
    case expired
    case notYetValid
    case badSignature
    /// The signature names a host that is not this server's: it was made for someone else.
    case wrongAudience(String)
    case keyUnavailable(String)
    /// The key's server is slow or we are saturated: the sender should retry (503), not give up.
    case keyTemporarilyUnavailable(String)

    public var description: String {
        switch self {
        case .missingSignature: return "no Signature or Signature-Input header"
        case .malformed(let why): return "malformed signature: \(why)"
        case .missingParameter(let name): return "signature has no \(name)"
        case .unsupportedAlgorithm(let name): return "unsupported signature algorithm \(name)"
        case .notCovered(let name): return "signature does not cover \(name)"
        case .missingHeader(let name): return "signed header \(name) is missing from the request"
        case .unsupportedComponent(let name): return "unsupported signature component \(name)"
        case .digestMissing: return "the body digest header is missing"
        case .digestMismatch: return "the body does not match its digest"
        case .unsupportedDigest(let offered): return "no SHA-256 digest (offered: \(offered))"
        case .expired: return "signature has expired"
        case .notYetValid: return "signature is dated in the future"
        case .badSignature: return "signature does not verify"
        case .wrongAudience(let host): return "signature is for another host (\(host))"
        case .keyUnavailable(let why): return "cannot get the signing key: \(why)"
        case .keyTemporarilyUnavailable(let why): return "cannot get the signing key now: \(why)"
        }
    }
}
