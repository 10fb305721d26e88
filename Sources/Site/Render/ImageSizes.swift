import Foundation
import Synchronization

/// Images on the site's pages get their `width` and `height` (read from the file under
/// `static/`, so the page does not jump as they arrive), `loading="lazy"` and
/// `decoding="async"`. Attributes the writer gave (raw HTML) are kept. Remote images get the
/// loading hints only.
final class ImageSizes: Sendable {
    let folder: URL?
    private let known = Mutex<[String: Size]>([:])

    struct Size: Sendable, Equatable { var width: Int, height: Int }

    init(staticFolder: URL?) { folder = staticFolder }

    /// The size of a root-relative image (`/images/a.png`) found under `static/`, read once.
    func size(of src: String) -> Size? {
        guard let folder, src.hasPrefix("/"), !src.hasPrefix("//") else { return nil }
        let path = String(src.split(separator: "?", maxSplits: 1).first ?? "").removingPercentEncoding ?? src
        guard !path.split(separator: "/").contains("..") else { return nil }
        if let hit = known.withLock({ $0[path] }) { return hit.width == 0 ? nil : hit }
        let data = FileManager.default.contents(atPath: folder.appendingPathComponent(String(path.dropFirst())).path)
        let size = data.flatMap(ImageSize.of).map { Size(width: $0.width, height: $0.height) }
        known.withLock { $0[path] = size ?? Size(width: 0, height: 0) }
        return size
    }

    func decorate(_ html: String) -> String {
        guard html.contains("<img ") else { return html }
        var output = ""
        var rest = Substring(html)
        while let start = rest.range(of: "<img ") {
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
