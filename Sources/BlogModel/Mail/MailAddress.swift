/// An email address as the newsletter takes it: the RFC 5321 `Mailbox` a relay accepts without
/// SMTPUTF8, checked strictly, because every one of them ends up in a mail header and an SMTP
/// command. A local part of RFC 5322 atext characters (dots between them, at most 64 bytes), a
/// DNS name of at least two labels, 254 bytes in all; lower-cased whole (every provider a
/// newsletter meets treats local parts without case, and one address must be one row). Anything else (quoted local parts, IP literals, non-ASCII, CR or LF, spaces)
/// is refused: that never lets a header or a command be split.
///
/// ```swift
/// MailAddress("Ada@Example.COM")?.text   // "ada@example.com"
/// MailAddress("a\r\nBcc: x@y.z")         // nil
/// ```
public struct MailAddress: Sendable, Hashable, CustomStringConvertible {
    public let text: String

    public init?(_ typed: String) {
        let trimmed = typed.trimmingCharacters(in: .whitespaces)
        guard trimmed.utf8.count <= 254, let at = trimmed.lastIndex(of: "@") else { return nil }
        let local = trimmed[..<at], domain = trimmed[trimmed.index(after: at)...].lowercased()
        guard (1...64).contains(local.utf8.count), !local.hasPrefix("."), !local.hasSuffix("."), !local.contains(".."),
              local.utf8.allSatisfy(Self.isAtext), DNSName.isValid(Substring(domain)),
              domain.split(separator: ".").last!.contains(where: { $0.isLetter }) else { return nil }
        text = "\(local.lowercased())@\(domain)"
    }

    /// The mailbox behind the address, for limits: `ada+news@example.com` and `ada@example.com`
    /// reach the same person (a `+tag` is dropped).
    public var mailbox: String {
        let at = text.lastIndex(of: "@")!
        let local = text[..<at]
        return String(local.prefix { $0 != "+" }) + text[at...]
    }

    public var domain: String { String(text[text.index(after: text.lastIndex(of: "@")!)...]) }
    public var description: String { text }

    /// RFC 5322 atext, and the dot.
    static func isAtext(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5a, 0x61...0x7a, 0x2e: return true
        default: return Array("!#$%&'*+/=?^_`{|}~-".utf8).contains(byte)
        }
    }
}

/// `"Blog <blog@example.com>"` or a bare address: the display name and the address of a
/// `From`/`Reply-To` setting. The name may be any text without CR, LF, `<`, `>` or `"` (it is
/// encoded per RFC 2047 when it is not plain ASCII).
public struct NamedMailAddress: Sendable, Equatable {
    public let name: String?
    public let address: MailAddress

    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0.value < 0x20 }) else { return nil }
        if trimmed.hasSuffix(">"), let open = trimmed.lastIndex(of: "<") {
            let name = trimmed[..<open].trimmingCharacters(in: .whitespaces)
            guard let address = MailAddress(String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])),
                  !name.contains("<"), !name.contains(">"), !name.contains("\"") else { return nil }
            (self.name, self.address) = (name.isEmpty ? nil : name, address)
        } else {
            guard let address = MailAddress(trimmed) else { return nil }
            (self.name, self.address) = (nil, address)
        }
    }
}
