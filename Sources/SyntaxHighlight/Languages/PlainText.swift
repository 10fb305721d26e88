extension SyntaxLanguage {
    /// Text without highlighting, so a fence marked `text` still gets escaping and line numbers.
    static let plainText = markup()
}
