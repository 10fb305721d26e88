import CCrypto

/// A failed cryptographic operation, with OpenSSL's own reason when it gave one.
public struct CryptoError: Error, Equatable, CustomStringConvertible {
    /// What we were doing ("parse public key", "sign").
    public let operation: String
    /// OpenSSL's error queue, or our explanation.
    public let reason: String

    public init(_ operation: String, reason: String) {
        self.operation = operation
        self.reason = reason
    }

    public var description: String { "\(operation): \(reason)" }

    /// Drains OpenSSL's thread-local error queue into one message (so a later call does not
    /// report a stale error).
    static func openSSL(_ operation: String) -> CryptoError {
        var reasons: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            reasons.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return CryptoError(operation, reason: reasons.isEmpty ? "unknown OpenSSL error" : reasons.joined(separator: "; "))
    }
}
