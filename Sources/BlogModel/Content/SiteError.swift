import Foundation

/// Everything that can stop a build, each with a message that names the file (and line) to fix.
public enum SiteError: Error, Equatable, CustomStringConvertible {
    /// A problem at a known place in a source file; `line` is 1-based.
    case source(file: String, line: Int?, message: String)
    /// Two posts want the same URL.
    case duplicateURL(url: String, first: String, second: String)
    /// A template is missing or does not parse.
    case template(name: String, line: Int?, message: String)
    /// The configuration file is missing or invalid.
    case config(file: String, line: Int?, message: String)
    /// Reading or writing the file system failed.
    case io(path: String, message: String)
    /// Several sources are broken: each is named, so one build shows every file to fix.
    case several([SiteError])

    /// The errors of one pass over the sources: thrown as one, or as `several`; nil when none.
    /// An error of another kind than ours (none is expected) is thrown as it is.
    package static func combined(_ errors: [any Error]) throws {
        guard let first = errors.first else { return }
        let ours = errors.compactMap { $0 as? SiteError }
        guard ours.count == errors.count else { throw errors.first { !($0 is SiteError) } ?? first }
        throw ours.count == 1 ? ours[0] : SiteError.several(ours)
    }

    public var description: String {
        switch self {
        case let .source(file, line, message), let .config(file, line, message):
            return "\(Self.place(file, line)): \(message)"
        case let .duplicateURL(url, first, second):
            return "\(second): duplicate slug: \(url) is already used by \(first)"
        case let .template(name, line, message):
            return "template \(Self.place(name, line)): \(message)"
        case let .io(path, message):
            return "\(path): \(message)"
        case let .several(errors):
            return "\(errors.count) files cannot be built:\n" + errors.map { "  " + $0.description }.joined(separator: "\n")
        }
    }

    private static func place(_ file: String, _ line: Int?) -> String {
        line.map { "\(file):\($0)" } ?? file
    }
}
