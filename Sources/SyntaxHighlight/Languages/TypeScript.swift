extension SyntaxLanguage {
    /// TypeScript: JavaScript plus its declarations (`interface`, `type`, `enum`), modifiers and
    /// built-in types.
    static let typeScript = ecmaScript(
        keywords: "abstract asserts declare implements infer is keyof readonly satisfies private protected public unique",
        typeKeywords: "interface type enum namespace module",
        types: "any bigint boolean never number object string symbol unknown void")
}
