import Foundation
import Testing
@testable import Site

/// The byte-level labelling against Foundation's `replacingOccurrences`, the reference it
/// replaced, on pages built from pieces that include both checkboxes, near-misses and non-ASCII.
@Suite struct TaskListLabelsTests {
    static let pieces = [
        #"<input type="checkbox" checked="" disabled="" />"#, #"<input type="checkbox" disabled="" />"#,
        #"<input type="checkbox" disabled=""/>"#, #"<input type="checkbox" "#, "<", "<li>", " todo</li>\n", "é", "👩‍💻",
        "<<", #"<input type="text" />"#, "",
    ]

    static func reference(_ html: String) -> String {
        html.replacingOccurrences(of: #"<input type="checkbox" checked="" disabled="" />"#,
                                  with: #"<input type="checkbox" checked="" disabled="" aria-label="Done" />"#)
            .replacingOccurrences(of: #"<input type="checkbox" disabled="" />"#,
                                  with: #"<input type="checkbox" disabled="" aria-label="Not done" />"#)
    }

    @Test func agreesWithFoundationsReplacement() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let html = (0..<Int.random(in: 0...12, using: &generator))
                .map { _ in Self.pieces.randomElement(using: &generator)! }.joined()
            #expect(TaskListLabels.label(html) == Self.reference(html), "\(html)")
        }
    }

    @Test func aPageWithoutTasksIsReturnedAsItIs() {
        let html = "<p>No tasks here, <em>é</em>.</p>"
        #expect(TaskListLabels.label(html) == html)
        #expect(TaskListLabels.label(#"<input type="checkbox" disabled="" />x"#) == #"<input type="checkbox" disabled="" aria-label="Not done" />x"#)
    }
}
