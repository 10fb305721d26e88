import ArgumentParser
import Foundation
import Site
import SyntaxHighlight

struct HighlightCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "highlight",
        abstract: "The languages code blocks are highlighted in at build time, or highlight a file to try it.",
        discussion: """
            In a post, name the language after the opening fence: ```swift. Hugo's options work too:
            ```swift {hl_lines=[2,3] linenos=true}

            Examples:
              lectern highlight --languages
              lectern highlight --language rust src/main.rs
            """)

    @Flag(help: "List the languages and their aliases.") var languages = false
    @Option(help: "The language of FILE (a name or alias).") var language: String?
    @Argument(help: "A file to print highlighted as HTML.") var file: String?

    func validate() throws {
        if !languages && file == nil { throw ValidationError("say --languages, or give a FILE and its --language") }
        if file != nil && language == nil { throw ValidationError("give the FILE's --language") }
    }

    func run() async throws {
        if languages {
            let rows = SyntaxHighlighter.languages.map { [$0.name, $0.aliases.joined(separator: ", ")] }
            print(Formats.table([["language", "names in a code fence"]] + rows))
            return
        }
        guard let file, let language else { return }
        try await reportingErrors {
            guard let data = FileManager.default.contents(atPath: file) else { throw CLIError("cannot read \(file)") }
            guard let html = SyntaxHighlighter.highlight(String(decoding: data, as: UTF8.self), language: language) else {
                throw CLIError("unknown language '\(language)' (see lectern highlight --languages)")
            }
            print(html, terminator: "")
        }
    }
}
