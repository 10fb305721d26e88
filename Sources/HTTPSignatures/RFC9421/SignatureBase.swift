import Foundation

/// Builds RFC 9421 signature bases (§2.5) from a request and a list of covered components.
public enum SignatureBase {
    /// The signature base for `components` with `parameters`, e.g.
    /// `"@method": POST\n…\n"@signature-params": ("@method" …);created=…;keyid="…"`.
    public static func make(for request: HTTPRequestParts, covering list: StructuredField.InnerList) throws -> String {
        var lines: [String] = []
        var seen = Set<String>()
        for component in list.items {
            guard case .string(let name) = component.item else {
                throw SignatureError.malformed("component identifiers must be strings")
            }
            let identifier = StructuredFieldSerializer.parameterizedItem(component)
            guard seen.insert(identifier).inserted else { throw SignatureError.malformed("\(identifier) is covered twice") }
            lines.append("\(identifier): \(try value(of: name, parameters: component.parameters, in: request))")
        }
        lines.append("\"@signature-params\": \(StructuredFieldSerializer.innerList(list))")
        return lines.joined(separator: "\n")
    }

    /// One component's value (§2.1 fields, §2.2 derived components).
    static func value(of name: String, parameters: StructuredField.Parameters, in request: HTTPRequestParts) throws -> String {
        if name == "@query-param" {
            guard parameters.count == 1, let wanted = parameters.first(where: { $0.key == "name" })?.value.string else {
                throw SignatureError.unsupportedComponent("@query-param without a single name parameter")
            }
            return try queryParameter(wanted, in: request)
        }
        if let unsupported = parameters.first?.key {
            throw SignatureError.unsupportedComponent("\(name);\(unsupported)")
        }
        switch name {
        case "@method": return request.method
        case "@target-uri": return request.targetURI
        case "@authority": return request.authority
        case "@scheme": return request.scheme
        case "@request-target": return request.target
        case "@path": return request.path
        case "@query": return "?" + (request.query ?? "")
        case "@signature-params", "@status":
            throw SignatureError.unsupportedComponent(name)
        default:
            guard !name.hasPrefix("@") else { throw SignatureError.unsupportedComponent(name) }
            guard name == name.lowercased() else { throw SignatureError.malformed("field names must be lower case: \(name)") }
            guard let value = request.field(name) else { throw SignatureError.missingHeader(name) }
            return value
        }
    }

    /// §2.2.8: the named parameter's value, decoded as a form and re-encoded.
    private static func queryParameter(_ wanted: String, in request: HTTPRequestParts) throws -> String {
        let pairs = (request.query ?? "").split(separator: "&").map { pair -> (String, String) in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (formDecode(parts[0]), parts.count > 1 ? formDecode(parts[1]) : "")
        }
        let matches = pairs.filter { $0.0 == wanted }
        guard matches.count == 1 else {
            throw matches.isEmpty ? SignatureError.missingHeader("@query-param \(wanted)")
                                  : SignatureError.malformed("query parameter \(wanted) appears more than once")
        }
        return formEncode(matches[0].1)
    }

    private static func formDecode(_ text: Substring) -> String {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
    }

    private static let unreserved = CharacterSet(charactersIn:
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789*-._")

    private static func formEncode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}
