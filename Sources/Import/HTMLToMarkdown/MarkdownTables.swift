import HTMLMarkup

/// GFM tables: a header row, inline cells, no merged cells; other tables stay HTML.
extension MarkdownConverter {
    func table(_ table: HTMLNode) -> MarkdownBlock {
        var rows: [(cells: [HTMLNode], inHead: Bool)] = []
        var hasCaption = false
        for child in table.elementChildren {
            switch child.name {
            case "tr": rows.append((child.elementChildren.filter { $0.name == "td" || $0.name == "th" }, false))
            case "thead", "tbody", "tfoot":
                for row in child.elementChildren where row.name == "tr" {
                    rows.append((row.elementChildren.filter { $0.name == "td" || $0.name == "th" }, child.name == "thead"))
                }
            case "caption": hasCaption = true
            default: break
            }
        }
        guard !hasCaption, let header = rows.first, !header.cells.isEmpty,
              header.inHead || header.cells.allSatisfy({ $0.name == "th" }),
              rows.dropFirst().allSatisfy({ !$0.inHead }),
              rows.allSatisfy({ $0.cells.allSatisfy(isSimpleCell) }) else {
            return rawBlock(table)
        }
        let columns = rows.map(\.cells.count).max() ?? 0
        func render(_ cells: [HTMLNode]) -> String {
            var texts = cells.map(cellText)
            while texts.count < columns { texts.append("") }
            return "| " + texts.map { $0.isEmpty ? " " : $0 }.joined(separator: " | ") + " |"
        }
        var lines = [render(header.cells)]
        var alignments: [String] = []
        for index in 0..<columns {
            let cell = index < header.cells.count ? header.cells[index] : nil
            let style = (cell?.attribute("style") ?? "").replacingOccurrences(of: " ", with: "").lowercased()
            let align = cell?.attribute("align")?.lowercased()
                ?? (style.contains("text-align:center") ? "center" : style.contains("text-align:right") ? "right"
                    : style.contains("text-align:left") ? "left" : nil)
            alignments.append(align == "center" ? ":---:" : align == "right" ? "---:" : align == "left" ? ":---" : "---")
        }
        lines.append("| " + alignments.joined(separator: " | ") + " |")
        for row in rows.dropFirst() { lines.append(render(row.cells)) }
        return MarkdownBlock(text: lines.joined(separator: "\n"), kind: .table)
    }

    /// A cell converts to a GFM cell when it spans one column and row and holds inline content
    /// (or a single paragraph of it).
    func isSimpleCell(_ cell: HTMLNode) -> Bool {
        for name in ["colspan", "rowspan"] {
            if let value = cell.attribute(name), (Int(value) ?? 1) > 1 { return false }
        }
        let elements = cell.elementChildren
        if elements.count == 1, elements[0].name == "p" { return !elements[0].descendants().contains(where: isBlock) }
        return !elements.contains(where: isBlock)
    }

    func cellText(_ cell: HTMLNode) -> String {
        var writer = InlineWriter(inTable: true)
        var context = InlineContext()
        context.inTable = true
        let elements = cell.elementChildren
        let nodes = elements.count == 1 && elements[0].name == "p" ? elements[0].children : cell.children
        inline(nodes, into: &writer, next: nil, context: context)
        return writer.finish().text
    }
}
