import Foundation
@testable import SyntaxHighlight
import Testing

/// The highlighted HTML in a compact form, `«kw:let» x «op:=» «num:1»`, with entities decoded so
/// expectations read like the code. Escaping itself is checked on the raw HTML, below.
private func tokens(_ code: String, _ language: String) -> String {
    let html = SyntaxHighlighter.highlight(code, language: language)!
    var output = ""
    var rest = html[...]
    while let open = rest.range(of: "<span class=\"hl-") {
        output += decodeEntities(rest[..<open.lowerBound])
        rest = rest[open.upperBound...]
        let quote = rest.firstIndex(of: "\"")!
        let cls = rest[..<quote]
        rest = rest[rest.index(quote, offsetBy: 2)...]
        let close = rest.range(of: "</span>")!
        output += "«\(cls):\(decodeEntities(rest[..<close.lowerBound]))»"
        rest = rest[close.upperBound...]
    }
    return output + decodeEntities(rest)
}

private func decodeEntities(_ text: Substring) -> String {
    text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
        .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
        .replacingOccurrences(of: "&amp;", with: "&")
}

/// `html` without its span tags (and line numbers): what a browser shows, still escaped.
private func stripSpans(_ html: String) -> String {
    var text = ""
    var rest = html[...]
    while let open = rest.firstIndex(of: "<") {
        text += rest[..<open]
        let close = rest[open...].firstIndex(of: ">")!
        let tag = rest[open...close]
        precondition(tag == "</span>" || tag.hasPrefix("<span class=\"hl-"), "unexpected tag \(tag)")
        if tag == "<span class=\"hl-ln\">" {
            rest = rest[rest[close...].range(of: "</span>")!.upperBound...]
        } else {
            rest = rest[rest.index(after: close)...]
        }
    }
    return text + rest
}

/// Line-mode HTML where every line feed is followed by the `</span>` of its `hl-line` and each
/// line's tags balance but for that one, so no token span runs past a line end.
private func spansCloseWithTheirLines(_ html: String) -> Bool {
    let lines = html.components(separatedBy: "\n")
    return lines.enumerated().allSatisfy { index, line in
        guard index == 0 || line.hasPrefix("</span>") else { return false }
        let text = index == 0 ? line[...] : line.dropFirst("</span>".count)
        let opened = text.components(separatedBy: "<span").count - 1
        let closed = text.components(separatedBy: "</span>").count - 1
        // The last line has no line feed after it, so its `hl-line` closes on it.
        return opened - closed == (index == lines.count - 1 ? 0 : 1)
    }
}

/// Seconds for one call, the best of `rounds`: the machine may be shared.
private func seconds(rounds: Int, _ body: () -> Void) -> Double {
    var best = Double.infinity
    for _ in 0..<rounds {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return best
}

/// Every language by one of its aliases, with a snippet that has `<`, `>`, `&`, `"` and `'` in
/// code, strings and comments.
private let samples: [(language: String, code: String)] = [
    ("swift", "// a < b & \"c\" 'd'\nlet s = \"<&>\\\"'\" + #\"raw \"'<>&\"# ; if a < b && c > d {}"),
    ("rust", "/* <&> \"' */ let c = '\"'; let s = r#\"<'&'>\"\"#; if a < b && c > d {}"),
    ("go", "// <&>\"'\ns := `<&>\"'` + \"<&>\\\"'\" + string('\\'')"),
    ("c", "#include <a&b.h>\n/* \"'<&> */ char c = '\\''; if (a < b && c > d) s = \"<&>\\\"\";"),
    ("cpp", "auto s = R\"(<&>\"')\"; // <&>\"'\nif (a<b && c>d) {}"),
    ("objc", "NSString *s = @\"<&>\\\"'\"; // <&>\"'\n#import <A&B/C.h>"),
    ("js", "const t = `<&>\"' ${a < b && c > d}`; // <&>\"'\nx = /<&>\"'/g;"),
    ("ts", "let x: Array<string> = ['<&>\"', \"'\"]; /* <&>\"' */"),
    ("python", "s = '<&>\"' + \"'\" + f\"{a < b & c > d}\"  # <&>\"'\n'''<&>\"'''"),
    ("ruby", "s = \"<&>\\\"' #{a < b && c > d}\" + '<&>\"\\'' # <&>\"'"),
    ("elixir", "s = \"<&>\\\"' #{a < b and c > d}\" <> ~s(<&>\"') # <&>\"'"),
    ("kotlin", "val s = \"<&>\\\"' ${a < b && c > d}\" + 'x' // <&>\"'"),
    ("java", "String s = \"<&>\\\"'\"; char c = '\\''; // <&>\"'\nif (a < b && c > d) {}"),
    ("sh", "echo \"<&>\\\"' $(a < b && c > d)\" '<&>\"' # <&>\"'\ncat <<EOF\n<&>\"'\nEOF"),
    ("console", "$ echo '<&>\"' && cat > f\n<&>\"' output"),
    ("json", "{\"<&>\\\"'\": \"<&>\\\"'\", 'k': '<&>\"'} // <&>\"'"),
    ("yaml", "\"<&>'\": '<&>\"''' # <&>\"'\nkey: a < b & c > d \"'\nblock: |\n  <&>\"'"),
    ("toml", "[<&>\"']\n\"<&>'\" = '<&>\"' # <&>\"'\nm = \"\"\"<&>\\\"'\"\"\""),
    ("html", "<p title=\"<&>'\" data-x='\"'>a < b &amp; c > d \"'</p><!-- <&>\"' --><script>x = \"<&>'\"</script>"),
    ("css", "a[title=\"<&>'\"]::after { content: '<&>\"'; } /* <&>\"' */ a > b {}"),
    ("sql", "SELECT '<&>\"''' FROM \"<&>'\" WHERE a < b AND c > d -- <&>\"'"),
    ("diff", "--- a/<&>\"'\n+++ b\n@@ -1 +1 @@ <&>\"'\n-<&>\"'\n+<&>\"'\n <&>\"'"),
    ("md", "# <&>\"'\n*<&>\"'* `<&>\"'` [<&>\"'](<&>\"')\n```html\n<p class=\"x\">&amp;</p>\n```"),
    ("text", "<&>\"'"),
]

@Suite struct HighlightAPITests {
    @Test func unknownLanguageIsNilAndEmptyCodeIsEmpty() {
        #expect(SyntaxHighlighter.highlight("x", language: "klingon") == nil)
        #expect(SyntaxHighlighter.highlight("", language: "swift") == "")
        #expect(SyntaxHighlighter.highlight("", language: "swift", options: .init(lineNumbers: true)) == "")
        #expect(SyntaxHighlighter.highlight("", language: "klingon") == nil)
    }

    @Test func namesAndAliasesIgnoreCase() {
        let groups: [[String]] = [
            ["swift", "SWIFT"], ["rust", "rs"], ["go", "golang"], ["c", "h"], ["c++", "cpp", "cc", "cxx", "hpp"],
            ["objective-c", "objc", "m", "Objective-C"], ["javascript", "js", "jsx", "mjs", "cjs"],
            ["typescript", "ts", "tsx"], ["python", "py", "python3"], ["ruby", "rb"], ["elixir", "ex", "exs"],
            ["kotlin", "kt", "kts"], ["java"], ["shell", "sh", "bash", "zsh"], ["console"], ["json", "json5"],
            ["yaml", "yml"], ["toml"], ["html", "xml", "svg", "xhtml"], ["css", "scss"], ["sql"],
            ["diff", "patch"], ["markdown", "md"],
        ]
        let code = "if x { y(\"z\") } // w"
        for group in groups {
            let first = SyntaxHighlighter.highlight(code, language: group[0])
            #expect(first != nil, "\(group[0])")
            for alias in group.dropFirst() {
                #expect(SyntaxHighlighter.highlight(code, language: alias) == first, "\(alias)")
            }
        }
    }

    @Test func languagesListsEveryLanguageWithLowercaseAliases() {
        let languages = SyntaxHighlighter.languages
        #expect(languages.count == 24)
        #expect(Set(languages.map(\.name)).count == languages.count)
        let aliases = languages.flatMap(\.aliases)
        #expect(Set(aliases).count == aliases.count, "an alias names two languages")
        let tables = Set(LanguageRegistry.all.map { ObjectIdentifier($0.tables()) })
        #expect(tables.count == languages.count, "two names share one language's tables")
        for (name, list) in languages {
            #expect(!list.isEmpty, "\(name)")
            for alias in list {
                #expect(alias == alias.lowercased())
                // Built once, then the same tables for every alias.
                #expect(LanguageRegistry.language(named: alias) === LanguageRegistry.language(named: list[0]))
                #expect(LanguageRegistry.entry(named: alias)?.name == name)
            }
        }
    }

    @Test func lineNumbersWrapEveryLineAndReopenSpansAcrossLines() throws {
        let code = "let s = \"\"\"\n  a\n  \"\"\"\n"
        let html = try #require(SyntaxHighlighter.highlight(code, language: "swift",
                                                            options: .init(lineNumbers: true, highlightedLines: [2])))
        #expect(html == """
            <span class="hl-line"><span class="hl-ln">1</span><span class="hl-kw">let</span> s <span class="hl-op">=</span> \
            <span class="hl-str">&quot;&quot;&quot;</span>
            </span><span class="hl-line hl-mark"><span class="hl-ln">2</span><span class="hl-str">  a</span>
            </span><span class="hl-line"><span class="hl-ln">3</span><span class="hl-str">  &quot;&quot;&quot;</span>
            </span>
            """)
    }

    @Test func markedLinesWithoutNumbers() throws {
        let html = try #require(SyntaxHighlighter.highlight("a\n\nb", language: "text",
                                                            options: .init(highlightedLines: [3])))
        #expect(html == "<span class=\"hl-line\">a\n</span><span class=\"hl-line\">\n</span>"
            + "<span class=\"hl-line hl-mark\">b</span>")
    }

    /// In line mode a line's tags balance by its end (its own `hl-line` closing after the line
    /// feed), so no token span holds a line feed; the text still round-trips.
    @Test(arguments: samples.map(\.language))
    func spansNeverCrossLinesInLineMode(_ language: String) throws {
        let code = try #require(samples.first { $0.language == language }).code
        let html = try #require(SyntaxHighlighter.highlight(code, language: language, options: .init(lineNumbers: true)))
        let lines = html.components(separatedBy: "\n")
        #expect(lines.count == code.components(separatedBy: "\n").count)
        #expect(spansCloseWithTheirLines(html))
        #expect(decodeEntities(stripSpans(html)[...]) == code)
    }

    @Test func fenceInfoGivesLanguageAndOptions() {
        let cases: [(String, String, HighlightOptions)] = [
            ("swift", "swift", .init()),
            ("swift {hl_lines=[2,3] linenos=true}", "swift", .init(lineNumbers: true, highlightedLines: [2, 3])),
            ("swift {hl_lines=[\"2-4\"]}", "swift", .init(highlightedLines: [2, 3, 4])),
            ("go {linenos=table,hl_lines=[1,\"3-4\"],linenostart=10}", "go",
             .init(lineNumbers: true, highlightedLines: [1, 3, 4])),
            ("  py{hl_lines=\"1 5-6\" linenos=false}", "py", .init(highlightedLines: [1, 5, 6])),
            ("rust {linenos=inline}", "rust", .init(lineNumbers: true)),
            ("", "", .init()),
            ("{hl_lines=[0,x]}", "", .init()),
        ]
        for (info, language, options) in cases {
            let parsed = CodeFenceInfo.parse(info)
            #expect(parsed.language == language, "\(info)")
            #expect(parsed.options == options, "\(info)")
        }
        #expect(CodeFenceInfo.parse("c {hl_lines=[\"1-99999999\"]}").options.highlightedLines.count
            == CodeFenceInfo.maxMarkedLines)
    }
}

/// The exact spans for each language's tricky constructs.
@Suite struct HighlightLanguageTests {
    @Test func swiftNestedCommentsRawStringsInterpolationAndRegexLiterals() {
        #expect(tokens("/* a /* b */ c */ x", "swift") == "«com:/* a /* b */ c */» x")
        #expect(tokens("#\"a \\n \"q\" \\#(x)\"# + ##\"b\"#\"##", "swift") == "«str:#\"a \\n \"q\" »«sub:\\#(»x«sub:)»«str:\"#» «op:+» «str:##\"b\"#\"##»")
        #expect(tokens("let s = \"\"\"\n  line \\(x)\n  \"\"\"", "swift") == "«kw:let» s «op:=» «str:\"\"\"\n  line »«sub:\\(»x«sub:)»«str:\n  \"\"\"»")
        #expect(tokens("\"sum: \\(x + f(\"y\")) \\u{1F600}\"", "swift") == "«str:\"sum: »«sub:\\(»x «op:+» «fn:f»«pun:(»«str:\"y\"»«pun:)»«sub:)»«str: »«esc:\\u{1F600}»«str:\"»")
        #expect(tokens("@MainActor @available(iOS 17, *) func f() {}", "swift") == "«attr:@MainActor» «attr:@available»«pun:(»iOS «num:17»«pun:,» «op:*»«pun:)» «kw:func» «fn:f»«pun:()» «pun:{}»")
        #expect(tokens("let café = π * 2", "swift") == "«kw:let» café «op:=» π «op:*» «num:2»")
        #expect(tokens("let a: Array<Int> = []; if a < b && c > d {}", "swift") == "«kw:let» a«op::» «ty:Array»«op:<»«ty:Int»«op:>» «op:=» «pun:[];» «kw:if» a «op:<» b «op:&&» c «op:>» d «pun:{}»")
        #expect(tokens("let r = /ab+c/; let d = a / b / c", "swift") == "«kw:let» r «op:=» «re:/ab+c/»«pun:;» «kw:let» d «op:=» a «op:/» b «op:/» c")
        #expect(tokens("0xFF 0b1010 0o17 1_000_000 1.5e-3 0x1p3 t.0", "swift") == "«num:0xFF» «num:0b1010» «num:0o17» «num:1_000_000» «num:1.5e-3» «num:0x1p3» t«pun:.»«num:0»")
        #expect(tokens("#if DEBUG\nlist.map { $0 + 1 }\n#endif", "swift") == "«meta:#if» «ty:DEBUG»\nlist«pun:.»map «pun:{» «var:$0» «op:+» «num:1» «pun:}»\n«meta:#endif»")
    }

    @Test func rustNestedCommentsRawStringsLifetimesAndMacros() {
        #expect(tokens("/* a /* b */ c */ x", "rust") == "«com:/* a /* b */ c */» x")
        #expect(tokens("r#\"raw \"q\"\"# b\"bytes\\n\" br\"x\" \"multi\nline\"", "rust") == "«str:r#\"raw \"q\"\"#» «str:b\"bytes»«esc:\\n»«str:\"» «str:br\"x\"» «str:\"multi\nline\"»")
        #expect(tokens("fn f<'a>(x: &'a str) -> char { 'x' }", "rust") == "«kw:fn» «fn:f»«op:<»«ty:'a»«op:>»«pun:(»x«op::» «op:&»«ty:'a» «ty:str»«pun:)» «op:->» «ty:char» «pun:{» «str:'x'» «pun:}»")
        #expect(tokens("let c = '\\n'; let q = '\\''; let u = '\\u{1F600}'; 'outer: loop {}", "rust") == "«kw:let» c «op:=» «str:'»«esc:\\n»«str:'»«pun:;» «kw:let» q «op:=» «str:'»«esc:\\'»«str:'»«pun:;» «kw:let» u «op:=» «str:'»«esc:\\u{1F600}»«str:'»«pun:;» «ty:'outer»«op::» «kw:loop» «pun:{}»")
        #expect(tokens("#[derive(Debug)]\n#![allow(dead_code)]\nprintln!(\"{}\", x != y);", "rust") == "«attr:#[derive»«pun:(»«ty:Debug»«pun:)]»\n«attr:#![allow»«pun:(»dead_code«pun:)]»\n«fn:println!»«pun:(»«str:\"{}\"»«pun:,» x «op:!=» y«pun:);»")
        #expect(tokens("1_000u32 0xFFu8 1e10f64 0..10 i32::MAX", "rust") == "«num:1_000u32» «num:0xFFu8» «num:1e10f64» «num:0»«pun:..»«num:10» «ty:i32»«op:::»«ty:MAX»")
    }

    @Test func goRawStringsRunesAndExportedCalls() {
        #expect(tokens("s := `raw\n\\n` + \"esc\\t\" + string('x')", "go") == "s «op::=» «str:`raw\n\\n`» «op:+» «str:\"esc»«esc:\\t»«str:\"» «op:+» «ty:string»«pun:(»«str:'x'»«pun:)»")
        #expect(tokens("func main() { fmt.Println(0o17, 3i, 1_000, nil) }", "go") == "«kw:func» «fn:main»«pun:()» «pun:{» fmt«pun:.»«fn:Println»«pun:(»«num:0o17»«pun:,» «num:3i»«pun:,» «num:1_000»«pun:,» «lit:nil»«pun:)» «pun:}»")
        #expect(tokens("type Point struct{ X int }", "go") == "«kw:type» «ty:Point» «kw:struct»«pun:{» «ty:X» «ty:int» «pun:}»")
    }

    @Test func cDirectivesCharactersAndSuffixes() {
        #expect(tokens("#include <stdio.h>\n#define MAX 10", "c") == "«meta:#include» «str:<stdio.h>»\n«meta:#define» «ty:MAX» «num:10»")
        #expect(tokens("char c = '\\n'; wchar_t *w = L\"w\"; unsigned long n = 10UL; float f = 1.5f;", "c") == "«ty:char» c «op:=» «str:'»«esc:\\n»«str:'»«pun:;» «ty:wchar_t» «op:*»w «op:=» «str:L\"w\"»«pun:;» «ty:unsigned» «ty:long» n «op:=» «num:10UL»«pun:;» «ty:float» f «op:=» «num:1.5f»«pun:;»")
        #expect(tokens("if (a < b && c > d) return x / 2; // done", "c") == "«kw:if» «pun:(»a «op:<» b «op:&&» c «op:>» d«pun:)» «kw:return» x «op:/» «num:2»«pun:;» «com:// done»")
    }

    @Test func cppRawStringsAttributesAndDigitSeparators() {
        #expect(tokens("auto s = R\"x(a)\" b)x\"; auto t = u8R\"(y)\";", "cpp") == "«kw:auto» s «op:=» «str:R\"x(a)\" b)x\"»«pun:;» «kw:auto» t «op:=» «str:u8R\"(y)\"»«pun:;»")
        #expect(tokens("[[nodiscard]] int n = 1'000'000; char c = 'a';", "cpp") == "«attr:[[nodiscard»«pun:]]» «ty:int» n «op:=» «num:1'000'000»«pun:;» «ty:char» c «op:=» «str:'a'»«pun:;»")
        #expect(tokens("template<typename T> class Foo : public std::vector<T> { Foo() : x(nullptr) {} };", "cpp") == "«kw:template»«op:<»«kw:typename» «ty:T»«op:>» «kw:class» «ty:Foo» «op::» «kw:public» std«op:::»vector«op:<»«ty:T»«op:>» «pun:{» «ty:Foo»«pun:()» «op::» «fn:x»«pun:(»«lit:nullptr»«pun:)» «pun:{}» «pun:};»")
    }

    @Test func objectiveCAtKeywordsAndStrings() {
        #expect(tokens("#import <Foundation/Foundation.h>\n@interface Foo : NSObject\n@property BOOL on;\n@end", "objc") == "«meta:#import» «str:<Foundation/Foundation.h>»\n«kw:@interface» «ty:Foo» «op::» «ty:NSObject»\n«kw:@property» «ty:BOOL» on«pun:;»\n«kw:@end»")
        #expect(tokens("NSString *s = @\"hi\"; BOOL b = YES; id x = nil; [self go:@42];", "objc") == "«ty:NSString» «op:*»s «op:=» «str:@\"hi\"»«pun:;» «ty:BOOL» b «op:=» «lit:YES»«pun:;» «ty:id» x «op:=» «lit:nil»«pun:;» «pun:[»«lit:self» go«op::»@«num:42»«pun:];»")
    }

    @Test func javaScriptRegexVersusDivisionAndNestedTemplates() {
        #expect(tokens("const x = a / b / c;", "js") == "«kw:const» x «op:=» a «op:/» b «op:/» c«pun:;»")
        #expect(tokens("x = /ab+c/g.test(s);", "js") == "x «op:=» «re:/ab+c/g»«pun:.»«fn:test»«pun:(»s«pun:);»")
        #expect(tokens("f(/[/]\\//i, 1) || (y) / 2; return /re/;", "js") == "«fn:f»«pun:(»«re:/[/]\\//i»«pun:,» «num:1»«pun:)» «op:||» «pun:(»y«pun:)» «op:/» «num:2»«pun:;» «kw:return» «re:/re/»«pun:;»")
        #expect(tokens("let t = `a ${b + `in ${c}`} d\n${e}`;", "js") == "«kw:let» t «op:=» «str:`a »«sub:${»b «op:+» «str:`in »«sub:${»c«sub:}»«str:`»«sub:}»«str: d\n»«sub:${»e«sub:}»«str:`»«pun:;»")
        #expect(tokens("#!/usr/bin/env node\n@dec class A { static n = 1n; m() { return this; } }", "js") == "«meta:#!/usr/bin/env node»\n«attr:@dec» «kw:class» «ty:A» «pun:{» «kw:static» n «op:=» «num:1n»«pun:;» «fn:m»«pun:()» «pun:{» «kw:return» «lit:this»«pun:;» «pun:}» «pun:}»")
        #expect(tokens("'single \\' q' + \"double\" // end", "js") == "«str:'single »«esc:\\'»«str: q'» «op:+» «str:\"double\"» «com:// end»")
    }

    @Test func typeScriptGenericsAreNotComparisons() {
        #expect(tokens("interface Foo<T> { readonly a: string; b?: number }", "ts") == "«kw:interface» «ty:Foo»«op:<»«ty:T»«op:>» «pun:{» «kw:readonly» a«op::» «ty:string»«pun:;» b«op:?:» «ty:number» «pun:}»")
        #expect(tokens("type X = Map<string, Array<number>>; let y = a < b ? 1 : 2;", "ts") == "«kw:type» «ty:X» «op:=» «ty:Map»«op:<»«ty:string»«pun:,» «ty:Array»«op:<»«ty:number»«op:>>»«pun:;» «kw:let» y «op:=» a «op:<» b «op:?» «num:1» «op::» «num:2»«pun:;»")
    }

    @Test func pythonDecoratorsStringPrefixesAndFStrings() {
        #expect(tokens("@app.route('/x')\ndef f(self, a=None):\n    return True", "python") == "«attr:@app.route»«pun:(»«str:'/x'»«pun:)»\n«kw:def» «fn:f»«pun:(»«lit:self»«pun:,» a«op:=»«lit:None»«pun:)»«op::»\n    «kw:return» «lit:True»")
        #expect(tokens("r'\\d+' rb'\\x' b'\\x41' u'x' '''tri\nple''' \"\"\"doc\"\"\"", "python") == "«str:r'\\d+'» «str:rb'\\x'» «str:b'»«esc:\\x41»«str:'» «str:u'x'» «str:'''tri\nple'''» «str:\"\"\"doc\"\"\"»")
        #expect(tokens("f'{x!r:>10} {{lit}} {d[\"k\"]}' F\"{a}\" rf'\\d{n}'", "python") == "«str:f'»«sub:{»x«op:!»r«op::>»«num:10»«sub:}»«str: »«esc:{{»«str:lit»«esc:}}»«str: »«sub:{»d«pun:[»«str:\"k\"»«pun:]»«sub:}»«str:'» «str:F\"»«sub:{»a«sub:}»«str:\"» «str:rf'\\d»«sub:{»n«sub:}»«str:'»")
        #expect(tokens("1_000 0x1F 0o17 0b1 1e5 1.5j # comment", "python") == "«num:1_000» «num:0x1F» «num:0o17» «num:0b1» «num:1e5» «num:1.5j» «com:# comment»")
    }

    @Test func rubySymbolsPercentLiteralsHeredocsAndVariables() {
        #expect(tokens("=begin\ndoc\n=end\nx = :sym", "ruby") == "«com:=begin\ndoc\n=end»\nx «op:=» «lit::sym»")
        #expect(tokens("h = { key: :sym, \"s\" => \"#{x + 1}\\n\" }", "ruby") == "h «op:=» «pun:{» «lit:key:» «lit::sym»«pun:,» «str:\"s\"» «op:=>» «str:\"»«sub:#{»x «op:+» «num:1»«sub:}»«esc:\\n»«str:\"» «pun:}»")
        #expect(tokens("%w[a b [c]] + %i(x y) + %q{q} + %r{a/b}i", "ruby") == "«str:%w[a b [c]]» «op:+» «str:%i(x y)» «op:+» «str:%q{q}» «op:+» «re:%r{a/b}i»")
        #expect(tokens("@ivar @@cvar $global def empty?; self.nil? end", "ruby") == "«var:@ivar» «var:@@cvar» «var:$global» «kw:def» «fn:empty?»«pun:;» «lit:self»«pun:.»nil? «kw:end»")
        #expect(tokens("t = <<~EOS\n  hi #{name}\nEOS\nx = 1", "ruby") == "t «op:=» «op:<<~»«str:EOS»\n«str:  hi »«sub:#{»name«sub:}»«str:\nEOS»\nx «op:=» «num:1»")
        #expect(tokens("a = b / 2; re = /a+b/i; 'it\\'s \\n'", "ruby") == "a «op:=» b «op:/» «num:2»«pun:;» re «op:=» «re:/a+b/i»«pun:;» «str:'it»«esc:\\'»«str:s \\n'»")
    }

    @Test func elixirAtomsSigilsAndInterpolation() {
        #expect(tokens("defmodule Foo.Bar do\n  @moduledoc \"\"\"\n  Doc #{x}\n  \"\"\"\nend", "elixir") == "«kw:defmodule» «ty:Foo»«pun:.»«ty:Bar» «kw:do»\n  «var:@moduledoc» «str:\"\"\"\n  Doc »«sub:#{»x«sub:}»«str:\n  \"\"\"»\n«kw:end»")
        #expect(tokens("def f(x), do: {:ok, :\"quoted\", ~r/a+/i, ~w(a b)a, ~S(raw #{x}), ?a}", "elixir") == "«kw:def» «fn:f»«pun:(»x«pun:),» «lit:do:» «pun:{»«lit::ok»«pun:,» «lit::\"quoted\"»«pun:,» «re:~r/a+/i»«pun:,» «str:~w(a b)a»«pun:,» «str:~S(raw #{x})»«pun:,» «num:?a»«pun:}»")
        #expect(tokens("\"hi #{name}!\" |> String.upcase() # done", "elixir") == "«str:\"hi »«sub:#{»name«sub:}»«str:!\"» «op:|>» «ty:String»«pun:.»«fn:upcase»«pun:()» «com:# done»")
    }

    @Test func kotlinTemplatesRawStringsAndAnnotations() {
        #expect(tokens("/* a /* b */ c */ val s = \"$x and ${y + 1}\\n\"", "kotlin") == "«com:/* a /* b */ c */» «kw:val» s «op:=» «str:\"»«sub:$»x«str: and »«sub:${»y «op:+» «num:1»«sub:}»«esc:\\n»«str:\"»")
        #expect(tokens("val r = \"\"\"raw $x \\n\"\"\"; val c = 'c'", "kotlin") == "«kw:val» r «op:=» «str:\"\"\"raw »«sub:$»x«str: \\n\"\"\"»«pun:;» «kw:val» c «op:=» «str:'c'»")
        #expect(tokens("@Deprecated(\"x\") @file:JvmName(\"F\") fun f(): Long = 1_000L", "kotlin") == "«attr:@Deprecated»«pun:(»«str:\"x\"»«pun:)» «attr:@file:JvmName»«pun:(»«str:\"F\"»«pun:)» «kw:fun» «fn:f»«pun:()»«op::» «ty:Long» «op:=» «num:1_000L»")
    }

    @Test func javaTextBlocksCharactersAndAnnotations() {
        #expect(tokens("String s = \"\"\"\n    text \\n block\n    \"\"\";", "java") == "«ty:String» s «op:=» «str:\"\"\"\n    text »«esc:\\n»«str: block\n    \"\"\"»«pun:;»")
        #expect(tokens("@Override public int f(char c) { return c == 'x' ? 0x1F : 1_000L; }", "java") == "«attr:@Override» «kw:public» «ty:int» «fn:f»«pun:(»«ty:char» c«pun:)» «pun:{» «kw:return» c «op:==» «str:'x'» «op:?» «num:0x1F» «op::» «num:1_000L»«pun:;» «pun:}»")
    }

    @Test func shellExpansionsHeredocsAndComments() {
        #expect(tokens("echo \"home $HOME ${USER:-x} $(date +%s) `id` $1 $?\" '$no'", "bash") == "«fn:echo» «str:\"home »«var:$HOME»«str: »«var:${USER:-x}»«str: »«sub:$(»date +%s«sub:)»«str: »«sub:`»id«sub:`»«str: »«var:$1»«str: »«var:$?»«str:\"» «str:'$no'»")
        #expect(tokens("cat <<EOF\nhi $NAME\nEOF\necho done", "bash") == "«fn:cat» «op:<<»«str:EOF»\n«str:hi »«var:$NAME»«str:\nEOF»\n«fn:echo» «kw:done»")
        #expect(tokens("cat <<-'EOF' | grep x\n\t$notexpanded\n\tEOF\necho ok", "bash") == "«fn:cat» «op:<<-»«str:'EOF'» «op:|» «fn:grep» x\n«str:\t$notexpanded\n\tEOF»\n«fn:echo» ok")
        #expect(tokens("# comment\na#b FOO=bar cmd 2>&1 | tee -a log; echo $'a\\tb'", "bash") == "«com:# comment»\na#b «var:FOO»«op:=»bar cmd «num:2»«op:>&»«num:1» «op:|» tee -a log«op:;» «fn:echo» «str:$'a»«esc:\\t»«str:b'»")
        #expect(tokens("if [ -f x ]; then ls; fi\nfunction f() { local x=1; }", "bash") == "«kw:if» «pun:[» -f x «pun:]»«op:;» «kw:then» «fn:ls»«op:;» «kw:fi»\n«kw:function» «fn:f»«pun:()» «pun:{» «kw:local» «var:x»«op:=»«num:1»«op:;» «pun:}»")
    }

    @Test func consolePromptsAndOutput() {
        #expect(tokens("$ echo hi\nhi\n% ls -la # list\ntotal 0", "console") == "«meta:$ »«fn:echo» hi\nhi\n«meta:% »«fn:ls» -la «com:# list»\ntotal 0")
    }

    @Test func jsonKeysAgainstValues() {
        #expect(tokens("{\"key\": \"value\", \"n\": -1.5e3, \"list\": [true, null, \"a\\\"b\\u0041\"]}", "json") == "«pun:{»«key:\"key\"»«pun::» «str:\"value\"»«pun:,» «key:\"n\"»«pun::» «op:-»«num:1.5e3»«pun:,» «key:\"list\"»«pun::» «pun:[»«lit:true»«pun:,» «lit:null»«pun:,» «str:\"a»«esc:\\\"»«str:b»«esc:\\u0041»«str:\"»«pun:]}»")
        #expect(tokens("{\"nested\" : {\"k\": 1}} // c\n{unquoted: 'single'}", "json") == "«pun:{»«key:\"nested\"» «pun::» «pun:{»«key:\"k\"»«pun::» «num:1»«pun:}}» «com:// c»\n«pun:{»«key:unquoted»«pun::» «str:'single'»«pun:}»")
    }

    @Test func yamlKeysAnchorsBlockScalarsAndComments() {
        #expect(tokens("# comment\nname: John Smith # trailing\nage: 33\n\"quoted key\": 'it''s'", "yaml") == "«com:# comment»\n«key:name»«pun::» «str:John Smith» «com:# trailing»\n«key:age»«pun::» «num:33»\n«key:\"quoted key\"»«pun::» «str:'it»«esc:''»«str:s'»")
        #expect(tokens("list:\n  - item one\n  - key: value\nanchor: &anc {a: 1, b: [x, y]}\nref: *anc\ntag: !!str 123", "yaml") == "«key:list»«pun::»\n  «pun:-» «str:item one»\n  «pun:-» «key:key»«pun::» «str:value»\n«key:anchor»«pun::» «var:&anc» «pun:{»«key:a»«pun::» «num:1»«pun:,» «key:b»«pun::» «pun:[»«str:x»«pun:,» «str:y»«pun:]}»\n«key:ref»«pun::» «var:*anc»\n«key:tag»«pun::» «ty:!!str» «num:123»")
        #expect(tokens("script: |\n  echo \"hi\" # not a comment\n  more\nnext: >-\n  folded\nafter: yes", "yaml") == "«key:script»«pun::» «pun:|»\n«str:  echo \"hi\" # not a comment\n  more»\n«key:next»«pun::» «pun:>-»\n«str:  folded»\n«key:after»«pun::» «lit:yes»")
        #expect(tokens("---\nurl: http://x.com:80/y\ndate: 2001-12-14\n...", "yaml") == "«meta:---»\n«key:url»«pun::» «str:http://x.com:80/y»\n«key:date»«pun::» «num:2001-12-14»\n«meta:...»")
    }

    @Test func tomlTablesKeysDatesAndStrings() {
        #expect(tokens("# comment\ntitle = \"TOML \\\"x\\\"\"\n[owner]\nname = 'Tom'\n[[products]]\n[a.b]", "toml") == "«com:# comment»\n«key:title» «op:=» «str:\"TOML »«esc:\\\"»«str:x»«esc:\\\"»«str:\"»\n«head:[owner]»\n«key:name» «op:=» «str:'Tom'»\n«head:[[products]]»\n«head:[a.b]»")
        #expect(tokens("dob = 1979-05-27T07:32:00-08:00\nlt = 07:32:00\nd = 1979-05-27\nn = [1, 8_001, 0xff, 1.5e3, inf]", "toml") == "«key:dob» «op:=» «num:1979-05-27T07:32:00-08:00»\n«key:lt» «op:=» «num:07:32:00»\n«key:d» «op:=» «num:1979-05-27»\n«key:n» «op:=» «pun:[»«num:1»«pun:,» «num:8_001»«pun:,» «num:0xff»«pun:,» «num:1.5e3»«pun:,» «num:inf»«pun:]»")
        #expect(tokens("inline = { x = 1, \"y z\" = true }\nsite.\"google.com\" = false\nm = \"\"\"\nline\"\"\"\nr = '''raw\\n'''", "toml") == "«key:inline» «op:=» «pun:{» «key:x» «op:=» «num:1»«pun:,» «key:\"y z\"» «op:=» «lit:true» «pun:}»\n«key:site.\"google.com\"» «op:=» «lit:false»\n«key:m» «op:=» «str:\"\"\"\nline\"\"\"»\n«key:r» «op:=» «str:'''raw\\n'''»")
    }

    @Test func htmlTagsAttributesEntitiesAndEmbeddedCode() {
        #expect(tokens("<!DOCTYPE html>\n<!-- a <b> & c -->\n<p class=\"x\" data-n='1' hidden width=10>A &amp; B &#169; a < b</p>", "html") == "«meta:<!DOCTYPE html>»\n«com:<!-- a <b> & c -->»\n«pun:<»«tag:p» «attr:class»«op:=»«str:\"x\"» «attr:data-n»«op:=»«str:'1'» «attr:hidden» «attr:width»«op:=»«str:10»«pun:>»A «esc:&amp;» B «esc:&#169;» a < b«pun:</»«tag:p»«pun:>»")
        #expect(tokens("<script>if (a < b) x = \"</p>\";</script><style>p { color: red; }</style>", "html") == "«pun:<»«tag:script»«pun:>»«kw:if» «pun:(»a «op:<» b«pun:)» x «op:=» «str:\"</p>\"»«pun:;</»«tag:script»«pun:><»«tag:style»«pun:>»«tag:p» «pun:{» «key:color»«pun::» red«pun:;» «pun:}</»«tag:style»«pun:>»")
    }

    @Test func xmlDeclarationsAndCDATA() {
        #expect(tokens("<?xml version=\"1.0\"?>\n<svg:rect x=\"1\"/><![CDATA[ <raw> ]]>", "xml") == "«meta:<?xml version=\"1.0\"?>»\n«pun:<»«tag:svg:rect» «attr:x»«op:=»«str:\"1\"»«pun:/>»«str:<![CDATA[ <raw> ]]>»")
    }

    @Test func cssSelectorsPropertiesUnitsColorsAndAtRules() {
        #expect(tokens("@media (max-width: 600px) {\n  .nav > li:hover, #main::before { color: #FF0000; }\n}", "css") == "«kw:@media» «pun:(»«key:max-width»«pun::» «num:600px»«pun:)» «pun:{»\n  «attr:.nav» «op:>» «tag:li»«attr::hover»«pun:,» «attr:#main::before» «pun:{» «key:color»«pun::» «num:#FF0000»«pun:;» «pun:}»\n«pun:}»")
        #expect(tokens("a[href^=\"http\"] { margin: -1px 0.5em 10%; width: calc(100% - var(--gap)) !important; }", "css") == "«tag:a»«pun:[»«attr:href»«op:^=»«str:\"http\"»«pun:]» «pun:{» «key:margin»«pun::» -«num:1px» «num:0.5em» «num:10%»«pun:;» «key:width»«pun::» «fn:calc»«pun:(»«num:100%» - «fn:var»«pun:(»«var:--gap»«pun:))» «kw:!important»«pun:;» «pun:}»")
        #expect(tokens("/* c */ @font-face { font-family: \"X\"; src: url(//cdn/x.woff); }", "css") == "«com:/* c */» «kw:@font-face» «pun:{» «key:font-family»«pun::» «str:\"X\"»«pun:;» «key:src»«pun::» «fn:url»«pun:(»//cdn/x.woff«pun:);» «pun:}»")
    }

    @Test func sqlCommentsStringsAndCaseInsensitiveKeywords() {
        #expect(tokens("-- comment\nSELECT id, COUNT(*) FROM \"users\" /* b */ WHERE name = 'O''Brien' AND x = :p;", "sql") == "«com:-- comment»\n«kw:SELECT» id«pun:,» «fn:COUNT»«pun:(»«op:*»«pun:)» «kw:FROM» \"users\" «com:/* b */» «kw:WHERE» name «op:=» «str:'O»«esc:''»«str:Brien'» «kw:AND» x «op:=» «var::p»«pun:;»")
        #expect(tokens("select * from t where v >= 1.5e3 limit $1;\nCreate Table t (id Integer Primary Key, b text);", "sql") == "«kw:select» «op:*» «kw:from» t «kw:where» v «op:>=» «num:1.5e3» «kw:limit» «var:$1»«pun:;»\n«kw:Create» «kw:Table» t «pun:(»id «ty:Integer» «kw:Primary» «kw:Key»«pun:,» b «ty:text»«pun:);»")
    }

    @Test func diffLines() {
        #expect(tokens("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@ fn\n context\n-old\n+new\n\\ No newline at end of file", "diff") == "«meta:diff --git a/x b/x»\n«meta:--- a/x»\n«meta:+++ b/x»\n«head:@@ -1,2 +1,2 @@ fn»\n context\n«del:-old»\n«ins:+new»\n«com:\\ No newline at end of file»")
    }

    @Test func markdownHeadingsEmphasisCodeLinksListsAndFences() {
        #expect(tokens("# Title\nSome *em* and **strong**, `code <x>`, [link](http://x.y) and ![i](a.png). 2 * 3 * 4\n", "md") == "«head:# Title»\nSome «kw:*em*» and «kw:**strong**», «str:`code <x>`», «pun:[»link«pun:](»«attr:http://x.y»«pun:)» and «pun:![»i«pun:](»«attr:a.png»«pun:)». 2 * 3 * 4\n")
        #expect(tokens("- item\n1. first\n> quote\n---\n\\*not em\\* snake_case_word\nSetext\n===", "md") == "«pun:- »item\n«pun:1.» first\n«pun:>» quote\n«pun:---»\n«esc:\\*»not em«esc:\\*» snake_case_word\nSetext\n«head:===»")
        #expect(tokens("```swift\nlet x = 1\n```\n~~~\nplain <b>\n~~~\n``a ` b``", "md") == "«meta:```swift»\n«kw:let» x «op:=» «num:1»\n«meta:```»\n«meta:~~~»\n«str:plain <b>\n»«meta:~~~»\n«str:``a ` b``»")
    }

    @Test func plainTextIsOnlyEscaped() {
        #expect(tokens("a < b & \"c\"", "text") == "a < b & \"c\"")
    }
}

@Suite(.serialized) struct HighlightSafetyTests {
    /// No `<`, `>`, `&`, `"` or `'` is left raw outside the tags, and the text round-trips.
    @Test(arguments: samples.map(\.language))
    func escapesEverySpecialCharacter(_ language: String) throws {
        let code = try #require(samples.first { $0.language == language }).code
        let html = try #require(SyntaxHighlighter.highlight(code, language: language))
        let text = stripSpans(html)
        for special in ["<", ">", "\"", "'"] { #expect(!text.contains(special), "raw \(special)") }
        let entities = ["lt;", "gt;", "amp;", "quot;", "#39;"]
        #expect(text.components(separatedBy: "&").dropFirst().allSatisfy { part in entities.contains { part.hasPrefix($0) } })
        #expect(decodeEntities(text[...]) == code)
    }

    /// Random soup of the bytes that open and close things, in every language and in line mode:
    /// nothing traps, the text round-trips, and no span holds a line feed.
    @Test(arguments: SyntaxHighlighter.languages.map(\.name))
    func randomInputRoundTrips(_ language: String) {
        let pieces = ["\"", "'", "`", "/", "*", "\\", "#", "$", "{", "}", "(", ")", "[", "]", "<", ">", "&", "@", ":",
                      "%", "~", "!", "=", "-", "+", "|", "?", ".", ",", ";", "\n", " ", "\t", "a", "Z", "0", "9", "_",
                      "é", "π", "😀", "\u{0B}", "\u{0}", "\r\n", "<<EOF", "EOF", "\"\"\"", "/*", "*/", "${", "#{", "\\(", "r#\"", "```", "<!--"]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 &+ UInt64(language.utf8.count)
        for _ in 0..<60 {
            var code = ""
            for _ in 0..<120 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                code += pieces[Int(state >> 33) % pieces.count]
            }
            let html = SyntaxHighlighter.highlight(code, language: language)!
            #expect(decodeEntities(stripSpans(html)[...]) == code)
            let lines = SyntaxHighlighter.highlight(code, language: language, options: .init(lineNumbers: true))!
            #expect(decodeEntities(stripSpans(lines)[...]) == code)
            #expect(spansCloseWithTheirLines(lines))
        }
    }

    @Test func samplesCoverEveryLanguage() {
        let covered = Set(samples.compactMap { LanguageRegistry.entry(named: $0.language)?.name })
        #expect(covered == Set(SyntaxHighlighter.languages.map(\.name)))
    }

    /// 200 KB of one line repeating the constructs that could make a lexer rescan (a `/` that may
    /// start a regex, unterminated strings and interpolations, openers without closers) must take
    /// about ten times as long as 20 KB, not a hundred. Best of three of each, so a busy machine
    /// (the suite runs tests in parallel) does not decide; absolute speed is `bench/build`'s job.
    @Test(arguments: [
        ("swift", "= /a #\"\\("), ("rust", "'a r#/*"), ("go", "'`"), ("c", "#include <'"), ("cpp", "[[ 'R\"x("),
        ("objc", "@ #import <"), ("js", "= /[ `${"), ("ts", "< = /["), ("python", "@ f'{"), ("ruby", "= /[ %w"),
        ("elixir", "~r/ :"), ("kotlin", "\"${"), ("java", "@ '"), ("sh", "<<A ${"), ("console", "$ \"$("),
        ("json", "{\"a\":"), ("yaml", "- [&"), ("toml", "a = \""), ("html", "<a &"), ("css", "a:#"),
        ("sql", ":'"), ("diff", "@@"), ("md", "*a `"), ("text", "<&>"),
    ])
    func pathologicalInputTakesLinearTime(_ language: String, _ unit: String) {
        let small = String(repeating: unit, count: 20_000 / unit.utf8.count)
        let large = String(repeating: unit, count: 200_000 / unit.utf8.count)
        let smallTime = seconds(rounds: 3) { _ = SyntaxHighlighter.highlight(small, language: language) }
        let largeTime = seconds(rounds: 3) { _ = SyntaxHighlighter.highlight(large, language: language) }
        #expect(largeTime / smallTime < 45, "20 KB in \(smallTime) s, 200 KB in \(largeTime) s (quadratic would be ~100×)")
    }

    /// Reports throughput on a megabyte of ordinary Swift; asserts only that it is not absurd.
    @Test func throughputOnOneMegabyteOfSwift() throws {
        let chunk = swiftChunk + samples[0].code + "\n"
        let code = String(String(repeating: chunk, count: 1_000_000 / chunk.utf8.count + 1).utf8.prefix(1_000_000))!
        var output = 0
        let time = seconds(rounds: 3) { output = SyntaxHighlighter.highlight(code, language: "swift")!.utf8.count }
        print("highlight: \(String(format: "%.1f", Double(code.utf8.count) / 1e6 / time)) MB/s on 1 MB of Swift "
            + "(\(output) bytes of HTML)")
        #expect(time < 10)
    }
}

private let swiftChunk = #"""
/// A small model with the usual mix of declarations.
@MainActor
public final class Library: ObservableObject {
    @Published private(set) var books: [Book] = []
    private let store: any BookStore

    public init(store: any BookStore = InMemoryStore()) {
        self.store = store
    }

    func load() async throws {
        let loaded = try await store.fetchAll()
        books = loaded.sorted { $0.title.localizedCompare($1.title) == .orderedAscending }
        guard !books.isEmpty else { return }
        print("Loaded \(books.count) books, first: \(books[0].title)")
    }

    func total(pages limit: Int = 1_000) -> Int {
        books.filter { $0.pages <= limit }.reduce(0) { $0 + $1.pages } * 2 / 3 % 0xFF
    }
}

struct Book: Identifiable, Hashable, Codable {
    let id: UUID
    var title: String
    var pages: Int
    static let empty = Book(id: UUID(), title: #"Untitled "draft""#, pages: 0)
}

"""#
