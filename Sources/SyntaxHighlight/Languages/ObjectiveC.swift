extension SyntaxLanguage {
    /// Objective-C: C plus `@"…"` strings, `@interface`-style keywords, `YES`/`NO`/`nil`, and
    /// `#import <…>`.
    static let objectiveC = SyntaxLanguage(
        rules: CFamily.rules([
            .string(.doubleQuoted, prefixes: ["@"]),
            .sigil(["@"], .keyword, name: .letters),
        ]),
        keywords: CFamily.keywords + " in out inout bycopy byref oneway nonnull nullable",
        typeKeywords: CFamily.typeKeywords,
        types: CFamily.types + " id BOOL SEL IMP Class instancetype NSInteger NSUInteger CGFloat",
        literals: CFamily.literals + " YES NO nil Nil self super")
}
