import Foundation

/// Images on a page must be there: a local image that the build does not publish is an error
/// naming the source line (the page would show a broken image), and an image without alt text
/// is a warning (readers who cannot see it learn nothing).
struct ImageCheck {
    let model: SiteModel
    let theme: Theme

    func check(_ rendered: RenderedMarkdown, sourcePath: String) throws {
        for image in rendered.images {
            let isLocal = image.src.hasPrefix("/") && !image.src.hasPrefix("//")
            if isLocal, model.localFiles.file(at: image.src) == nil, !isThemeAsset(image.src) {
                throw SiteError.source(file: sourcePath, line: fileLine(sourcePath, bodyLine: image.line),
                                       message: "image '\(image.src)' not found: put it under static/ or, for a post, "
                                           + "beside its index.md (content/posts/<name>/index.md)")
            }
            if image.alt.isEmpty {
                let warning = "\(sourcePath):\(fileLine(sourcePath, bodyLine: image.line) ?? image.line): image '\(image.src)' "
                    + "has no alt text; describe it for readers who cannot see it: ![what it shows](…)"
                model.renderWarnings.withLock { $0.append(warning) }
            }
        }
    }

    private func isThemeAsset(_ src: String) -> Bool {
        src.hasPrefix("/assets/") && theme.assets[String(src.dropFirst("/assets/".count))] != nil
    }

    /// The line in the source file: the body's line plus the front matter before it.
    private func fileLine(_ sourcePath: String, bodyLine: Int) -> Int? {
        guard let root = model.root, let data = FileManager.default.contents(atPath: root.appendingPathComponent(sourcePath).path),
              let source = SourceText.decode(data), let matter = try? FrontMatter.split(source, file: sourcePath) else { return nil }
        func newlines(_ text: String) -> Int { text.utf8.reduce(0) { $0 + ($1 == 10 ? 1 : 0) } }
        return newlines(source) - newlines(matter.body) + bodyLine
    }
}
