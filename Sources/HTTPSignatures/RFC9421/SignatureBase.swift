import Foundation

/// Builds RFC 9421 signature bases (§2.5) from a request and a list of covered components.
public enum SignatureBase {
    /// The signature base for `components` with `parameters`, e.g.
    /// `"@method": POST\n…\n"@signature-params": ("@method" …);created=…;keyid="…"`.
    public static func make(for request: HTTPRequestParts, covering list: StructuredField.InnerList) throws -> String {
        String(decoding: try bytes(for: request, covering: list), as: UTF8.self)
    }

    /// The same as bytes, built in one buffer: what signing and verifying hash.
    static func bytes(for request: HTTPRequestParts, covering list: StructuredField.InnerList) throws -> [UInt8] {
        var base = ByteWriter()
        for (index, component) in list.items.enumerated() {
            guard case .string(let name) = component.item else {
                throw SignatureError.malformed("component identifiers must be strings")
            }
            // Compared as parsed (for the identifiers accepted below, strings with at most a string
            // parameter, the same as comparing serializations), pairwise: an inner list holds at
            // most 256 (StructuredFieldParser.maximumItems).
            if list.items[..<index].contains(where: { $0.item == component.item && sameParameters($0.parameters, component.parameters) }) {
                throw SignatureError.malformed("\(StructuredFieldSerializer.parameterizedItem(component)) is covered twice")
            }
            StructuredFieldSerializer.append(component, to: &base)
            base.append(": ")
            try appendValue(of: name, parameters: component.parameters, in: request, to: &base)
            base.append(UInt8(ascii: "\n"))
        }
        base.append("\"@signature-params\": ")
        StructuredFieldSerializer.append(list, to: &base)
        return base.bytes
    }

    private static func sameParameters(_ a: StructuredField.Parameters, _ b: StructuredField.Parameters) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    /// One component's value (§2.1 fields, §2.2 derived components), written straight into the base.
    static func appendValue(of name: String, parameters: StructuredField.Parameters, in request: HTTPRequestParts,
                            to base: inout ByteWriter) throws {
        // A field, the usual case, is told by its first byte: no walk through the derived names.
        if name.utf8.first != UInt8(ascii: "@") {
            guard parameters.isEmpty else { throw SignatureError.unsupportedComponent("\(name);\(parameters[0].key)") }
            try appendField(name, in: request, to: &base)
            return
        }
        if name == "@query-param" {
            guard parameters.count == 1, let wanted = parameters.first(where: { $0.key == "name" })?.value.string else {
                throw SignatureError.unsupportedComponent("@query-param without a single name parameter")
            }
            base.append(utf8: try queryParameter(wanted, in: request))
            return
        }
        if let unsupported = parameters.first?.key {
            throw SignatureError.unsupportedComponent("\(name);\(unsupported)")
        }
        func target() {
            base.append(utf8: request.path)
            if let query = request.query { base.append(UInt8(ascii: "?")); base.append(utf8: query) }
        }
        switch name {
        case "@method": base.append(utf8: request.method)
        case "@target-uri": base.append(utf8: request.scheme); base.append("://"); base.append(utf8: request.authority); target()
        case "@authority": base.append(utf8: request.authority)
        case "@scheme": base.append(utf8: request.scheme)
        case "@request-target": target()
        case "@path": base.append(utf8: request.path)
        case "@query": base.append(UInt8(ascii: "?")); base.append(utf8: request.query ?? "")
        default:  // "@signature-params", "@status" and names RFC 9421 does not define
            throw SignatureError.unsupportedComponent(name)
        }
    }

    private static func appendField(_ name: String, in request: HTTPRequestParts, to base: inout ByteWriter) throws {
        guard !ASCII.containsByte(name, where: { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) else {
            throw SignatureError.malformed("field names must be lower case: \(name)")
        }
        guard let value = request.field(name) else { throw SignatureError.missingHeader(name) }
        base.append(utf8: value)
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
