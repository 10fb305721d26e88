import BlogModel
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
                      body: "![A dot](/images/dot.png)\n\n![Remote](https://elsewhere.example/x.png)\n")
        try site.build()
        let page = try site.read("2025/pictures/index.html")
        #expect(page.contains(#"<img src="/images/dot.png" alt="A dot" width="3" height="2" loading="lazy" decoding="async" />"#), "\(page)")
        #expect(page.contains(#"<img src="https://elsewhere.example/x.png" alt="Remote" loading="lazy" decoding="async" />"#))
    }

    @Test func aMissingLocalImageStopsTheBuildNamingPostAndLine() throws {
        let site = try TestSite()
        defer { site.remove() }
        try site.post("fine", title: "Fine", date: "2025-01-01")
        try site.build()
        let before = try site.read("index.html")
        // Front matter is lines 1–4, a blank line, then the body: the image is on file line 8.
        try site.post("pictures", title: "Pictures", date: "2025-01-02", body: "Intro.\n\n![Gone](/images/missing.png)\n")
        #expect(throws: SiteError.source(file: "content/posts/pictures.md", line: 8,
                                         message: "image '/images/missing.png' not found: put it under static/ or, for a post, "
                                             + "beside its index.md (content/posts/<name>/index.md)")) { try site.build() }
        #expect(try site.read("index.html") == before, "a failed build leaves the live site as it was")
        // A relative image in a plain post resolves against the post's URL, and is missing too.
        try site.post("pictures", title: "Pictures", date: "2025-01-02", body: "![Diagram](diagram.png)\n")
        #expect(throws: SiteError.self) { try site.build() }
    }

    @Test func imagesWithoutAltTextAreWarnings() throws {
        let site = try TestSite()
        defer { site.remove() }
        try FileManager.default.createDirectory(at: site.root.appendingPathComponent("static"), withIntermediateDirectories: true)
        try Self.png(width: 1, height: 1).write(to: site.root.appendingPathComponent("static/dot.png"))
        try site.post("bare", title: "Bare", date: "2025-01-01", body: "![](/dot.png)\n\n![Described](/dot.png)\n")
        let report = try site.build()
        #expect(report.warnings == ["content/posts/bare.md:6: image '/dot.png' has no alt text; describe it for readers "
                                    + "who cannot see it: ![what it shows](…)"])
    }

    /// A post without an image or an update date has no empty `og:image` or `modified_time` tag
    /// (an empty string is truthy in Mustache: the context leaves the value out instead).
    @Test func absentImageAndUpdateLeaveNoEmptyMetaTags() throws {
        let site = try TestSite()
        defer { site.remove() }
        try site.post("plain", title: "Plain", date: "2025-01-01")
        try site.post("updated", title: "Updated", date: "2025-01-02", extra: "updated: 2025-02-01\n")
        try site.build()
        let plain = try site.read("2025/plain/index.html")
        #expect(!plain.contains("og:image") && !plain.contains("twitter:card") && !plain.contains("modified_time"), "\(plain)")
        #expect(plain.contains(#"<meta property="article:published_time" content="2025-01-01T"#))
        let updated = try site.read("2025/updated/index.html")
        #expect(updated.contains(#"<meta property="article:modified_time" content="2025-02-01T"#), "\(updated)")
    }

    @Test func pageBundlesPublishTheirFilesBesideThePost() throws {
        let site = try TestSite()
        defer { site.remove() }
        try site.post("my-post/index", title: "Bundled", date: "2025-03-04",
                      extra: "image: cover.png\n",
                      body: "![A diagram](diagram.png)\n\n[The data](files/data.csv) and [home](../../../)\n")
        try Self.png(width: 40, height: 30).write(to: site.root.appendingPathComponent("content/posts/my-post/diagram.png"))
        try site.write("content/posts/my-post/files/data.csv", "a,b\n1,2\n")
        try Self.png(width: 1200, height: 630).write(to: site.root.appendingPathComponent("content/posts/my-post/cover.png"))
        try site.write("content/posts/my-post/notes.md", "---\ntitle: Not a post\n---\nA resource, not a page.\n")
        let report = try site.build()
        #expect(report.warnings.isEmpty, "\(report.warnings)")
        let page = try site.read("2025/bundled/index.html")
        #expect(page.contains(#"<img src="/2025/bundled/diagram.png" alt="A diagram" width="40" height="30""#), "\(page)")
        #expect(page.contains(#"href="/2025/bundled/files/data.csv""#))
        #expect(page.contains(#"href="/""#), "relative links leave the post's folder as browsers would")
        #expect(site.exists("2025/bundled/diagram.png"))
        #expect(page.contains(#"<meta property="og:image" content="https://blog.example/2025/bundled/cover.png">"#),
                "a relative front matter image is the bundle's")
        #expect(try site.read("2025/bundled/files/data.csv") == "a,b\n1,2\n")
        #expect(!site.exists("2025/bundled/notes.md") && !site.exists("2025/not-a-post/index.html"),
                "other Markdown in a bundle is neither copied nor a post")
        let feed = try site.read("feed.xml")
        #expect(feed.contains("https://blog.example/2025/bundled/diagram.png"), "feeds carry the image's absolute URL")
        // The slug of a bundle without a usable title comes from its folder.
        try site.post("second-bundle/index", title: "???", date: "2025-03-05")
        try site.build()
        #expect(site.exists("2025/second-bundle/index.html"))
    }
}
