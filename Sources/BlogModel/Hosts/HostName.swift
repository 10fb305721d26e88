import Foundation

/// Hosts compared the way DNS sees them: `BAD.example.`, `bad.example:443`, `bad.example` and
/// `bаd.example` written in Unicode or as `xn--…` are each one name, so a block or a lookup
/// cannot be slipped past by spelling.
public enum HostName {
    /// Lower-case ASCII (IDNA to punycode by Foundation's URL parser), without a trailing dot;
    /// nil when it is not a host.
    public static func normalized(_ host: String) -> String? {
        // `b%61d.example` is `bad.example` to a URL parser that decodes hosts (Foundation's
        // `host` does): decoded first, so no spelling differs from the one compared.
        guard var value = host.removingPercentEncoding else { return nil }
        while value.hasSuffix(".") { value.removeLast() }
        guard !value.isEmpty, !value.contains("/"), !value.contains("@") else { return nil }
        let encoded = URLComponents(string: "https://\(value)/")?.encodedHost ?? (value.allSatisfy(\.isASCII) ? value : nil)
        guard var result = encoded?.lowercased(), !result.isEmpty else { return nil }
        while result.hasSuffix(".") { result.removeLast() }
        return result
    }

    /// The normalized host of a URL, nil when it has none.
    public static func of(url: String) -> String? {
        guard let host = URLComponents(string: url)?.host, !host.isEmpty else { return nil }
        return normalized(host)
    }
}
