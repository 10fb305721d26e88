import Foundation
import Mustache

/// The templates and assets a build uses: the embedded default theme, with any file of the same
/// name in the site's `theme/` folder taking its place, plus extra files found there.
public struct Theme: Sendable {
    /// Templates by name (file name without `.mustache`).
    public let library: MustacheLibrary
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
        "search.mustache": PackageResources.search_mustache,
        "page.mustache": PackageResources.page_mustache,
        "not-found.mustache": PackageResources.not_found_mustache,
        "gone.mustache": PackageResources.gone_mustache,
        "comments.mustache": PackageResources.comments_mustache,
        "comment-body.mustache": PackageResources.comment_body_mustache,
        "comment-page.mustache": PackageResources.comment_page_mustache,
        "style.css": PackageResources.style_css,
        "highlight.css": PackageResources.highlight_css,
        "comments.js": PackageResources.comments_js,
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
        var library = MustacheLibrary()
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
                // Every template escapes by Unicode scalar, overrides included (see ScalarHTMLContentType).
                precondition(ScalarHTMLContentType.registered)
                library.register(try MustacheTemplate(string: ScalarHTMLContentType.pragma + text), named: templateName)
            } catch let error as MustacheTemplate.ParserError {
                throw SiteError.template(name: origin, line: error.context.lineNumber,
                                         message: "\(error.error) near “\(error.context.line)”")
            }
        }
        // One stylesheet for pages: the code colours (highlight.css, overridable on its own) are
        // served as part of style.css, so a page costs one request for its styles.
        if let colours = assets.removeValue(forKey: "highlight.css") {
            assets["style.css", default: []] += Array("\n".utf8) + colours
        }
        for name in requiredTemplates where library.getTemplate(named: name) == nil {
            throw SiteError.template(name: "\(name).mustache", line: nil, message: "unknown template")
        }
        try checkPartials(files: files, origins: origins, library: library)
        return Theme(library: library, assets: assets, fingerprint: fingerprint)
    }

    /// Mustache renders a missing partial as nothing; a typo in `{{> name}}` should fail the build instead.
    private static func checkPartials(files: [String: [UInt8]], origins: [String: String],
                                      library: MustacheLibrary) throws {
        for (name, bytes) in files where name.hasSuffix(".mustache") {
            let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() {
                var rest = line[...]
                while let open = rest.range(of: "{{>") {
                    guard let close = rest[open.upperBound...].range(of: "}}") else { break }
                    let partial = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
                    if library.getTemplate(named: partial) == nil {
                        throw SiteError.template(name: origins[name] ?? "(default theme) \(name)", line: index + 1,
                                                 message: "unknown template '\(partial)' in {{> \(partial)}}")
                    }
                    rest = rest[close.upperBound...]
                }
            }
        }
    }

    /// Renders a template; a missing partial or template is an error, not an empty page.
    func render(_ context: [String: Any], template: String) throws -> String {
        guard let output = library.render(context, withTemplate: template) else {
            throw SiteError.template(name: "\(template).mustache", line: nil, message: "unknown template")
        }
        return output
    }
}
