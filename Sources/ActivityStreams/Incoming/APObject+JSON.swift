import Foundation

extension APObject {
    /// Decodes a received body: what the inbox gate checks and what the inbox worker applies,
    /// read the same way. Nesting deeper than `maximumDepth` is refused before anything is
    /// decoded (the decoder recurses once per level).
    public init(json bytes: [UInt8], maximumDepth: Int = 32) throws {
        guard Self.depth(of: bytes) <= maximumDepth else { throw ParseError.tooDeep(limit: maximumDepth) }
        do {
            self = try JSONDecoder().decode(APObject.self, from: Data(bytes))
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            throw ParseError.notAnObject
        } catch {
            throw ParseError.notJSON
        }
    }

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

    /// Whether an address means "everyone": the full IRI, `as:Public` or `Public`.
    public static func isPublic(_ address: String) -> Bool {
        address == AS.publicAddress || address == "as:Public" || address == "Public"
    }
}
