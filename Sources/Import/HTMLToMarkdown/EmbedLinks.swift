import HTMLMarkup

/// Turns embeds in imported HTML into links a reader can follow (`Embeds`): `<iframe>` players,
/// gist `<script>`s, WordPress's embed blocks, and Medium's feed frames (`<iframe src="">` with
/// the media link inside, which otherwise left an empty frame where a gist's code had been).
/// Returns one report line for each.
enum EmbedLinks {
    static func replace(in element: HTMLNode) -> [String] {
        var warnings: [String] = []
        var index = 0
        while index < element.children.count {
            let child = element.children[index]
            guard child.isElement else { index += 1; continue }
            if let replacement = self.replacement(for: child, warnings: &warnings) {
                element.children.replaceSubrange(index...index, with: replacement)
                index += replacement.count
            } else {
                warnings += replace(in: child)
                index += 1
            }
        }
        return warnings
    }

    /// What stands for `element`: nil to keep it (and look inside), [] to remove it.
    private static func replacement(for element: HTMLNode, warnings: inout [String]) -> [HTMLNode]? {
        switch element.name {
        case "iframe", "embed":
            let source = element.attribute("src") ?? element.attribute("data-src") ?? ""
            let fallback = element.descendants().first { $0.name == "a" }?.attribute("href")
            guard let link = Embeds.link(for: source) ?? fallback.flatMap(Embeds.link(for:)) else {
                warnings.append("an empty <\(element.name)> (no address to link to) was removed")
                return []
            }
            warnings.append(Embeds.warning("<\(element.name)> \(source.isEmpty ? fallback ?? "" : source)", became: link))
            return paragraph(link)
        case "script":
            guard let source = element.attribute("src") else { return nil }
            if source.contains("gist.github.com/"), let link = Embeds.link(for: source) {
                warnings.append(Embeds.warning("gist script \(source)", became: link))
                return paragraph(link)
            }
            // Widget loaders (platform.twitter.com/widgets.js, embed.js): the quote they decorate stays.
            warnings.append("script \(source) removed")
            return []
        case "figure" where !element.classes.contains("wp-block-embed")
                && !element.descendants().contains { $0.name == "img" } && element.descendants().contains { $0.name == "iframe" }:
            // A figure around a player (Medium's feeds): the link, then its caption as a paragraph.
            let frame = element.descendants().first { $0.name == "iframe" }!
            let caption = element.descendants().first { $0.name == "figcaption" }
            let paragraph = caption.map { [HTMLNode(.element("p"), children: $0.children)] } ?? []
            return (replacement(for: frame, warnings: &warnings) ?? []) + paragraph
        case "figure" where element.classes.contains("wp-block-embed"):
            let url = element.text().split(whereSeparator: \.isWhitespace).first.map(String.init) ?? ""
            guard let link = Embeds.link(for: url) else { return nil }
            warnings.append(Embeds.warning("WordPress embed block \(url)", became: link))
            return paragraph(link)
        default:
            return nil
        }
    }

    private static func paragraph(_ link: Embeds.Link) -> [HTMLNode] {
        let anchor = HTMLNode(.element("a"), attributes: [HTMLAttribute(name: "href", value: link.url)],
                              children: [HTMLNode(.text(link.label))])
        return [HTMLNode(.element("p"), children: [anchor])]
    }
}
