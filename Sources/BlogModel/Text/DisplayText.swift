/// Names and handles from other servers, cleaned for display: an attacker's display name must
/// not reorder the text around it (bidi overrides), hide characters, stack hundreds of
/// combining marks, or run for pages. Cleaning never drops the value entirely.
///
/// ```swift
/// DisplayText.name("Eve\u{202E}gnp.exe")   // "Evegnp.exe"
/// DisplayText.username("Eve Smith!")       // "Eve_Smith"
/// ```
public enum DisplayText {
    /// Display names are cut at this many characters (Mastodon allows 30; others more).
    public static let nameLimit = 100
    /// Combining marks kept on one base character (real scripts need a few, Zalgo needs many).
    static let combiningLimit = 4

    public static func name(_ raw: String, limit: Int = nameLimit) -> String {
        var output = String.UnicodeScalarView()
        var combining = 0
        var lastWasSpace = true
        var characters = 0
        for scalar in raw.unicodeScalars {
            if isInvisible(scalar) { continue }
            if scalar.properties.isWhitespace || scalar.properties.generalCategory == .control {
                if !lastWasSpace { output.append(" ") }
                lastWasSpace = true
                combining = 0
                continue
            }
            if scalar.properties.generalCategory == .nonspacingMark || scalar.properties.generalCategory == .enclosingMark {
                combining += 1
                if combining > combiningLimit { continue }
            } else {
                combining = 0
                characters += 1
                if characters > limit { break }
            }
            output.append(scalar)
            lastWasSpace = false
        }
        var text = String(output)
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }

    /// A `preferredUsername` as the user part of `@user@host`: letters, digits, `_`, `.` and
    /// `-` kept, spaces become `_`, anything else goes; never empty.
    public static func username(_ raw: String) -> String {
        var output = String.UnicodeScalarView()
        for scalar in name(raw, limit: 64).unicodeScalars {
            if scalar == " " { output.append("_") }
            else if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_.-".unicodeScalars.contains(scalar) {
                output.append(scalar)
            }
        }
        return output.isEmpty ? "user" : String(output)
    }

    /// Bidirectional controls and other zero-width format characters. Joiners (U+200C, U+200D)
    /// stay: emoji sequences and several scripts need them.
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value == 0x200C || scalar.value == 0x200D { return false }
        return scalar.properties.generalCategory == .format
    }
}
