extension SyntaxLanguage {
    /// SQL (ANSI with common PostgreSQL, SQLite and MySQL pieces): case-insensitive keywords,
    /// `--` and `/* */` comments, `'…'` strings with doubled `''`, `"quoted"` and `` `quoted` ``
    /// identifiers, `$$…$$` bodies, `:name`/`@name`/`$1` parameters.
    static let sql = SyntaxLanguage(
        rules: [
            .lineComment("--"),
            .blockComment("/*", "*/"),
            .string(StringSyntax("'", escapes: .none, literalEscapes: ["''"], multiline: true)),
            .string(StringSyntax("'", multiline: true), prefixes: ["E", "e"]),
            .string(StringSyntax("\"", cls: .plain, escapes: .none, literalEscapes: ["\"\""])),
            .string(StringSyntax("`", cls: .plain, escapes: .none)),
            .string(StringSyntax("$$", escapes: .none, multiline: true)),
            .sigil([":", "@", "$"], .variable, when: .wordStart),
        ],
        keywords: """
            add all alter and any as asc autoincrement begin between by cascade case check collate column commit \
            constraint create cross current_date current_time current_timestamp database default deferrable \
            delete desc distinct do drop each else end escape except exists explain fetch for foreign from full \
            function glob grant group having if ignore in index inner insert instead intersect into is join key \
            language left like limit materialized natural not nothing notnull offset on or order outer over \
            partition pragma primary procedure recursive references rename replace returning returns revoke right \
            rollback row rows savepoint schema select set table temp temporary then to transaction trigger \
            truncate union unique update using vacuum values view virtual when where window with without
            """,
        types: """
            bigint binary bit blob boolean bool char character date datetime decimal double float int integer \
            interval json jsonb numeric real serial bigserial smallint text time timestamp timestamptz tinyint \
            uuid varchar varying
            """,
        literals: "null true false",
        foldCase: true,
        operators: "+-*/%=<>!|&~^",
        conventions: WordConventions(capitalized: .plain))
}
