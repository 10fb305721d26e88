/// The supported languages by name, found by name or alias ignoring case; each one's tables are
/// built when a code block first asks for it (building all 24 took 1.5 ms of a one-post rebuild
/// whose post had a single code block).
///
///     LanguageRegistry.language(named: "JS")  // the JavaScript tables
enum LanguageRegistry {
    struct Entry: Sendable {
        let name: String
        /// Lowercase names it answers to, the first being its main one.
        let aliases: [String]
        /// A `static let`, so built once, on first use.
        let tables: @Sendable () -> SyntaxLanguage
    }

    /// In the order `lectern highlight --languages` lists them.
    static let all: [Entry] = [
        Entry(name: "Swift", aliases: ["swift"]) { .swift },
        Entry(name: "Rust", aliases: ["rust", "rs"]) { .rust },
        Entry(name: "Go", aliases: ["go", "golang"]) { .go },
        Entry(name: "C", aliases: ["c", "h"]) { .c },
        Entry(name: "C++", aliases: ["c++", "cpp", "cc", "cxx", "hpp", "hh", "hxx"]) { .cpp },
        Entry(name: "Objective-C", aliases: ["objective-c", "objc", "objectivec", "obj-c", "m", "mm"]) { .objectiveC },
        Entry(name: "JavaScript", aliases: ["javascript", "js", "jsx", "mjs", "cjs"]) { .javaScript },
        Entry(name: "TypeScript", aliases: ["typescript", "ts", "tsx", "mts", "cts"]) { .typeScript },
        Entry(name: "Python", aliases: ["python", "py", "python3", "py3"]) { .python },
        Entry(name: "Ruby", aliases: ["ruby", "rb"]) { .ruby },
        Entry(name: "Elixir", aliases: ["elixir", "ex", "exs"]) { .elixir },
        Entry(name: "Kotlin", aliases: ["kotlin", "kt", "kts"]) { .kotlin },
        Entry(name: "Java", aliases: ["java"]) { .java },
        Entry(name: "Shell", aliases: ["shell", "sh", "bash", "zsh", "ksh"]) { .shell },
        Entry(name: "Console", aliases: ["console", "shell-session", "sh-session"]) { .console },
        Entry(name: "JSON", aliases: ["json", "jsonc", "json5"]) { .json },
        Entry(name: "YAML", aliases: ["yaml", "yml"]) { .yaml },
        Entry(name: "TOML", aliases: ["toml"]) { .toml },
        Entry(name: "HTML", aliases: ["html", "htm", "xml", "xhtml", "svg", "xsl", "rss", "atom", "plist"]) { .html },
        Entry(name: "CSS", aliases: ["css", "scss", "less"]) { .css },
        Entry(name: "SQL", aliases: ["sql", "sqlite", "postgresql", "postgres", "psql", "mysql", "plsql"]) { .sql },
        Entry(name: "Diff", aliases: ["diff", "patch", "udiff"]) { .diff },
        Entry(name: "Markdown", aliases: ["markdown", "md", "mkd", "mdown"]) { .markdown },
        Entry(name: "Plain text", aliases: ["text", "txt", "plain", "plaintext"]) { .plainText },
    ]

    private static let byName: [String: Entry] = {
        var names: [String: Entry] = [:]
        for entry in all {
            names[entry.name.lowercased()] = entry
            for alias in entry.aliases { names[alias] = entry }
        }
        return names
    }()

    static func entry(named name: String) -> Entry? {
        byName[name.lowercased()]
    }

    static func language(named name: String) -> SyntaxLanguage? {
        entry(named: name)?.tables()
    }
}
