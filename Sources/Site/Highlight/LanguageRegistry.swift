/// The supported languages, found by name or alias ignoring case.
///
///     LanguageRegistry.language(named: "JS")  // the JavaScript tables
enum LanguageRegistry {
    /// In the order `lectern highlight --languages` lists them.
    static let all: [SyntaxLanguage] = [
        .swift, .rust, .go, .c, .cpp, .objectiveC, .javaScript, .typeScript, .python, .ruby, .elixir, .kotlin,
        .java, .shell, .console, .json, .yaml, .toml, .html, .css, .sql, .diff, .markdown, .plainText,
    ]

    private static let byName: [String: SyntaxLanguage] = {
        var names: [String: SyntaxLanguage] = [:]
        for language in all {
            names[language.name.lowercased()] = language
            for alias in language.aliases { names[alias] = language }
        }
        return names
    }()

    static func language(named name: String) -> SyntaxLanguage? {
        byName[name.lowercased()]
    }
}
