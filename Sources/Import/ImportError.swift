/// Why an import could not run at all (problems with single items are in the report instead).
///
/// ```swift
/// do { _ = try await importer.run(source: path) } catch let error as ImportError { print("error: \(error)") }
/// ```
public enum ImportError: Error, Equatable, CustomStringConvertible {
    /// The source does not exist or cannot be read.
    case missing(String)
    /// The source is not any of the kinds `lectern import` reads.
    case unknownKind(String)
    /// The source looks like its kind but does not parse.
    case unreadable(String)
    /// A remote source (a feed URL) needs a downloader.
    case noDownloader
    /// `--old-site` names no built site or sitemap that can be read.
    case oldSite(String)

    public var description: String {
        switch self {
        case .missing(let path): return "\(path): no such file or folder"
        case .unknownKind(let detail): return "cannot tell what kind of source this is: \(detail)"
        case .unreadable(let detail): return "the source does not parse: \(detail)"
        case .noDownloader: return "a feed URL needs a downloader"
        case .oldSite(let detail): return "the old site (--old-site) cannot be read: \(detail)"
        }
    }
}
