import Foundation

/// Old paths that redirect to posts (front matter `aliases:`), as a build writes them among the
/// records of the tree it makes (`BuildRecords`) for the server: one `old-path new-path` per line.
///
/// ```swift
/// let redirects = Redirects.load(publicFolder: site.appendingPathComponent("public"))
/// redirects["/2019/05/old-post/"]   // "/2019/old-post/"
/// ```
public enum Redirects {
    static let fileName = "redirects"
    /// Its path in a build's plan (a record of the tree, not a file in it).
    static let planPath = BuildRecords.treePrefix + fileName

    /// The redirects of the build in `publicFolder` (empty when it has none).
    public static func load(publicFolder: URL) -> [String: String] {
        guard let url = BuildRecords(outputFolder: publicFolder).treeFile(fileName, of: publicFolder),
              let data = FileManager.default.contents(atPath: url.path) else { return [:] }
        var redirects: [String: String] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            // Keyed by the decoded path: an alias written `/επ/` or `/%ce%b5%cf%80/` is one address.
            if parts.count == 2 { redirects[key(String(parts[0]))] = String(parts[1]) }
        }
        return redirects
    }

    /// The key a path is looked up by: percent-decoded (any case of hex digits), else as it is.
    public static func key(_ path: String) -> String {
        // A byte scan: `String.contains` goes through Foundation, measured on the fast path.
        path.utf8.contains(UInt8(ascii: "%")) ? path.removingPercentEncoding ?? path : path
    }
}
