/// A DNS name as typed or listed by people (`mastodon.social`, `spam.example`): lower-case ASCII
/// letters, digits and hyphens in dot-separated labels of 1–63 bytes, not starting or ending with
/// a hyphen, two labels at least, 253 bytes at most. IDNs count in their ASCII (`xn--`) form.
package enum DNSName {
    package static func isValid(_ name: Substring) -> Bool {
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && name.utf8.count <= 253 && labels.allSatisfy(isLabel)
    }

    static func isLabel(_ label: Substring) -> Bool {
        (1...63).contains(label.utf8.count) && label.first != "-" && label.last != "-"
            && label.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7a) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2d }
    }
}
