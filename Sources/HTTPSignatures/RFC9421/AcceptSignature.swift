import Foundation

/// What a server asks for in `Accept-Signature` (RFC 9421 §5.1): the components a signature
/// must cover and the parameters it must carry. Lectern honours the first request it can meet
/// (every component one it can produce for that request) and ignores the rest.
///
/// ```swift
/// let wanted = AcceptSignature.first(in: #"sig1=("@method" "@target-uri" "content-digest");nonce="x1""#,
///                                    for: request)
/// // wanted?.components == ["@method", "@target-uri", "content-digest"], wanted?.nonce == "x1"
/// ```
public struct AcceptSignature: Sendable, Equatable {
    public var label: String
    public var components: [String]
    public var nonce: String?
    public var tag: String?

    /// Derived components Lectern can put in a signature base (RFC 9421 §2.2), without parameters.
    static let derived: Set<String> = ["@method", "@target-uri", "@authority", "@scheme", "@request-target", "@path", "@query"]

    /// Fields the signer adds when asked for them: `content-digest` on a request with a body,
    /// `date` and `host`.
    static func canAdd(_ name: String, to request: HTTPRequestParts) -> Bool {
        switch name {
        case "content-digest": return request.method != "GET" && request.method != "HEAD"
        case "date", "host": return true
        default: return false
        }
    }

    /// The first request in the header `request` can satisfy; nil when there is none (or the
    /// header does not parse: a malformed request is no request).
    public static func first(in header: String, for request: HTTPRequestParts) -> AcceptSignature? {
        guard let dictionary = try? StructuredFieldParser.dictionary(header, maximumMembers: 8) else { return nil }
        for (label, member) in dictionary {
            guard case .innerList(let list) = member else { continue }
            var components: [String] = []
            var satisfiable = true
            for item in list.items {
                // Component parameters (`;sf`, `;key`, `;req`…) ask for more than Lectern signs: skip that request.
                guard case .string(let name) = item.item, item.parameters.isEmpty,
                      derived.contains(name) || (!name.hasPrefix("@") && (request.field(name) != nil || canAdd(name, to: request))) else {
                    satisfiable = false
                    break
                }
                if !components.contains(name) { components.append(name) }
            }
            guard satisfiable else { continue }
            return AcceptSignature(label: label, components: components, nonce: list.parameter("nonce")?.string,
                                   tag: list.parameter("tag")?.string)
        }
        return nil
    }
}
