import Foundation
import LecternCrypto

/// Body digests: `Digest: SHA-256=…` (RFC 3230, draft-cavage) and
/// `Content-Digest: sha-256=:…:` (RFC 9530).
public enum BodyDigest {
    /// `SHA-256=<base64>`
    public static func digestHeader(for body: [UInt8]) -> String {
        "SHA-256=" + Data(Digest.sha256(body)).base64EncodedString()
    }

    /// `sha-256=:<base64>:`
    public static func contentDigestHeader(for body: [UInt8]) -> String {
        StructuredFieldSerializer.dictionary([("sha-256", .item(.init(.bytes(Digest.sha256(body)))))])
    }

    /// Checks `Digest`: its SHA-256 entry (name case-insensitive) must match the body.
    public static func verifyDigestHeader(_ value: String, body: [UInt8]) throws {
        var value = value
        let expected: [UInt8]? = try value.withUTF8 { bytes in
            var names: [String] = []  // only for the error when no entry is SHA-256
            for entry in bytes.split(separator: UInt8(ascii: ",")) {
                let entry = bytes[ASCII.trimmed(entry)]
                let equals = entry.firstIndex(of: UInt8(ascii: "=")) ?? entry.endIndex
                let name = entry[..<equals]  // not trimmed: `SHA-256 =` names no algorithm we know
                if ASCII.equalIgnoringCase(name, "sha-256") {
                    let encoded = equals < entry.endIndex ? ASCII.trimmed(entry[(equals + 1)...]) : equals..<equals
                    return Base64.decode(UnsafeBufferPointer(rebasing: bytes[encoded]))
                }
                names.append(String(decoding: name, as: UTF8.self).lowercased())
            }
            throw SignatureError.unsupportedDigest(names.joined(separator: ", "))
        }
        guard let expected, Digest.sha256(of: body, is: expected) else { throw SignatureError.digestMismatch }
    }

    /// Checks `Content-Digest`: every sha-256 or sha-512 member must match, and there must be one.
    public static func verifyContentDigest(_ value: String, body: [UInt8]) throws {
        let members: StructuredField.Dictionary
        do { members = try StructuredFieldParser.dictionary(value) } catch { throw SignatureError.malformed("Content-Digest: \(error)") }
        var checked = false
        for (algorithm, member) in members {
            guard case .item(let item) = member, let bytes = item.item.bytes else { continue }
            switch algorithm {
            case "sha-256": guard Digest.sha256(of: body, is: bytes) else { throw SignatureError.digestMismatch }
            case "sha-512": guard bytes == Digest.sha512(body) else { throw SignatureError.digestMismatch }
            default: continue
            }
            checked = true
        }
        guard checked else { throw SignatureError.unsupportedDigest(members.map(\.key).joined(separator: ", ")) }
    }
}
