// libFuzzer target: HTMLSanitizer.sanitize, the gate every remote HTML passes before it is
// stored or shown. Traps when a property fails (as SanitizerTests.randomMarkupIsAlwaysSafeAndStable):
//  1. the output re-sanitizes to itself (stable: storing it twice changes nothing);
//  2. read back by the tokenizer, the output has only allowlisted elements, only href/class/rel
//     attributes, only allowlisted classes, and every href is one HTTPURL.parse returns unchanged.
import Foundation
@testable import HTMLMarkup
@testable import BlogModel
@testable import Site

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSanitizer(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // Remote HTML arrives inside JSON strings: any Unicode, invalid UTF-8 already replaced.
    let input = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let output = HTMLSanitizer.sanitize(input)

    for token in HTMLTokenizer(output, options: .sanitizer) {
        guard case .startTag(let name, let attributes, _) = token else { continue }
        check(HTMLSanitizer.allowedElements.contains(name), "element <\(name)> survived", input, output)
        for attribute in attributes {
            check(["href", "class", "rel"].contains(attribute.name), "attribute \(attribute.name) survived", input, output)
            switch attribute.name {
            case "href":
                check(name == "a", "href on <\(name)>", input, output)
                check(HTTPURL.parse(attribute.value) == attribute.value, "href \(attribute.value) is not a parsed HTTPURL",
                      input, output)
            case "class":
                check(attribute.value.split(separator: " ").allSatisfy { HTMLSanitizer.allowedClasses.contains(String($0)) },
                      "class \(attribute.value)", input, output)
            case "rel":
                check(name == "a" && attribute.value == HTMLSanitizer.linkRel, "rel \(attribute.value)", input, output)
            default: break
            }
        }
    }
    check(HTMLSanitizer.sanitize(output) == output, "not stable: sanitize(output) != output", input, output)
    _ = HTMLSanitizer.text(input)
    return 0
}

private func check(_ condition: Bool, _ what: @autoclosure () -> String, _ input: String, _ output: String) {
    guard !condition else { return }
    fatalError("sanitizer property failed: \(what())\ninput:  \(input.debugDescription)\noutput: \(output.debugDescription)")
}
