import Foundation

/// What a source's path under `content/` says about it: its section and its bundle folder.
public enum ContentPaths {
    /// The section of a source path: `notes` for `content/notes/…`, nil for `content/posts/…`.
    public static func section(of sourcePath: String) -> String? {
        // On the path's bytes in place: it runs for every post of every build (splitting by
        // `Character` was 5 % of `SiteBuilder.build`'s samples; the generic `UTF8View` steps
        // 1,850 instructions a post, callgrind).
        let prefix = "content/"
        guard sourcePath.hasBytePrefix(prefix) else { return nil }
        var sourcePath = sourcePath
        return sourcePath.withUTF8 { bytes -> String? in
            let rest = UnsafeBufferPointer(rebasing: bytes[prefix.utf8.count...])
            guard let slash = rest.firstIndex(of: 0x2F), slash > rest.startIndex, slash + 1 < rest.endIndex else { return nil }
            let name = UnsafeBufferPointer(rebasing: rest[..<slash])
            guard !name.elementsEqual("posts".utf8), !name.elementsEqual("pages".utf8) else { return nil }
            return String(decoding: name, as: UTF8.self)
        }
    }

    /// The bundle folder of a source named `index.md` below a content folder (not the content
    /// folder itself), else nil.
    public static func bundleFolder(of sourcePath: String) -> String? {
        guard sourcePath.hasByteSuffix("/index.md") else { return nil }
        let folder = String(sourcePath.dropLast("/index.md".count))
        // content/<kind>/<bundle…>: at least three parts.
        return folder.split(separator: "/").count >= 3 ? folder : nil
    }
}
