import Foundation
import Testing
@testable import Site

/// Image sizes from file headers, and what the pages' `<img>` get.
@Suite struct ImageTests {
    static func png(width: UInt32, height: UInt32) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        for value in [width, height] { bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        return Data(bytes + [8, 6, 0, 0, 0, 0, 0, 0, 0])
    }

    static func size(_ data: Data) -> [Int]? { ImageSize.of(data).map { [$0.width, $0.height] } }

    @Test func headersOfEachFormat() {
        #expect(Self.size(Self.png(width: 640, height: 480)) == [640, 480])
        #expect(Self.size(Data(Array("GIF89a".utf8) + [0x20, 0x03, 0x58, 0x02, 0, 0])) == [800, 600])
        // JPEG: SOI, an APP0 segment, then SOF0 with height 300 and width 400.
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x00, 0x00, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x01, 0x2C, 0x01, 0x90, 0x03, 0, 0, 0, 0]
        #expect(Self.size(Data(jpeg)) == [400, 300])
        // WebP VP8X: canvas 1024×768 stored minus one, little-endian, 24 bits.
        var webp = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8X".utf8) + [10, 0, 0, 0, 0, 0, 0, 0]
        webp += [0xFF, 0x03, 0x00, 0xFF, 0x02, 0x00]
        #expect(Self.size(Data(webp)) == [1024, 768])
        #expect(Self.size(Data(#"<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="120px" height="40">"#.utf8)) == [120, 40])
        #expect(Self.size(Data(#"<svg viewBox="0 0 300 150" xmlns="http://www.w3.org/2000/svg">"#.utf8)) == [300, 150])
        #expect(ImageSize.of(Data("not an image".utf8)) == nil)
        #expect(ImageSize.of(Data([0xFF, 0xD8, 0xFF])) == nil, "a cut-off JPEG has no size, and no crash")
    }

    @Test func pageImagesGetSizesAndLoadingHints() throws {
        let site = try TestSite()
        defer { site.remove() }
        try FileManager.default.createDirectory(at: site.root.appendingPathComponent("static/images"), withIntermediateDirectories: true)
        try Self.png(width: 3, height: 2).write(to: site.root.appendingPathComponent("static/images/dot.png"))
        try site.post("pictures", title: "Pictures", date: "2025-01-01",
                      body: "![A dot](/images/dot.png)\n\n![Remote](https://elsewhere.example/x.png)\n\n![Gone](/images/missing.png)\n")
        try site.build()
        let page = try site.read("2025/pictures/index.html")
        #expect(page.contains(#"<img src="/images/dot.png" alt="A dot" width="3" height="2" loading="lazy" decoding="async" />"#), "\(page)")
        #expect(page.contains(#"<img src="https://elsewhere.example/x.png" alt="Remote" loading="lazy" decoding="async" />"#))
        #expect(page.contains(#"alt="Gone" loading="lazy""#))
    }
}
