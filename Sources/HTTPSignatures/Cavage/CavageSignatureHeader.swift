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
    /// Works on the UTF-8 bytes in place: it runs on every incoming request.
    public static func parse(_ value: String) throws -> CavageSignatureHeader {
        var value = value
        return try value.withUTF8 { try parse(bytes: $0) }
    }

    private static func parse(bytes: UnsafeBufferPointer<UInt8>) throws -> CavageSignatureHeader {
        var position = 0
        if bytes.count > 10, ASCII.equalIgnoringCase(bytes[0..<10], "signature ") { position = 10 }
        var parameters = Parameters()
        let space = UInt8(ascii: " "), comma = UInt8(ascii: ","), quote = UInt8(ascii: "\"")
        while true {
            while position < bytes.count, bytes[position] == space || bytes[position] == comma || bytes[position] == 9 {
                position += 1
            }
            guard position < bytes.count else { break }
            guard let equals = bytes[position...].firstIndex(of: UInt8(ascii: "=")) else {
                throw SignatureError.malformed("parameter without '='")
            }
            let name = ASCII.trimmed(bytes[position..<equals])
            position = equals + 1
            let value: Range<Int>
            if position < bytes.count, bytes[position] == quote {
                guard let close = bytes[(position + 1)...].firstIndex(of: quote) else {
                    throw SignatureError.malformed("unterminated quoted value")
                }
                value = (position + 1)..<close
                position = close + 1
            } else {
                let end = bytes[position...].firstIndex(of: comma) ?? bytes.endIndex
                value = ASCII.trimmed(bytes[position..<end])
                position = end
            }
            try parameters.set(bytes[name], to: value)
        }
        func text(_ range: Range<Int>?) -> String? { range.map { String(decoding: bytes[$0], as: UTF8.self) } }
        guard let keyId = text(parameters.keyId), !keyId.isEmpty else { throw SignatureError.missingParameter("keyId") }
        guard let encoded = parameters.signature, let signature = Base64.decode(UnsafeBufferPointer(rebasing: bytes[encoded])),
              !signature.isEmpty else {
            throw SignatureError.missingParameter("signature")
        }
        func timestamp(_ name: String, _ range: Range<Int>?) throws -> Date? {
            guard let value = text(range) else { return nil }
            // Finite and within Int's range: signingString writes it back as Int (found by Fuzz/).
            guard let seconds = Double(value), seconds.isFinite, seconds.magnitude < 1e15 else {
                throw SignatureError.malformed("\(name) is not a Unix time")
            }
            return Date(timeIntervalSince1970: seconds)
        }
        let headers = parameters.headers.map { coveredNames(bytes[$0]) } ?? ["date"]
        guard !headers.isEmpty else { throw SignatureError.malformed("empty headers list") }
        let algorithm = parameters.algorithm.map { range in
            knownAlgorithms.first { ASCII.equalIgnoringCase(bytes[range], $0.bytes) }?.name
                ?? String(decoding: bytes[range], as: UTF8.self).lowercased()
        }
        return CavageSignatureHeader(keyId: keyId, algorithm: algorithm, headers: headers,
                                     signature: signature, created: try timestamp("created", parameters.created),
                                     expires: try timestamp("expires", parameters.expires))
    }

    /// Where each parameter's value is; a parameter given twice is an error.
    private struct Parameters {
        var keyId, algorithm, headers, signature, created, expires: Range<Int>?
        /// A set, not a list: a header can carry thousands of made-up names, and checking each
        /// against a list would be quadratic work before any key is known.
        var others: Set<String> = []

        mutating func set(_ name: Slice<UnsafeBufferPointer<UInt8>>, to value: Range<Int>) throws {
            func once(_ slot: inout Range<Int>?) throws {
                guard slot == nil else { throw SignatureError.malformed("parameter \(Self.text(name)) appears twice") }
                slot = value
            }
            // Compared as bytes: these run for every parameter of every request.
            if ASCII.equalIgnoringCase(name, "keyid") { try once(&keyId) }
            else if ASCII.equalIgnoringCase(name, "algorithm") { try once(&algorithm) }
            else if ASCII.equalIgnoringCase(name, "headers") { try once(&headers) }
            else if ASCII.equalIgnoringCase(name, "signature") { try once(&signature) }
            else if ASCII.equalIgnoringCase(name, "created") { try once(&created) }
            else if ASCII.equalIgnoringCase(name, "expires") { try once(&expires) }
            else {
                let other = Self.text(name)
                guard others.insert(other).inserted else { throw SignatureError.malformed("parameter \(other) appears twice") }
            }
        }

        private static func text(_ name: Slice<UnsafeBufferPointer<UInt8>>) -> String {
            String(decoding: name, as: UTF8.self).lowercased()
        }
    }

    /// The names most requests cover, as literals: no new string for each request. (Each is
    /// written twice: a `StaticString` compares as bytes, a `String` literal costs nothing to return.)
    private static let commonNames: [(bytes: StaticString, name: String)] = [
        ("(request-target)", "(request-target)"), ("host", "host"), ("date", "date"), ("digest", "digest"),
        ("content-type", "content-type"), ("(created)", "(created)"), ("(expires)", "(expires)"),
        ("content-length", "content-length"), ("accept", "accept"), ("user-agent", "user-agent"),
    ]

    private static let knownAlgorithms: [(bytes: StaticString, name: String)] = [("rsa-sha256", "rsa-sha256"), ("hs2019", "hs2019")]

    /// The `headers` parameter split at spaces, lower case.
    private static func coveredNames(_ list: Slice<UnsafeBufferPointer<UInt8>>) -> [String] {
        list.split(separator: UInt8(ascii: " ")).map { name in
            commonNames.first { ASCII.equalIgnoringCase(name, $0.bytes) }?.name
                ?? String(decoding: name, as: UTF8.self).lowercased()
        }
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
        String(decoding: try signingBytes(for: request, includeQuery: includeQuery), as: UTF8.self)
    }

    /// The same as bytes, built in one buffer: what signing and verifying hash.
    func signingBytes(for request: HTTPRequestParts, includeQuery: Bool = true) throws -> [UInt8] {
        var bytes = ByteWriter()
        for (index, name) in headers.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: "\n")) }
            bytes.append(utf8: name)
            bytes.append(": ")
            switch name {
            case "(request-target)":
                for byte in request.method.utf8 { bytes.append(ASCII.lowercased(byte)) }
                bytes.append(UInt8(ascii: " "))
                bytes.append(utf8: request.path)
                if includeQuery, let query = request.query {
                    bytes.append(UInt8(ascii: "?"))
                    bytes.append(utf8: query)
                }
            case "(created)":
                guard let created else { throw SignatureError.missingParameter("created") }
                bytes.append(utf8: String(Int(created.timeIntervalSince1970)))
            case "(expires)":
                guard let expires else { throw SignatureError.missingParameter("expires") }
                bytes.append(utf8: String(Int(expires.timeIntervalSince1970)))
            default:
                guard let value = request.field(name) else { throw SignatureError.missingHeader(name) }
                bytes.append(utf8: value)
            }
        }
        return bytes.bytes
    }
}
