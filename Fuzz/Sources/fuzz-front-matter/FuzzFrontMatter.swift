// libFuzzer target: Markdown sources (posts and pages) as the content loader reads them.
// Raw bytes → SourceText.decode (BOM, CR/LF) → ContentParser.post / .page, which split the YAML
// (`---`) or TOML (`+++`) front matter and read it through Yams. Thrown errors are expected;
// traps, memory errors, hangs and slowness (-timeout) are findings.
//
// Property: TOML front matter that converts (`TOMLFrontMatter.yaml`) gives YAML that Yams reads:
// the converter's output must never be a YAML syntax error.
@testable import BlogModel
import Foundation
@testable import Site

private let utc = TimeZone(identifier: "UTC")!
private let tokyo = TimeZone(identifier: "Asia/Tokyo")!

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrontMatter(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let source = SourceText.decode(Data(bytes: data, count: size)) else { return 0 }
    let file = "content/posts/fuzz.md"
    // The time zone changes how dates read; pick it from the input so both are explored.
    let parser = ContentParser(timeZone: size % 2 == 0 ? utc : tokyo)
    _ = try? parser.post(source: source, file: file)
    _ = try? parser.page(source: source, file: "content/fuzz.md")

    if let matter = try? FrontMatter.split(source, file: file) {
        do {
            _ = try YAMLFields(yaml: matter.yaml, file: file, lineOffset: matter.yamlFirstLine - 1)
        } catch let SiteError.source(_, _, message) where message.hasPrefix("invalid YAML") && isTOML(source) {
            fatalError("TOML front matter converted to invalid YAML: \(message)\n--- YAML ---\n\(matter.yaml)")
        } catch {}
    }
    return 0
}

private func isTOML(_ source: String) -> Bool {
    source.hasPrefix("+++\n") || source.hasPrefix("\u{FEFF}+++\n")
}
