import BlogModel

/// A post's table of contents, from its rendered headings (`<h2 id="…">` and `<h3 id="…">`):
/// shown when the front matter says `toc: true`, or by itself for a post with four or more
/// second-level headings (`toc: false` turns it off).
enum TableOfContents {
    struct Entry: Equatable {
        var level: Int
        var id: String
        var text: String
    }

    static let automaticFrom = 4

    static func entries(_ html: String) -> [Entry] {
        var entries: [Entry] = []
        var rest = Substring(html)
        while let open = HTMLText.firstRange(of: "<h", in: rest) {
            rest = rest[open.upperBound...]
            guard let level = rest.first.flatMap({ Int(String($0)) }), level == 2 || level == 3,
                  rest.dropFirst().hasPrefix(" id=\""), let idEnd = rest.dropFirst(6).firstIndex(of: "\""),
                  let tagEnd = rest[idEnd...].firstIndex(of: ">"), let close = HTMLText.firstRange(of: "</h\(level)>", in: rest) else { continue }
            let id = String(rest[rest.index(rest.startIndex, offsetBy: 6)..<idEnd])
            let inner = HeadingAnchors.removingSelfLinks(String(rest[rest.index(after: tagEnd)..<close.lowerBound]))
            entries.append(Entry(level: level, id: id, text: HTMLText.plain(inner)))
            rest = rest[close.upperBound...]
        }
        return entries
    }

    /// The nested list, or nil when the post gets none.
    static func html(_ html: String, setting: Bool?) -> String? {
        let entries = entries(html)
        let wanted = setting ?? (entries.filter { $0.level == 2 }.count >= automaticFrom)
        guard wanted, !entries.isEmpty else { return nil }
        var out = "<ol>"
        var sublist = false
        for (index, entry) in entries.enumerated() {
            let link = "<li><a href=\"#\(HTMLText.escape(entry.id))\">\(HTMLText.escape(entry.text))</a>"
            if entry.level == 2 {
                if sublist { out += "</li></ol>"; sublist = false }
                if index > 0 { out += "</li>" }
            } else if !sublist {
                if index == 0 { out += "<li>" }  // a third-level heading before any second-level one
                out += "<ol>"
                sublist = true
            } else {
                out += "</li>"
            }
            out += link
        }
        return out + (sublist ? "</li></ol>" : "") + "</li></ol>"
    }
}
