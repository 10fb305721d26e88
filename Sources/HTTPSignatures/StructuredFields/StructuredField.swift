import Foundation

/// RFC 8941 structured field values, as far as HTTP signatures need them.
public enum StructuredField {
    /// A bare item (RFC 8941 §3.3).
    public enum Item: Equatable, Sendable {
        case integer(Int64)
        case decimal(Double)
        case string(String)
        case token(String)
        case bytes([UInt8])
        case boolean(Bool)
    }

    /// Parameters keep their order: it is part of the signature base.
    public typealias Parameters = [(key: String, value: Item)]

    public struct ParameterizedItem: Sendable {
        public var item: Item
        public var parameters: Parameters

        public init(_ item: Item, parameters: Parameters = []) {
            self.item = item
            self.parameters = parameters
        }

        public func parameter(_ key: String) -> Item? { parameters.first { $0.key == key }?.value }
    }

    public struct InnerList: Sendable {
        public var items: [ParameterizedItem]
        public var parameters: Parameters

        public init(_ items: [ParameterizedItem], parameters: Parameters = []) {
            self.items = items
            self.parameters = parameters
        }

        public func parameter(_ key: String) -> Item? { parameters.first { $0.key == key }?.value }
    }

    public enum Member: Sendable {
        case item(ParameterizedItem)
        case innerList(InnerList)
    }

    /// Dictionary members keep their order too ("the first valid signature" depends on it).
    public typealias Dictionary = [(key: String, value: Member)]
}

extension StructuredField.Item {
    public var string: String? { if case .string(let value) = self { return value } else { return nil } }
    public var integer: Int64? { if case .integer(let value) = self { return value } else { return nil } }
    public var bytes: [UInt8]? { if case .bytes(let value) = self { return value } else { return nil } }
}

/// Why a structured field did not parse.
public struct StructuredFieldError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public var description: String { "invalid structured field: \(message)" }
}
