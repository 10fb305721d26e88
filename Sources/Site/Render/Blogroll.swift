import BlogModel
import Foundation
import HTMLMarkup

/// One account on the blogroll (`following:` in `lectern.yml`): what the followed actor's
/// document said, as plain data (Site builds no ActivityPub; the runtime passes these in).
public struct BlogrollEntry: Sendable, Equatable {
    public var name: String
    public var handle: String
    /// The profile page (or the actor id when it has none).
    public var url: String
    public var avatar: String?

    public init(name: String, handle: String, url: String, avatar: String? = nil) {
        (self.name, self.handle, self.url, self.avatar) = (name, handle, url, avatar)
    }

    /// The entry as a page may show it: names cleaned again (bidi controls, length), URLs only
    /// when they are plain http(s); nil without a usable URL. Mustache escapes every value.
    var shown: BlogrollEntry? {
        guard let url = HTTPURL.parse(url) else { return nil }
        let handle = DisplayText.name(handle, limit: 200)
        let name = DisplayText.name(name).isEmpty ? handle : DisplayText.name(name)
        return BlogrollEntry(name: name, handle: handle, url: url, avatar: avatar.flatMap(HTTPURL.parse))
    }
}

extension PageRenderer {
    /// The blogroll page: the accounts the blog follows.
    func blogroll(_ entries: [BlogrollEntry]) throws -> String {
        let settings = model.config.following
        var context = base(page: [
            "title": settings.title, "fullTitle": "\(settings.title) – \(model.config.title)",
            "description": "Who \(model.config.title) follows", "canonical": model.config.absoluteURL(settings.path),
            "ogType": "website",
        ])
        let shown = entries.compactMap(\.shown)
        context["following"] = [
            "title": settings.title, "hasAccounts": !shown.isEmpty,
            "accounts": shown.map { entry -> [String: any TemplateValue] in
                var item: [String: any TemplateValue] = ["name": entry.name, "handle": entry.handle, "url": entry.url]
                if let avatar = entry.avatar { item["avatar"] = avatar }
                return item
            },
        ] as [String: any TemplateValue]
        return try theme.render(context, template: "following")
    }
}

extension SitePlan {
    /// The blogroll, when `following: { page: true }`; its fingerprint covers every entry.
    func blogrollFiles() -> [OutputFile] {
        guard model.config.following.page else { return [] }
        var hash = global
        hash.combine("blogroll")
        for entry in blogroll {
            hash.combine([entry.name, entry.handle, entry.url, entry.avatar ?? ""], separator: 0x1F)
        }
        let renderer = renderer, entries = blogroll
        return [OutputFile(path: OutputFile.filePath(forSitePath: model.config.following.path), fingerprint: hash,
                           source: .text { try renderer.blogroll(entries) })]
    }
}
