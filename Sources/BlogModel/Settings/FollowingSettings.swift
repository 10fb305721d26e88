import Foundation

/// `following:` in `lectern.yml`: the blogroll, a page listing the accounts the blog follows
/// (`lectern follow`). Off unless `page: true`.
///
/// ```yaml
/// following:
///   page: true
///   path: /blogroll/      # default /following/
///   title: Blogroll       # default "Following"
///   menu: 3               # in the navigation, ordered with pages' menu:
/// ```
public struct FollowingSettings: Sendable, Equatable {
    public var page = false
    /// Where the page is built: a site path ending in `/`.
    public var path = "/following/"
    public var title = "Following"
    /// Its place in the navigation (nil: not there).
    public var menuOrder: Int?
    public init() {}
}

package extension YAMLFields {
    func followingSettings() throws -> FollowingSettings {
        var settings = FollowingSettings()
        guard let block = try nested("following") else { return settings }
        try block.rejectUnknown(allowed: ["page", "path", "title", "menu"])
        settings.menuOrder = try block.int("menu")
        settings.page = try block.bool("page") ?? false
        settings.title = try block.string("title") ?? settings.title
        if let path = try block.string("path") {
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            guard path.hasPrefix("/"), path.hasSuffix("/"), path.count > 1, !parts.contains(".."),
                  path.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_/".contains($0)) }) else {
                throw block.error("path", "must be a site path such as /blogroll/ (letters, digits, - and _)")
            }
            settings.path = path
        }
        return settings
    }
}
