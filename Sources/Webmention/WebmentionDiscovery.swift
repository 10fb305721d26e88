import Foundation
import HTMLMarkup
import OutboundHTTP

/// Webmention endpoint discovery (W3C Webmention §3.1.2): the first `Link` header value with
/// `rel` `webmention` (among several fields, or several values of one, names in any case), else
/// the first `<link>` or `<a>` element of the HTML with `rel` `webmention` and an `href` (an
/// empty one is the page itself; one in a comment or in escaped text is no element). Relative
/// URLs resolve against the page's URL after redirects. Checked by the 23 discovery cases of
/// webmention.rocks (`WebmentionDiscoveryTests`).
public enum WebmentionDiscovery {
    /// The endpoint for a page fetched from `finalURL`, or nil when it advertises none.
    public static func endpoint(finalURL: String, headers: [(name: String, value: String)], body: [UInt8],
                                contentType: String?) -> String? {
        for field in headers where field.name.lowercased() == "link" {
            for (target, rels) in linkValues(field.value) where rels.contains("webmention") {
                return resolve(target, against: finalURL)
            }
        }
        let type = contentType?.lowercased() ?? "text/html"
        guard type.hasPrefix("text/html") || type.hasPrefix("application/xhtml") else { return nil }
        for token in HTMLTokenizer(String(decoding: body, as: UTF8.self), options: .sanitizer) {
            guard case .startTag(let name, let attributes, _) = token, name == "link" || name == "a" else { continue }
            let rels = attributes.first { $0.name == "rel" }?.value.lowercased().split(whereSeparator: \.isWhitespace) ?? []
            guard rels.contains("webmention"), let href = attributes.first(where: { $0.name == "href" })?.value else { continue }
            return resolve(href, against: finalURL)
        }
        return nil
    }

    /// RFC 8288 values of one `Link` field: each `<target>` with its `rel` tokens, lower-cased.
    /// Commas inside `<…>` or quotes do not split values.
    static func linkValues(_ field: String) -> [(target: String, rels: [String])] {
        var values: [(String, [String])] = []
        var rest = Substring(field)
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { break }
            let target = String(rest[rest.index(after: open)..<close])
            // Parameters run to the next comma outside quotes.
            var index = rest.index(after: close)
            var quoted = false
            while index < rest.endIndex {
                let character = rest[index]
                if character == "\"" { quoted.toggle() } else if character == ",", !quoted { break }
                index = rest.index(after: index)
            }
            var rels: [String] = []
            for parameter in rest[rest.index(after: close)..<index].split(separator: ";") {
                let parts = parameter.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "rel" else { continue }
                let value = parts[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                rels = value.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
            }
            values.append((target, rels))
            rest = index < rest.endIndex ? rest[rest.index(after: index)...] : ""
        }
        return values
    }

    static func resolve(_ reference: String, against base: String) -> String? {
        let trimmed = reference.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return HTTPURL.parse(base) }  // the page itself
        guard let resolved = URL(string: trimmed, relativeTo: URL(string: base))?.absoluteString else { return nil }
        return HTTPURL.parse(resolved)
    }

    /// `source=…&target=…`, each value percent-encoded but for unreserved characters.
    public static func form(source: String, target: String) -> [UInt8] {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        allowed.insert(charactersIn: "-._~")
        let encode = { (value: String) in value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "" }
        return Array("source=\(encode(source))&target=\(encode(target))".utf8)
    }
}
