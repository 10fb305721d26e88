import Foundation

extension APObject {
    /// Decodes a received body: what the inbox gate checks and what the inbox worker applies,
    /// read the same way. Nesting deeper than `maximumDepth` is refused before anything is
    /// decoded (the decoder recurses once per level).
    public init(json bytes: [UInt8], maximumDepth: Int = 32) throws {
        guard ASObject.depth(of: bytes) <= maximumDepth else { throw ASObject.ParseError.tooDeep(limit: maximumDepth) }
        do {
            self = try JSONDecoder().decode(APObject.self, from: Data(bytes))
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            throw ASObject.ParseError.notAnObject
        } catch {
            throw ASObject.ParseError.notJSON
        }
    }
}
