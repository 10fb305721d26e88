/// What a highlighted token is. Each case but `plain` becomes one `hl-…` CSS class, so the
/// set is fixed and small: themes style these names and nothing else.
enum TokenClass: UInt8, Sendable, CaseIterable {
    case plain, keyword, type, string, number, comment, function, attribute, `operator`, punctuation
    case variable, literal, escape, substitution, regex, meta, tag, heading, inserted, deleted, key

    /// The CSS class suffix, `kw` for `hl-kw`; plain text gets no span at all.
    var cssName: String {
        switch self {
        case .plain: ""
        case .keyword: "kw"
        case .type: "ty"
        case .string: "str"
        case .number: "num"
        case .comment: "com"
        case .function: "fn"
        case .attribute: "attr"
        case .operator: "op"
        case .punctuation: "pun"
        case .variable: "var"
        case .literal: "lit"
        case .escape: "esc"
        case .substitution: "sub"
        case .regex: "re"
        case .meta: "meta"
        case .tag: "tag"
        case .heading: "head"
        case .inserted: "ins"
        case .deleted: "del"
        case .key: "key"
        }
    }
}
