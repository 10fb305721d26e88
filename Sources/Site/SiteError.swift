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
        }
    }

    private static func place(_ file: String, _ line: Int?) -> String {
        line.map { "\(file):\($0)" } ?? file
    }
}
