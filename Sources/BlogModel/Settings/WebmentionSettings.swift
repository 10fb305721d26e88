import Foundation

/// `webmention:` in `lectern.yml`: the W3C Webmention protocol, received (`POST /webmention`,
/// advertised on every page) and sent (to the links of each published post). Both are off
/// unless the file says otherwise: a blog made before the block existed keeps doing what it
/// did; `lectern init` writes the block with both on.
public struct WebmentionSettings: Sendable, Equatable {
    public var receive = false
    public var send = false
    public init(receive: Bool = false, send: Bool = false) { (self.receive, self.send) = (receive, send) }

    /// The endpoint's path on the blog.
    public static let endpointPath = "/webmention"
}

package extension YAMLFields {
    func webmentionSettings() throws -> WebmentionSettings {
        var settings = WebmentionSettings()
        guard let block = try nested("webmention") else { return settings }
        try block.rejectUnknown(allowed: ["receive", "send"])
        settings.receive = try block.bool("receive") ?? false
        settings.send = try block.bool("send") ?? false
        return settings
    }
}
