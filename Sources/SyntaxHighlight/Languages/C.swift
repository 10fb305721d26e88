extension SyntaxLanguage {
    /// C: `#directives` (with `<header.h>` after `#include`), `L"…"`/`u8"…"` strings and character
    /// constants, integer and float suffixes (`10UL`, `1.5f`), hex floats.
    static let c = SyntaxLanguage(
        rules: CFamily.rules(),
        keywords: CFamily.keywords,
        typeKeywords: CFamily.typeKeywords,
        types: CFamily.types,
        literals: CFamily.literals)
}

/// What C, C++ and Objective-C share.
enum CFamily {
    static let keywords = """
        auto break case const continue default do else extern for goto if inline register restrict return \
        sizeof static switch typedef volatile while alignas alignof static_assert thread_local _Alignas \
        _Alignof _Atomic _Generic _Noreturn _Static_assert _Thread_local
        """
    static let typeKeywords = "enum struct union"
    static let types = """
        bool char double float int long short signed unsigned void _Bool _Complex size_t ssize_t ptrdiff_t \
        intptr_t uintptr_t int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t wchar_t char8_t \
        char16_t char32_t FILE
        """
    static let literals = "true false NULL nullptr"

    /// Comments, directives, include paths, strings and characters with their encoding prefixes;
    /// `extra` rules (a language's own) go after the directives, before the strings.
    static func rules(_ extra: [LexRule] = []) -> [LexRule] {
        let encodings = ["", "L", "u8", "u", "U"]
        return LexRule.slashComments + [
            .sigil(["#"], .meta, when: .lineStart),
            .string(StringSyntax("<", ">", escapes: .none), when: .afterMeta),
        ] + extra + [
            .string(.doubleQuoted, prefixes: encodings),
            .string(.singleQuoted, prefixes: encodings),
        ]
    }
}
