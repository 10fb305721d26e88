import Foundation

/// The text of a source file as the parsers expect it: UTF-8, `\n` line ends.
///
/// Files saved on Windows end lines with CR LF, old Mac files with a lone CR, and many editors
/// start UTF-8 with a byte-order mark. Swift treats "\r\n" as one `Character`, so code looking
/// for "\n" would not find it there; normalizing once, at the byte level, keeps every parser
/// (front matter, YAML, TOML, Markdown) simple and line numbers right.
package enum SourceText {
    /// nil when the bytes are not UTF-8.
    package static func decode(_ data: Data) -> String? {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        if bytes.contains(0x0D) {
            var normalized: [UInt8] = []
            normalized.reserveCapacity(bytes.count)
            var index = 0
            while index < bytes.count {
                if bytes[index] == 0x0D {
                    normalized.append(0x0A)
                    if index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
                } else {
                    normalized.append(bytes[index])
                }
                index += 1
            }
            bytes = normalized
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// YAML forbids tabs for indentation; writers press Tab anyway. Leading tabs of front matter
    /// lines become two spaces each, which is what they meant.
    static func untabbedIndentation(_ yaml: String) -> String {
        guard yaml.contains("\t") else { return yaml }
        return yaml.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let tabs = line.prefix { $0 == "\t" || $0 == " " }
            guard tabs.contains("\t") else { return String(line) }
            return tabs.replacingOccurrences(of: "\t", with: "  ") + line.dropFirst(tabs.count)
        }.joined(separator: "\n")
    }
}
