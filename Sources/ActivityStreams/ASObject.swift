import Foundation

/// A received ActivityStreams object, read tolerantly: JSON-LD lets most properties be a
/// string, an object or an array of either, and servers use all three.
///
/// ```swift
/// let activity = try ASObject(json: body)
/// activity.type            // "Create"
/// activity.id("actor")     // the actor's id, whether given as a string or embedded
/// activity.ids("to")       // every address, from a string or an array
/// ```
public struct ASObject: @unchecked Sendable {
    /// JSONSerialization output: immutable once parsed.
    public let raw: [String: Any]

    public init(_ raw: [String: Any]) { self.raw = raw }

    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case tooDeep(limit: Int)
        case notJSON
        case notAnObject

        public var description: String {
            switch self {
            case .tooDeep(let limit): return "JSON nested deeper than \(limit) levels"
            case .notJSON: return "the body is not JSON"
            case .notAnObject: return "the body is not a JSON object"
            }
        }
    }

    /// Parses a body, refusing nesting deeper than `maximumDepth` before any allocation.
    public init(json bytes: [UInt8], maximumDepth: Int = 32) throws {
        guard Self.depth(of: bytes) <= maximumDepth else { throw ParseError.tooDeep(limit: maximumDepth) }
        let value: Any
        do { value = try JSONSerialization.jsonObject(with: Data(bytes)) } catch { throw ParseError.notJSON }
        guard let object = value as? [String: Any] else { throw ParseError.notAnObject }
        raw = object
    }

    /// The deepest nesting of arrays and objects, strings skipped.
    static func depth(of bytes: [UInt8]) -> Int {
        var depth = 0, deepest = 0, inString = false, escaped = false
        for byte in bytes {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true }
                else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1; deepest = max(deepest, depth)
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
        }
        return deepest
    }

    public var id: String? { raw["id"] as? String }

    /// The first type (some servers send `["Note", "ex:Extra"]`).
    public var type: String? {
        if let type = raw["type"] as? String { return type }
        return (raw["type"] as? [Any])?.compactMap { $0 as? String }.first
    }

    public func string(_ key: String) -> String? { raw[key] as? String }

    public func bool(_ key: String) -> Bool { raw[key] as? Bool ?? false }

    /// The id a property points at: a string, an embedded object's `id`, or the first of an array.
    public func id(_ key: String) -> String? { ids(key).first }

    /// Every id a property points at.
    public func ids(_ key: String) -> [String] {
        func ids(_ value: Any?) -> [String] {
            switch value {
            case let string as String: return [string]
            case let object as [String: Any]:
                return (object["id"] as? String).map { [$0] } ?? (object["href"] as? String).map { [$0] } ?? []
            case let array as [Any]: return array.flatMap(ids)
            default: return []
            }
        }
        return ids(raw[key])
    }

    /// The embedded object of a property (nil when it is only a link).
    public func object(_ key: String) -> ASObject? {
        if let object = raw[key] as? [String: Any] { return ASObject(object) }
        if let first = (raw[key] as? [Any])?.first as? [String: Any] { return ASObject(first) }
        return nil
    }

    /// Every embedded object of a property (`tag`, `attachment`).
    public func objects(_ key: String) -> [ASObject] {
        if let object = raw[key] as? [String: Any] { return [ASObject(object)] }
        return (raw[key] as? [Any] ?? []).compactMap { ($0 as? [String: Any]).map(ASObject.init) }
    }

    /// Whether an address means "everyone": the full IRI, `as:Public` or `Public`.
    public static func isPublic(_ address: String) -> Bool {
        address == AS.publicAddress || address == "as:Public" || address == "Public"
    }
}
