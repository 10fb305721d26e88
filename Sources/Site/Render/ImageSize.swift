import Foundation

/// The pixel size of an image file, read from its header (PNG, GIF, JPEG, WebP) or its root
/// element (SVG): enough to give `<img>` its `width` and `height`, so pages do not jump as
/// images arrive. Nothing is decoded; an unknown or damaged file has no size.
enum ImageSize {
    static func of(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data.prefix(64 * 1024))
        func be16(_ i: Int) -> Int { i + 1 < bytes.count ? Int(bytes[i]) << 8 | Int(bytes[i + 1]) : 0 }
        func le16(_ i: Int) -> Int { i + 1 < bytes.count ? Int(bytes[i + 1]) << 8 | Int(bytes[i]) : 0 }
        func be32(_ i: Int) -> Int { i + 3 < bytes.count ? be16(i) << 16 | be16(i + 2) : 0 }
        func le24(_ i: Int) -> Int { i + 2 < bytes.count ? Int(bytes[i + 2]) << 16 | le16(i) : 0 }
        func ascii(_ i: Int, _ count: Int) -> String {
            i + count <= bytes.count ? String(decoding: bytes[i..<(i + count)], as: UTF8.self) : ""
        }
        let size: (Int, Int)?
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) && ascii(12, 4) == "IHDR" {
            size = (be32(16), be32(20))
        } else if ascii(0, 6) == "GIF87a" || ascii(0, 6) == "GIF89a" {
            size = (le16(6), le16(8))
        } else if bytes.starts(with: [0xFF, 0xD8]) {
            size = jpeg(bytes, be16)
        } else if ascii(0, 4) == "RIFF" && ascii(8, 4) == "WEBP" {
            switch ascii(12, 4) {
            case "VP8 ": size = (le16(26) & 0x3FFF, le16(28) & 0x3FFF)
            case "VP8L" where bytes.count > 25:
                let (b1, b2, b3, b4) = (Int(bytes[21]), Int(bytes[22]), Int(bytes[23]), Int(bytes[24]))
                size = (1 + (b1 | (b2 & 0x3F) << 8), 1 + (b2 >> 6 | b3 << 2 | (b4 & 0x0F) << 10))
            case "VP8X": size = (1 + le24(24), 1 + le24(27))
            default: size = nil
            }
        } else {
            size = svg(String(decoding: bytes, as: UTF8.self))
        }
        guard let (width, height) = size, width > 0, height > 0, width < 100_000, height < 100_000 else { return nil }
        return (width, height)
    }

    /// The first start-of-frame segment's size (SOF0–SOF15 but DHT, JPG and DAC).
    private static func jpeg(_ bytes: [UInt8], _ be16: (Int) -> Int) -> (Int, Int)? {
        var i = 2
        while i + 9 < bytes.count {
            guard bytes[i] == 0xFF else { return nil }
            let marker = bytes[i + 1]
            if marker == 0xFF { i += 1; continue }
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                return (be16(i + 7), be16(i + 5))
            }
            i += 2 + be16(i + 2)
        }
        return nil
    }

    /// `width`/`height` in pixels on the root `<svg>`, else its `viewBox`.
    private static func svg(_ text: String) -> (Int, Int)? {
        guard let start = text.range(of: "<svg"), let end = text[start.upperBound...].firstIndex(of: ">") else { return nil }
        let tag = String(text[start.upperBound..<end])
        func attribute(_ name: String) -> String? {
            guard let range = tag.range(of: " \(name)=\""), let close = tag[range.upperBound...].firstIndex(of: "\"") else { return nil }
            return String(tag[range.upperBound..<close])
        }
        func pixels(_ value: String?) -> Int? {
            guard var value = value?.trimmingCharacters(in: .whitespaces) else { return nil }
            if value.hasSuffix("px") { value.removeLast(2) }
            return Double(value).map { Int($0.rounded()) }
        }
        if let width = pixels(attribute("width")), let height = pixels(attribute("height")) { return (width, height) }
        let box = attribute("viewBox")?.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Double($0) } ?? []
        return box.count == 4 ? (Int(box[2].rounded()), Int(box[3].rounded())) : nil
    }
}
