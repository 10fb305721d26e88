import Foundation
import HTMLMarkup
import Testing

/// A hostile page cannot make the microformats parser's work grow faster than the page: an
/// element's value is computed once per prefix, at most `maximumPropertiesPerElement` of its
/// property classes are read, and a document's values are bounded in number and in size.
@Suite struct MicroformatsBoundsTests {
    /// The page's items, read within `limit` (a debug build's time, with room for a machine busy
    /// with the other suites: what the bounds stop took minutes).
    func parse(_ html: String, within limit: Duration) -> [Microformats.Item] {
        let clock = ContinuousClock.now
        let items = Microformats.parse(html, base: "https://a.example/")
        let elapsed = ContinuousClock.now - clock
        #expect(elapsed < limit, "parsed in \(elapsed)")
        return items
    }

    /// One element with 50,000 `e-` classes over a 1 MiB body: read once, not once per class
    /// (before the bound: 50,000 copies of 1 MiB).
    @Test func manyPropertyClassesOnOneElementCostOneValue() {
        let classes = (0..<50_000).map { "e-a\($0)" }.joined(separator: " ")
        let filler = String(repeating: String(repeating: "x", count: 99) + "\n", count: ((1 << 20) - classes.utf8.count) / 100)
        let html = "<div class=\"h-entry\"><a href=\"https://blog.example/p/\">t</a><div class=\"e-content \(classes)\">\(filler)</div></div>"
        #expect(html.utf8.count >= 1 << 20)
        let items = parse(html, within: .seconds(5))
        let entry = items.first
        // The first 16 classes, and the implied `url` (the entry's only `<a>`).
        #expect(entry?.properties.keys.filter { $0 != "url" }.count == Microformats.maximumPropertiesPerElement)
        #expect(entry?.text("content")?.count == filler.trimmingCharacters(in: .whitespacesAndNewlines).count)
    }

    /// Nested `e-` elements each copy what is below them: 200 levels over 1 MiB would be 200 MiB
    /// of values; the document's budget stops the copies.
    @Test func deeplyNestedPropertiesStayWithinTheBudget() {
        let filler = String(repeating: "y", count: 1 << 20)
        let html = "<div class=\"h-entry\">" + String(repeating: "<div class=\"e-content p-name\">", count: 200) + filler
            + String(repeating: "</div>", count: 200) + "</div>"
        let items = parse(html, within: .seconds(15))
        let values = items.first?.properties.values.flatMap { $0 } ?? []
        let size = values.reduce(0) { total, value in
            if case .html(let html, let text) = value { return total + html.utf8.count + text.utf8.count }
            return total + value.text.utf8.count
        }
        #expect(size <= Microformats.maximumValueCharacters + 3 << 20, "\(size) characters of values")
        #expect(values.count == 400)
    }

    /// A document's property values are bounded in number.
    @Test func propertyValuesAreBoundedPerDocument() {
        let html = "<div class=\"h-entry\">" + String(repeating: "<span class=\"p-a p-b p-c p-d\">v</span>", count: 5_000) + "</div>"
        let items = Microformats.parse(html, base: "https://a.example/")
        let count = items.first?.properties.values.reduce(0) { $0 + $1.count } ?? 0
        #expect(count == Microformats.maximumPropertyValues)
    }
}

extension MicroformatsBoundsTests {
    /// Nested `p-` elements each walk what is below them for value classes: an element with
    /// 50,000 classes at the bottom of 250 of them is read for its classes once, not 250 times.
    @Test func nestedPropertiesOverAHugeClassAttributeAreFast() {
        let classes = (0..<50_000).map { "x\($0)" }.joined(separator: " ")
        let html = "<div class=\"h-entry\">" + String(repeating: "<div class=\"p-a\">", count: 250) + "<span class=\"\(classes)\">v</span>"
            + String(repeating: "</div>", count: 250) + "</div>"
        let items = parse(html, within: .seconds(5))
        #expect(items.first?.properties["a"]?.count == 250)
    }
}

extension MicroformatsBoundsTests {
    /// Nested properties each walk their subtree (value classes, text): 250 of them over 100,000
    /// empty elements are not 25 million visits.
    @Test func nestedPropertiesOverManyElementsAreFast() {
        let html = "<div class=\"h-entry\">" + String(repeating: "<div class=\"p-a\">", count: 250) + String(repeating: "<i></i>", count: 100_000)
            + String(repeating: "</div>", count: 250) + "</div>"
        let items = parse(html, within: .seconds(10))
        #expect(items.first?.properties["a"]?.count == 250)
    }
}

extension MicroformatsBoundsTests {
    /// Stray end tags under deep nesting: each looks for its element among those open, which
    /// is at most `HTMLNode.maximumDepth` of them.
    @Test func strayEndTagsUnderDeepNestingAreFast() {
        let html = String(repeating: "<div>", count: 300) + String(repeating: "</x>", count: 250_000)
        _ = parse(html, within: .seconds(10))
    }
}

extension MicroformatsBoundsTests {
    /// Nested items that are each other's properties (`h-entry e-content p-name p-summary`, 255
    /// deep over 1 MiB): each level's values would copy everything below it.
    @Test func nestedItemsAsPropertiesStayWithinTheBudget() {
        let html = "<a href=\"https://blog.example/p/\">t</a>"
            + String(repeating: "<div class=\"h-entry e-content p-name p-summary\">", count: 255)
            + String(repeating: String(repeating: "x", count: 99) + "\n", count: 10_000)
        let items = parse(html, within: .seconds(10))
        #expect(items.count == 1)
    }
}
