/// One way a token can start: where it may (`condition`), how it begins (`prefixes`, or `triggers`
/// for rules that look at the first byte themselves) and what to do (`action`).
/// A language lists its rules in priority order; the lexer tries those whose trigger is the
/// current byte before falling back to words, numbers, operators and punctuation.
///
///     .lineComment("//"), .blockComment("/*", "*/", nests: true), .string(.doubleQuoted)
///
/// A class, so that trying a rule in the hot loop passes a pointer, not a copy of its arrays.
final class LexRule: Sendable {
    let prefixes: [[UInt8]]
    let longestPrefix: Int
    /// The first bytes the rule can match at; the lexer's dispatch table is built from these.
    let triggers: ByteSet
    let condition: RuleCondition
    let action: RuleAction

    init(_ prefixes: [String], when condition: RuleCondition = .always, _ action: RuleAction, triggers: ByteSet? = nil) {
        self.prefixes = prefixes.map { Array($0.utf8) }
        longestPrefix = self.prefixes.map(\.count).max() ?? 0
        self.condition = condition
        self.action = action
        var first = triggers ?? ByteSet()
        for prefix in self.prefixes {
            if let byte = prefix.first { first.insert(byte) }
        }
        if case .string(let syntax) = action, self.prefixes.contains(where: \.isEmpty) {
            // An empty prefix means the string starts at its quote, or at the `#`s before it.
            first.insert(syntax.open[0])
            if syntax.hashed { first.insert(UInt8(ascii: "#")) }
        }
        self.triggers = first
    }
}

/// Where a rule may match.
enum RuleCondition: Sendable {
    case always
    /// At the very start of a line (diff lines, TOML tables).
    case column0
    /// At the start of a line, after indentation (Markdown blocks, Python decorators, `#include`).
    case lineStart
    /// At the start of the input (shebangs).
    case inputStart
    /// At the start of the input or after whitespace (`#` comments in YAML).
    case afterWhitespace
    /// At the start of the input, after whitespace, an opening bracket or a separator
    /// (`#` comments in shell, Ruby `:symbols`).
    case wordStart
    /// Where a value is expected, not an operator: JavaScript's `/regex/` against division.
    case expectsValue
    /// Right after a directive: the `<stdio.h>` of `#include <stdio.h>`.
    case afterMeta
    /// At a line start or after `{` or `,`: bare keys in TOML and JSON5.
    case keyPosition
    /// Not after a letter and not before a space: Markdown `*emphasis*` openers.
    case leftFlanking
}

/// What a rule does once it matches.
enum RuleAction: Sendable {
    /// The prefix and the rest of the line: comments, diff lines, shebangs, headings.
    case toLineEnd(TokenClass)
    /// Just the prefix: list markers, `\*` escapes.
    case prefix(TokenClass)
    /// From the prefix through `close`, maybe nested: block comments, `<!DOCTYPE …>`, `[table]`.
    case block(close: [UInt8], nests: Bool, singleLine: Bool, cls: TokenClass)
    /// A string literal; the rule's prefixes are letters before the quote (`r`, `b`, `f`, `@`).
    case string(StringSyntax)
    /// The prefix, then any punctuation as the quote, closed by its mirror: Ruby `%w[…]`,
    /// Elixir `~r/…/`. The syntax's own quotes are ignored.
    case delimited(StringSyntax)
    /// The prefix and a name: `@attribute`, `$variable`, `#directive`, `:symbol`.
    case sigil(TokenClass, name: ByteSet)
    /// A `/regex/flags` literal if one closes on this line, else nothing (it is division).
    case regex(flags: ByteSet)
    /// `<<WORD`: the lines up to `WORD` are a string, starting on the next line.
    case heredoc(HeredocSyntax)
    /// An interpolation outside strings too: shell `$(…)`, `$HOME`.
    case interpolation(Interpolation)
    /// A bare key and the spaces after it, if `separators` follows: `name = ` in TOML.
    case key(separators: ByteSet, chars: ByteSet)
    /// Anything else, for the few constructs only one language has (Markdown fences, HTML tags).
    /// Gets the length of the matched prefix; returns false, having emitted nothing, to decline.
    case custom(@Sendable (inout HighlightLexer, Int) -> Bool)
}

/// Shell and Ruby here-documents.
struct HeredocSyntax: Sendable {
    /// Letters after `<<` that allow an indented terminator (`<<-EOF`, Ruby `<<~EOS`).
    let indentFlags: ByteSet
    /// Shell allows `<< EOF`.
    let spaceBeforeWord: Bool
    /// Ruby needs a capital (or a quote) so that `x <<y` stays a shift.
    let uppercaseWord: Bool
    /// The body's syntax when the word is unquoted; quoted words give a verbatim body.
    let body: StringSyntax
}

extension LexRule {
    static func lineComment(_ prefixes: String..., when condition: RuleCondition = .always) -> LexRule {
        LexRule(prefixes, when: condition, .toLineEnd(.comment))
    }

    static func blockComment(_ open: String, _ close: String, nests: Bool = false,
                             when condition: RuleCondition = .always) -> LexRule {
        LexRule([open], when: condition, .block(close: Array(close.utf8), nests: nests, singleLine: false, cls: .comment))
    }

    static func line(_ prefixes: [String], _ cls: TokenClass, when condition: RuleCondition = .always) -> LexRule {
        LexRule(prefixes, when: condition, .toLineEnd(cls))
    }

    static func block(_ prefixes: [String], close: String, _ cls: TokenClass, singleLine: Bool = false,
                      when condition: RuleCondition = .always) -> LexRule {
        LexRule(prefixes, when: condition, .block(close: Array(close.utf8), nests: false, singleLine: singleLine, cls: cls))
    }

    static func prefix(_ prefixes: [String], _ cls: TokenClass, when condition: RuleCondition = .always) -> LexRule {
        LexRule(prefixes, when: condition, .prefix(cls))
    }

    static func string(_ syntax: StringSyntax, prefixes: [String] = [""], when condition: RuleCondition = .always) -> LexRule {
        LexRule(prefixes, when: condition, .string(syntax))
    }

    static func delimited(_ prefixes: [String], _ syntax: StringSyntax, when condition: RuleCondition = .always) -> LexRule {
        LexRule(prefixes, when: condition, .delimited(syntax))
    }

    static func sigil(_ prefixes: [String], _ cls: TokenClass, name: ByteSet = .identifierContinue,
                      when condition: RuleCondition = .always) -> LexRule {
        LexRule(prefixes, when: condition, .sigil(cls, name: name))
    }

    static func regex(flags: ByteSet = .letters) -> LexRule {
        LexRule(["/"], when: .expectsValue, .regex(flags: flags))
    }

    static func heredoc(_ syntax: HeredocSyntax) -> LexRule {
        LexRule(["<<"], .heredoc(syntax))
    }

    static func interpolation(_ interpolation: Interpolation, when condition: RuleCondition = .always) -> LexRule {
        var trigger = ByteSet()
        trigger.insert(interpolation.firstByte)
        return LexRule([], when: condition, .interpolation(interpolation), triggers: trigger)
    }

    static func key(before separators: ByteSet, chars: ByteSet) -> LexRule {
        LexRule([], when: .keyPosition, .key(separators: separators, chars: chars), triggers: chars)
    }

    static func custom(_ prefixes: [String] = [], triggers: ByteSet? = nil, when condition: RuleCondition = .always,
                       _ body: @escaping @Sendable (inout HighlightLexer, Int) -> Bool) -> LexRule {
        LexRule(prefixes, when: condition, .custom(body), triggers: triggers)
    }
}
