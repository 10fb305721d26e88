import Foundation
@testable import HTMLMarkup
import Testing
@testable import Site

/// Inputs the fuzzers (Fuzz/, docs/fuzzing.md) found, fed to the same functions exactly as the
/// fuzz target did; each broke a property the target asserts before its fix.
@Suite struct SiteFuzzRegressionTests {
    /// fuzz-sanitizer: a heading (written as `<p><strong>`, two elements) counted as one level
    /// against `maximumDepth`, so the output nested one level deeper than the limit and
    /// sanitizing it again dropped a tag: the output was not stable. Minimized input.
    @Test func headingDeepInNestingKeepsTheOutputStable() {
        let input = "<del><h1><a><i><i><a><i><i><a><i><i><a><i><i><i><a><i><i><a><i><i><a><i><i><a><i><i><a><i><i><a><i"
        let output = HTMLSanitizer.sanitize(input)
        #expect(HTMLSanitizer.sanitize(output) == output)
        var depth = 0, deepest = 0
        for token in HTMLTokenizer(output, options: .sanitizer) {
            switch token {
            case .startTag(let name, _, _) where name != "br": depth += 1; deepest = max(deepest, depth)
            case .endTag: depth -= 1
            default: break
            }
        }
        #expect(deepest <= HTMLSanitizer.maximumDepth)
    }

    /// The same at every depth, with every heading level.
    @Test(arguments: 1...6) func headingsAtTheDepthLimitAreStable(level: Int) {
        for outer in 28...34 {
            let input = String(repeating: "<span>", count: outer) + "<h\(level)>t</h\(level)><em>x</em>"
            let output = HTMLSanitizer.sanitize(input)
            #expect(HTMLSanitizer.sanitize(output) == output, "\(outer) spans")
        }
    }
}
