import Mustache

/// HTML escaping by Unicode scalar (in fact by UTF-8 byte: the five characters that matter are
/// ASCII, and ASCII bytes never occur inside a multi-byte sequence).
///
/// swift-mustache escapes by `Character`, and a quote followed by a combining mark (U+0301) is
/// one `Character` that is not `"`: `{{avatar}}` then ends the `src="…"` attribute early and
/// whatever follows becomes attributes of the element (`onerror=…`). Every theme template,
/// embedded or overridden, is rendered with this content type instead (see `Theme.load`).
struct ScalarHTMLContentType: MustacheContentType {
    static let name = "LECTERN_HTML"
    /// The pragma put in front of every template.
    static let pragma = "{{% CONTENT_TYPE: \(name) }}"
    /// Registered once, before the first template is parsed (the registry is a global).
    static let registered: Bool = {
        MustacheContentTypes.register(ScalarHTMLContentType(), named: name)
        return true
    }()

    func escapeText(_ text: String) -> String { HTMLText.escape(text) }
}
