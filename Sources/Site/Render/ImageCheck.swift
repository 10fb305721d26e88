import BlogModel
import Foundation

/// Images on a page must be there: a local image that the build does not publish is an error
/// naming the source line (the page would show a broken image), and an image without alt text
/// is a warning (readers who cannot see it learn nothing).
struct ImageCheck {
    let model: SiteModel
    let theme: Theme

    func check(_ rendered: RenderedMarkdown, sourcePath: String) throws {
        // The front matter's length, read from the file once, and only if something is reported.
        var offset: Int??
        func fileLine(_ bodyLine: Int) -> Int? {
            if offset == nil { offset = frontMatterLines(sourcePath) }
            return offset!.map { $0 + bodyLine }
        }
        for image in rendered.images {
            let isLocal = image.src.hasPrefix("/") && !image.src.hasPrefix("//")
            if isLocal, model.localFiles.file(at: image.src) == nil, !isThemeAsset(image.src) {
                throw SiteError.source(file: sourcePath, line: fileLine(image.line),
                                       message: "image '\(image.src)' not found: put it under static/ or, for a post, "
                                           + "beside its index.md (content/posts/<name>/index.md)")
            }
            if image.alt.isEmpty {
                let warning = "\(sourcePath):\(fileLine(image.line) ?? image.line): image '\(image.src)' "
                    + "has no alt text; describe it for readers who cannot see it: ![what it shows](…)"
                model.renderWarnings.withLock { $0.append(warning) }
            }
        }
    }

    private func isThemeAsset(_ src: String) -> Bool {
        src.hasPrefix("/assets/") && theme.assets[String(src.dropFirst("/assets/".count))] != nil
    }

    /// How many file lines come before the body (the front matter and its fences).
    private func frontMatterLines(_ sourcePath: String) -> Int? {
        guard let root = model.root, let data = FileManager.default.contents(atPath: root.appendingPathComponent(sourcePath).path),
              let source = SourceText.decode(data), let matter = try? FrontMatter.split(source, file: sourcePath) else { return nil }
        func newlines(_ text: String) -> Int { text.utf8.reduce(0) { $0 + ($1 == 10 ? 1 : 0) } }
        return newlines(source) - newlines(matter.body)
    }
}
