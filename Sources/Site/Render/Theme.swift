import BlogModel
import Foundation

/// The templates and assets a build uses: the embedded default theme, with any file of the same
/// name in the site's `theme/` folder taking its place, plus extra files found there.
public struct Theme: Sendable {
    /// Templates by name (file name without `.mustache`).
    public let library: TemplateLibrary
    /// Non-template files (CSS, images, fonts), by file name; published under `/assets/`.
    public let assets: [String: [UInt8]]
    /// Fingerprint of every template and asset: any change re-renders every page.
    public let fingerprint: ContentHash

    /// Names a site's templates must provide; checked up front so a typo fails the build early.
    static let requiredTemplates = ["head", "foot", "post", "list", "archive", "page", "not-found", "gone"]

    public static let embeddedFiles: [String: [UInt8]] = [
        "head.mustache": PackageResources.head_mustache,
        "foot.mustache": PackageResources.foot_mustache,
        "post.mustache": PackageResources.post_mustache,
        "post-meta.mustache": PackageResources.post_meta_mustache,
        "post-summary.mustache": PackageResources.post_summary_mustache,
        "list.mustache": PackageResources.list_mustache,
        "archive.mustache": PackageResources.archive_mustache,
        "tags.mustache": PackageResources.tags_mustache,
        "following.mustache": PackageResources.following_mustache,
        "search.mustache": PackageResources.search_mustache,
        "page.mustache": PackageResources.page_mustache,
        "not-found.mustache": PackageResources.not_found_mustache,
        "gone.mustache": PackageResources.gone_mustache,
        "comments.mustache": PackageResources.comments_mustache,
        "comment-body.mustache": PackageResources.comment_body_mustache,
        "comment-page.mustache": PackageResources.comment_page_mustache,
        "follow-card.mustache": PackageResources.follow_card_mustache,
        "subscribe-form.mustache": PackageResources.subscribe_form_mustache,
        "email.mustache": PackageResources.email_mustache,
        "style.css": PackageResources.style_css,
        "highlight.css": PackageResources.highlight_css,
        "comments.js": PackageResources.comments_js,
        "follow.js": PackageResources.follow_js,
        "favicon.svg": PackageResources.favicon_svg,
    ]

    /// Loads the theme for a site; `overrideFolder` is usually `<site>/theme`.
    public static func load(overrideFolder: URL?) throws -> Theme {
        var files = embeddedFiles
        var origins: [String: String] = [:]
        if let folder = overrideFolder,
           let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) {
            for name in names.sorted() where !name.hasPrefix(".") {
                let url = folder.appendingPathComponent(name)
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
                      !isDirectory.boolValue else { continue }
                guard let data = FileManager.default.contents(atPath: url.path) else {
                    throw SiteError.io(path: "theme/\(name)", message: "cannot read the file")
                }
                files[name] = [UInt8](data)
                origins[name] = "theme/\(name)"
            }
        }
        var library = TemplateLibrary()
        var assets: [String: [UInt8]] = [:]
        var fingerprint = ContentHash()
        for name in files.keys.sorted() {
            let bytes = files[name]!
            fingerprint.combine(name)
            bytes.withUnsafeBufferPointer { fingerprint.combine(bytes: $0) }
            guard name.hasSuffix(".mustache") else { assets[name] = bytes; continue }
            let templateName = String(name.dropLast(".mustache".count))
            let origin = origins[name] ?? "(default theme) \(name)"
            guard let text = String(bytes: bytes, encoding: .utf8) else {
                throw SiteError.template(name: origin, line: nil, message: "is not valid UTF-8")
            }
            do {
                library.register(try Template(text), named: templateName)
            } catch {
                throw SiteError.template(name: origin, line: error.line, message: error.message)
            }
        }
        // One stylesheet for pages: the code colours (highlight.css, overridable on its own) are
        // served as part of style.css, so a page costs one request for its styles.
        if let colours = assets.removeValue(forKey: "highlight.css") {
            assets["style.css", default: []] += Array("\n".utf8) + colours
        }
        for name in requiredTemplates where library.template(named: name) == nil {
            throw SiteError.template(name: "\(name).mustache", line: nil, message: "unknown template")
        }
        try checkPartials(origins: origins, library: library)
        return Theme(library: library, assets: assets, fingerprint: fingerprint)
    }

    /// A typo in `{{> name}}` or `{{< name}}` fails the build up front, naming the file and line.
    private static func checkPartials(origins: [String: String], library: TemplateLibrary) throws {
        for name in library.names.sorted() {
            for reference in library.template(named: name)!.references where library.template(named: reference.name) == nil {
                throw SiteError.template(name: origins["\(name).mustache"] ?? "(default theme) \(name).mustache",
                                         line: reference.line,
                                         message: "unknown template '\(reference.name)' in \(reference.tag)")
            }
        }
    }

    /// Renders a template; a missing partial or template is an error, not an empty page.
    func render(_ context: [String: any TemplateValue], template: String) throws -> String {
        do {
            return try library.render(context, template: template)
        } catch .unknownTemplate(let name) {
            throw SiteError.template(name: "\(name).mustache", line: nil, message: "unknown template")
        } catch .tooDeep(let name) {
            throw SiteError.template(name: "\(name).mustache", line: nil,
                                     message: "partials nested more than \(TemplateLibrary.maximumDepth) deep (does it include itself?)")
        }
    }
}
