/// Fetches a remote image for `--download-images`. The CLI plugs in Lectern's SSRF-guarded
/// `FetchClient`; tests use a fake.
///
/// ```swift
/// struct FakeDownloader: ImageDownloader {
///     func download(_ url: String) async throws -> [UInt8] { Array("GIF89a…".utf8) }
/// }
/// let importer = Importer(options: options, downloader: FakeDownloader())
/// ```
public protocol ImageDownloader: Sendable {
    /// The bytes at `url` (a successful response's body); throws when it cannot be fetched.
    func download(_ url: String) async throws -> [UInt8]
}

/// File names for downloaded images: the URL's last path segment made safe (`1*abc.PNG` →
/// `1-abc.png`), with an extension from the bytes when the URL has none, unique in its folder.
enum ImageFiles {
    static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "webp", "svg", "avif", "bmp", "ico", "tif", "tiff"]

    static func name(for url: String, bytes: [UInt8]?, taken: Set<String>) -> String {
        var segment = Substring(url)
        if let cut = segment.firstIndex(where: { $0 == "?" || $0 == "#" }) { segment = segment[..<cut] }
        var base = segment.split(separator: "/").last.map { String($0).removingPercentEncoding ?? String($0) } ?? ""
        if url.hasPrefix("data:") { base = "" }
        var name = ""
        var pendingDash = false
        for character in base.lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber || character == "." || character == "_") {
                if pendingDash && !name.isEmpty { name += "-" }
                pendingDash = false
                name.append(character)
            } else {
                pendingDash = true
            }
        }
        name = String(name.drop(while: { $0 == "." }))
        var stem = name
        var ext = ""
        if let dot = name.lastIndex(of: "."), imageExtensions.contains(String(name[name.index(after: dot)...])) {
            stem = String(name[..<dot])
            ext = String(name[name.index(after: dot)...])
        }
        if ext.isEmpty { ext = bytes.flatMap(sniff) ?? "img" }
        if stem.isEmpty { stem = "image" }
        stem = String(stem.prefix(80))
        var candidate = "\(stem).\(ext)"
        var number = 2
        while taken.contains(candidate) {
            candidate = "\(stem)-\(number).\(ext)"
            number += 1
        }
        return candidate
    }

    /// The image format from its first bytes.
    static func sniff(_ bytes: [UInt8]) -> String? {
        func starts(_ prefix: [UInt8]) -> Bool { bytes.count >= prefix.count && Array(bytes.prefix(prefix.count)) == prefix }
        if starts([0x89, 0x50, 0x4E, 0x47]) { return "png" }
        if starts([0xFF, 0xD8, 0xFF]) { return "jpg" }
        if starts(Array("GIF8".utf8)) { return "gif" }
        if starts(Array("RIFF".utf8)), bytes.count > 12, Array(bytes[8..<12]) == Array("WEBP".utf8) { return "webp" }
        if bytes.count > 12, Array(bytes[4..<12]) == Array("ftypavif".utf8) { return "avif" }
        if starts(Array("BM".utf8)) { return "bmp" }
        let head = String(decoding: bytes.prefix(512), as: UTF8.self)
        if head.contains("<svg") { return "svg" }
        return nil
    }
}
