/// A post's body as the fediverse gets it (rendered for federation: no heading self-links, no
/// highlighting classes), and its excerpt. The renderer makes it (`MarkdownRenderer.federatedBody`);
/// the protocol side is handed the function and never imports the renderer.
public struct FederatedBody: Sendable, Equatable {
    public var html: String
    /// The text before `<!-- more -->`, else the first paragraph.
    public var excerptHTML: String

    public init(html: String, excerptHTML: String) { (self.html, self.excerptHTML) = (html, excerptHTML) }

    /// Markdown in, body out.
    public typealias Renderer = @Sendable (_ markdown: String) -> FederatedBody
}
