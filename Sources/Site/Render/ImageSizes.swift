import BlogModel
import Foundation
import HTMLMarkup
import Synchronization

/// Images on the site's pages get their `width` and `height` (read from the file under
/// `static/` or in the post's bundle, so the page does not jump as they arrive),
/// `loading="lazy"` and `decoding="async"`. Attributes the writer gave (raw HTML) are kept.
/// Remote images get the loading hints only.
final class ImageSizes: Sendable {
    let files: LocalFiles
    private let known = Mutex<[String: Size]>([:])

    struct Size: Sendable, Equatable { var width: Int, height: Int }

    init(files: LocalFiles) { self.files = files }

    /// The size of a root-relative image (`/images/a.png`) the build copies, read once.
    func size(of src: String) -> Size? {
        guard let file = files.file(at: src) else { return nil }
        if let hit = known.withLock({ $0[file.url.path] }) { return hit.width == 0 ? nil : hit }
        let size = FileManager.default.contents(atPath: file.url.path).flatMap(ImageSize.of).map { Size(width: $0.width, height: $0.height) }
        known.withLock { $0[file.url.path] = size ?? Size(width: 0, height: 0) }
        return size
    }

    func decorate(_ html: String) -> String {
        guard HTMLText.firstRange(of: "<img ", in: Substring(html)) != nil else { return html }
        var output = ""
        var rest = Substring(html)
        while let start = HTMLText.firstRange(of: "<img ", in: rest) {
            output += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].firstIndex(of: ">") else { break }
            var tag = String(rest[start.lowerBound..<end])
            let selfClosing = tag.hasSuffix("/")
            if selfClosing { tag = String(tag.dropLast()).trimmingCharacters(in: .whitespaces) }
            func has(_ name: String) -> Bool { tag.contains(" \(name)=") }
            if !has("width"), !has("height"), let src = Self.attribute("src", in: tag), let size = size(of: src) {
                tag += " width=\"\(size.width)\" height=\"\(size.height)\""
            }
            if !has("loading") { tag += " loading=\"lazy\"" }
            if !has("decoding") { tag += " decoding=\"async\"" }
            output += tag + (selfClosing ? " />" : ">")
            rest = rest[rest.index(after: end)...]
        }
        return output + rest
    }

    static func attribute(_ name: String, in tag: String) -> String? {
        guard let open = tag.range(of: " \(name)=\""), let close = tag[open.upperBound...].firstIndex(of: "\"") else { return nil }
        return HTMLEntities.decode(tag[open.upperBound..<close])
    }
}
