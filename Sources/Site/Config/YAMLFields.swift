import Foundation
import Yams

/// A YAML mapping with typed accessors whose errors point at the offending line of the file.
///
/// Front matter and `lectern.yml` both go through this, so every "wrong type" message looks alike.
struct YAMLFields {
    let file: String
    /// Added to YAML line numbers to get file line numbers (front matter starts after `---`).
    let lineOffset: Int
    let isConfig: Bool
    private let mapping: Node.Mapping?
    private let startLine: Int

    init(yaml: String, file: String, lineOffset: Int, isConfig: Bool = false) throws {
        self.file = file
        self.lineOffset = lineOffset
        self.isConfig = isConfig
        self.startLine = lineOffset + 1
        let node: Node?
        do {
            node = try Yams.compose(yaml: yaml)
        } catch let error as YamlError {
            throw Self.describe(error, file: file, lineOffset: lineOffset, isConfig: isConfig)
        }
        guard let node else { self.mapping = nil; return }
        guard let mapping = node.mapping else {
            throw Self.error(file: file, line: (node.mark?.line ?? 1) + lineOffset, isConfig: isConfig,
                             "expected `key: value` lines")
        }
        self.mapping = mapping
    }

    private init(mapping: Node.Mapping, parent: YAMLFields) {
        self.file = parent.file
        self.lineOffset = parent.lineOffset
        self.isConfig = parent.isConfig
        self.mapping = mapping
        self.startLine = (mapping.mark?.line ?? 0) + parent.lineOffset
    }

    var keys: [String] { mapping?.keys.compactMap(\.string) ?? [] }

    func node(_ key: String) -> Node? {
        guard let value = mapping?[key] else { return nil }
        // `key:`, `key: ~` and `key: null` mean "not set".
        if case .scalar(let scalar) = value, scalar.style == .plain,
           ["", "~", "null", "Null", "NULL"].contains(scalar.string) {
            return nil
        }
        return value
    }

    func line(of key: String) -> Int {
        let keyNode = mapping?.keys.first { $0.string == key }
        return (keyNode?.mark?.line ?? 0) + lineOffset
    }

    func error(_ key: String, _ message: String) -> SiteError {
        Self.error(file: file, line: line(of: key), isConfig: isConfig, "'\(key)' \(message)")
    }

    func rejectUnknown(allowed: Set<String>) throws {
        for key in keys where !allowed.contains(key) {
            let known = allowed.sorted().joined(separator: ", ")
            throw Self.error(file: file, line: line(of: key), isConfig: isConfig,
                             "unknown key '\(key)' (known keys: \(known))")
        }
    }

    func string(_ key: String) throws -> String? {
        guard let node = node(key) else { return nil }
        guard case .scalar(let scalar) = node else { throw error(key, "must be a single value") }
        return scalar.string
    }

    func int(_ key: String) throws -> Int? {
        guard let node = node(key) else { return nil }
        guard let value = node.int else { throw error(key, "must be a whole number") }
        return value
    }

    func positiveInt(_ key: String) throws -> Int? {
        guard let value = try int(key) else { return nil }
        guard value > 0 else { throw error(key, "must be greater than zero") }
        return value
    }

    func bool(_ key: String) throws -> Bool? {
        guard let node = node(key) else { return nil }
        guard let value = node.bool else { throw error(key, "must be true or false") }
        return value
    }

    /// A timestamp: `2025-03-01`, `2025-03-01 09:30`, or full ISO 8601 with offset.
    func date(_ key: String, timeZone: TimeZone) throws -> Date? {
        guard let text = try string(key) else { return nil }
        guard let date = DateParsing.parse(text, timeZone: timeZone) else {
            throw error(key, "must be a date like 2025-03-01 or 2025-03-01T09:30:00Z, not '\(text)'")
        }
        return date
    }

    /// A list of strings; a single string is accepted as a one-item list.
    func strings(_ key: String) throws -> [String] {
        guard let node = node(key) else { return [] }
        switch node {
        case .scalar(let scalar):
            return [scalar.string]
        case .sequence(let sequence):
            return try sequence.map { item in
                guard case .scalar(let scalar) = item else { throw error(key, "must be a list of words") }
                return scalar.string
            }
        default:
            throw error(key, "must be a list such as [swift, web]")
        }
    }

    func nested(_ key: String) throws -> YAMLFields? {
        guard let node = node(key) else { return nil }
        guard let mapping = node.mapping else { throw error(key, "must contain `key: value` lines") }
        return YAMLFields(mapping: mapping, parent: self)
    }

    private static func error(file: String, line: Int, isConfig: Bool, _ message: String) -> SiteError {
        isConfig ? .config(file: file, line: line, message: message)
                 : .source(file: file, line: line, message: message)
    }

    private static func describe(_ error: YamlError, file: String, lineOffset: Int, isConfig: Bool) -> SiteError {
        switch error {
        case let .scanner(_, problem, mark, _), let .parser(_, problem, mark, _), let .composer(_, problem, mark, _):
            return Self.error(file: file, line: mark.line + lineOffset, isConfig: isConfig,
                              "invalid YAML: \(problem)")
        case let .duplicatedKeysInMapping(duplicates, _):
            return Self.error(file: file, line: lineOffset + 1, isConfig: isConfig,
                              "invalid YAML: duplicate keys \(duplicates.joined(separator: ", "))")
        default:
            return Self.error(file: file, line: lineOffset + 1, isConfig: isConfig, "invalid YAML: \(error)")
        }
    }
}
