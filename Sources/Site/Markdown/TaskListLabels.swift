import Foundation

/// cmark-gfm writes a task's checkbox without a label (`<input type="checkbox" disabled="" />`),
/// so a screen reader announces "checkbox, not checked" with nothing to say what it is. Each
/// gets an `aria-label` stating its state in words; the task's text follows it as before.
enum TaskListLabels {
    static let checked = #"<input type="checkbox" checked="" disabled="" />"#
    static let unchecked = #"<input type="checkbox" disabled="" />"#

    static func label(_ html: String) -> String {
        // Most posts have no task list: one search, no copy.
        guard html.contains(#"<input type="checkbox""#) else { return html }
        return html
            .replacingOccurrences(of: checked, with: #"<input type="checkbox" checked="" disabled="" aria-label="Done" />"#)
            .replacingOccurrences(of: unchecked, with: #"<input type="checkbox" disabled="" aria-label="Not done" />"#)
    }
}
