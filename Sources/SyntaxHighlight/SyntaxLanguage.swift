/// A language as tables for the shared lexer: rules for what starts with punctuation (comments,
/// strings, sigils), word lists for keywords, literals and types, and conventions for the rest
/// (capitalised names are types, a name before `(` is a function). One file per language in
/// `Languages/` builds one of these; `LanguageRegistry` names them.
///
///     SyntaxLanguage(rules: LexRule.slashComments + […], keywords: "break case chan …",
///                    functionKeywords: "func", literals: "true false nil")
///
/// Languages are `static let`s that live as long as the process: the lexer's frames refer to
/// them, and to the `StringSyntax`es their rules hold, without retaining them.
final class SyntaxLanguage: Sendable {
    let rules: [LexRule]
    /// For each byte `b`, the indexes of the rules it can trigger, in priority order, are
    /// `dispatch[dispatchStart[b]..<dispatchStart[b + 1]]`: one flat array, no nested ones.
    let dispatch: [UInt16]
    let dispatchStart: [Int]
    /// The bytes that trigger any rule: most bytes trigger none, and skip `dispatch`.
    let ruleTriggers: ByteSet
    let words: WordTable
    let identifier: IdentifierSyntax
    /// Nil where digits are not numbers of their own (Markdown, diff).
    let numbers: NumberSyntax?
    let operators: ByteSet
    let punctuation: ByteSet
    let conventions: WordConventions
    /// Shell-session prompts: a line starting with one is a command, any other line is output.
    let prompts: [[UInt8]]
    /// `!prompts.isEmpty`, read on every step without touching the array.
    let hasPrompts: Bool
    /// A classifier asked first for every word, for context the tables cannot express (CSS).
    let wordHook: (@Sendable (inout HighlightLexer, Int, Int) -> TokenClass?)?

    init(rules: [LexRule] = [],
         keywords: String = "", functionKeywords: String = "", typeKeywords: String = "",
         types: String = "", literals: String = "", builtins: String = "", numberWords: String = "",
         foldCase: Bool = false, identifier: IdentifierSyntax = .standard, numbers: NumberSyntax? = .standard,
         operators: ByteSet = "+-*/%=<>!&|^~?:", punctuation: ByteSet = "()[]{},;.",
         conventions: WordConventions = WordConventions(), prompts: [String] = [],
         wordHook: (@Sendable (inout HighlightLexer, Int, Int) -> TokenClass?)? = nil) {
        self.rules = rules
        var dispatch: [UInt16] = []
        var dispatchStart: [Int] = []
        for byte in 0...255 {
            dispatchStart.append(dispatch.count)
            for (index, rule) in rules.enumerated() where rule.triggers.contains(UInt8(byte)) { dispatch.append(UInt16(index)) }
        }
        dispatchStart.append(dispatch.count)
        self.dispatch = dispatch
        self.dispatchStart = dispatchStart
        ruleTriggers = rules.reduce(ByteSet()) { $0 + $1.triggers }
        words = WordTable([
            (keywords, .keyword, .plain),
            (functionKeywords, .keyword, .function),
            (typeKeywords, .keyword, .type),
            (types, .type, .plain),
            (builtins, .function, .plain),
            (numberWords, .number, .plain),
            (literals, .literal, .plain),
        ], foldCase: foldCase)
        self.identifier = identifier
        self.numbers = numbers
        self.operators = operators
        self.punctuation = punctuation
        self.conventions = conventions
        self.prompts = prompts.map { Array($0.utf8) }
        hasPrompts = !prompts.isEmpty
        self.wordHook = wordHook
    }
}

/// Which bytes make up names.
struct IdentifierSyntax: Sendable {
    var start: ByteSet = .identifierStart
    var rest: ByteSet = .identifierContinue
    /// One byte allowed to end a name: Ruby and Elixir `empty?`, `save!`.
    var trailing: ByteSet = ByteSet()

    static let standard = IdentifierSyntax()

    func adding(start: ByteSet = ByteSet(), rest: ByteSet = ByteSet(), trailing: ByteSet = ByteSet()) -> IdentifierSyntax {
        IdentifierSyntax(start: self.start + start, rest: self.rest + start + rest, trailing: self.trailing + trailing)
    }
}

/// How names that are in no word list get a class.
struct WordConventions: Sendable {
    enum Capitalized: Sendable { case plain, types, typesUnlessCalled }
    /// `String`, `HashMap`: types. Go says `typesUnlessCalled` (`fmt.Println(` is a call) or plain.
    var capitalized: Capitalized = .types
    /// `name(` is a function.
    var callsAreFunctions = true
    /// Rust `println!` is a (macro) function.
    var macroBang = false
    /// `name:` (not `name::`) gets this class: Ruby and Elixir keyword keys.
    var colonSuffix: TokenClass? = nil
    /// `NAME=` gets this class: shell assignments.
    var assignment: TokenClass? = nil
    /// The class of any other name: plain, but attribute names inside HTML tags.
    var otherwise: TokenClass = .plain
}
