extension SyntaxLanguage {
    /// Unified and normal diffs: `+`/`>` lines inserted, `-`/`<` lines deleted, `@@` hunk headers,
    /// `---`/`+++`/`diff`/`index` file headers. Anything else is context.
    static let diff = markup(
        rules: [
            .line(["+++ ", "--- ", "diff ", "index ", "new file", "deleted file", "similarity ", "rename "], .meta,
                  when: .column0),
            .line(["@@"], .heading, when: .column0),
            .line(["+", ">"], .inserted, when: .column0),
            .line(["-", "<"], .deleted, when: .column0),
            .line(["\\"], .comment, when: .column0),
        ])
}
