import Foundation

/// The parameters of a draft-cavage `Signature` header:
/// `keyId="…",algorithm="rsa-sha256",headers="(request-target) host date",signature="…"`.
public struct CavageSignatureHeader: Sendable, Equatable {
    public var keyId: String
    /// As sent, lower case; nil means hs2019 (draft-12 §2.1.3).
    public var algorithm: String?
    /// Lower-case names in order. Absent means `date` only, as Mastodon reads it.
    public var headers: [String]
    public var signature: [UInt8]
    public var created: Date?
    public var expires: Date?

    public init(keyId: String, algorithm: String?, headers: [String], signature: [UInt8],
                created: Date? = nil, expires: Date? = nil) {
        self.keyId = keyId
        self.algorithm = algorithm
        self.headers = headers
        self.signature = signature
        self.created = created
        self.expires = expires
    }

    /// Parses the header value (also accepts `Authorization: Signature …` with the prefix).
    /// Works on UTF-8 bytes: it runs on every incoming request.
    public static func parse(_ value: String) throws -> CavageSignatureHeader {
        var bytes = Array(value.utf8)[...]
        if bytes.count > 10, String(decoding: bytes.prefix(10), as: UTF8.self).lowercased() == "signature " {
            bytes = bytes.dropFirst(10)
        }
        var parameters: [String: ArraySlice<UInt8>] = [:]
        let space = UInt8(ascii: " "), comma = UInt8(ascii: ","), quote = UInt8(ascii: "\"")
        while true {
            while let first = bytes.first, first == space || first == comma || first == 9 { bytes = bytes.dropFirst() }
            guard !bytes.isEmpty else { break }
            guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { throw SignatureError.malformed("parameter without '='") }
            let name = String(decoding: bytes[..<equals].trimmingSpaces(), as: UTF8.self).lowercased()
            bytes = bytes[(equals + 1)...]
            let parameterValue: ArraySlice<UInt8>
            if bytes.first == quote {
                bytes = bytes.dropFirst()
                guard let close = bytes.firstIndex(of: quote) else { throw SignatureError.malformed("unterminated quoted value") }
                parameterValue = bytes[..<close]
                bytes = bytes[(close + 1)...]
            } else {
                let end = bytes.firstIndex(of: comma) ?? bytes.endIndex
                parameterValue = bytes[..<end].trimmingSpaces()
                bytes = bytes[end...]
            }
            guard parameters[name] == nil else { throw SignatureError.malformed("parameter \(name) appears twice") }
            parameters[name] = parameterValue
        }
        func text(_ name: String) -> String? { parameters[name].map { String(decoding: $0, as: UTF8.self) } }
        guard let keyId = text("keyid"), !keyId.isEmpty else { throw SignatureError.missingParameter("keyId") }
        guard let encoded = parameters["signature"], let signature = Base64.decode(encoded), !signature.isEmpty else {
            throw SignatureError.missingParameter("signature")
        }
        func timestamp(_ name: String) throws -> Date? {
            guard let value = text(name) else { return nil }
            // Finite and within Int's range: signingString writes it back as Int (found by Fuzz/).
            guard let seconds = Double(value), seconds.isFinite, seconds.magnitude < 1e15 else {
                throw SignatureError.malformed("\(name) is not a Unix time")
            }
            return Date(timeIntervalSince1970: seconds)
        }
        let headers = text("headers").map { $0.lowercased().split(separator: " ").map(String.init) } ?? ["date"]
        guard !headers.isEmpty else { throw SignatureError.malformed("empty headers list") }
        return CavageSignatureHeader(keyId: keyId, algorithm: text("algorithm")?.lowercased(), headers: headers,
                                     signature: signature, created: try timestamp("created"), expires: try timestamp("expires"))
    }

    public var serialized: String {
        var parts = ["keyId=\"\(keyId)\""]
        if let algorithm { parts.append("algorithm=\"\(algorithm)\"") }
        if let created { parts.append("created=\(Int(created.timeIntervalSince1970))") }
        if let expires { parts.append("expires=\(Int(expires.timeIntervalSince1970))") }
        parts.append("headers=\"\(headers.joined(separator: " "))\"")
        parts.append("signature=\"\(Data(signature).base64EncodedString())\"")
        return parts.joined(separator: ",")
    }

    /// The signing string (draft-cavage-12 §2.3). `includeQuery: false` rebuilds the
    /// `(request-target)` without its query, which some older servers signed.
    public func signingString(for request: HTTPRequestParts, includeQuery: Bool = true) throws -> String {
        try headers.map { name -> String in
            switch name {
            case "(request-target)":
                return "(request-target): \(request.method.lowercased()) \(includeQuery ? request.target : request.path)"
            case "(created)":
                guard let created else { throw SignatureError.missingParameter("created") }
                return "(created): \(Int(created.timeIntervalSince1970))"
            case "(expires)":
                guard let expires else { throw SignatureError.missingParameter("expires") }
                return "(expires): \(Int(expires.timeIntervalSince1970))"
            default:
                guard let value = request.field(name) else { throw SignatureError.missingHeader(name) }
                return "\(name): \(value)"
            }
        }.joined(separator: "\n")
    }
}
