import BlogModel
@testable import HTMLMarkup
import Testing
@testable import Site

/// Remote HTML in, exactly this out: the allowlist and its re-serialization, case by case.
@Suite struct SanitizerTests {
    static let rel = "rel=\"nofollow noopener noreferrer ugc\""

    @Test(arguments: [
        // What Mastodon sends stays as it is, links gaining rel.
        (#"<p><span class="h-card"><a href="https://m.example/@a" class="u-url mention">@<span>a</span></a></span> hi</p>"#,
         #"<p><span class="h-card"><a href="https://m.example/@a" class="u-url mention" \#(rel)>@<span>a</span></a></span> hi</p>"#),
        (#"<a href="https://x.example/very/long" class="hashtag"><span class="invisible">https://</span><span class="ellipsis">x.example/very</span><span class="invisible">/long</span></a>"#,
         #"<a href="https://x.example/very/long" class="hashtag" \#(rel)><span class="invisible">https://</span><span class="ellipsis">x.example/very</span><span class="invisible">/long</span></a>"#),
        ("<p>a<br>b<br/>c</p>", "<p>a<br>b<br>c</p>"),
        ("<blockquote><ul><li><em>x</em></li></ul><ol><li><code>y</code></li></ol><pre>z</pre></blockquote>",
         "<blockquote><ul><li><em>x</em></li></ul><ol><li><code>y</code></li></ol><pre>z</pre></blockquote>"),
        // Scripts, styles and their content go entirely.
        ("<p>hi<script>alert(1)</script></p>", "<p>hi</p>"),
        ("<p>hi<SCRIPT SRC=//evil.example/x.js></SCRIPT>!</p>", "<p>hi!</p>"),
        ("<style>p{color:red}</style><p>x</p>", "<p>x</p>"),
        ("<script>document.write('</p><img src=x onerror=alert(1)>')</script>ok", "ok"),
        // Event handlers, styles and unknown attributes are dropped.
        (#"<p onclick="alert(1)" style="color:red" id="x">t</p>"#, "<p>t</p>"),
        (#"<img src=x onerror=alert(1)>text"#, "text"),
        (#"<a href="https://ok.example" onmouseover="x()" target="_blank">l</a>"#, #"<a href="https://ok.example" \#(rel)>l</a>"#),
        // Only http and https links with a host, however the scheme is disguised.
        (#"<a href="javascript:alert(1)">x</a>"#, #"<a \#(rel)>x</a>"#),
        (#"<a href="  JaVaScRiPt:alert(1)">x</a>"#, #"<a \#(rel)>x</a>"#),
        ("<a href=\"java\tscript:alert(1)\">x</a>", #"<a \#(rel)>x</a>"#),
        (#"<a href="&#106;avascript:alert(1)">x</a>"#, #"<a \#(rel)>x</a>"#),
        (#"<a href="data:text/html,<script>alert(1)</script>">x</a>"#, #"<a \#(rel)>x</a>"#),
        (#"<a href="vbscript:msgbox">x</a>"#, #"<a \#(rel)>x</a>"#),
        (#"<a href="/relative">x</a>"#, #"<a \#(rel)>x</a>"#),
        (#"<a href="mailto:a@b.example">m</a>"#, #"<a \#(rel)>m</a>"#),
        (#"<a href="https:///no-host">h</a>"#, #"<a \#(rel)>h</a>"#),
        (#"<a href='https://q.example/?a=1&amp;b="2"'>q</a>"#, #"<a href="https://q.example/?a=1&amp;b=%222%22" \#(rel)>q</a>"#),
        ("<a href=\"https://q.example/\"\u{301} onmouseover=x\">q</a>", #"<a href="https://q.example/" \#(rel)>q</a>"#),
        // Block structure stays; headings become bold paragraphs.
        ("<h1>h1</h1><h2>h2</h2><p>a<br>b</p>", "<p><strong>h1</strong></p><p><strong>h2</strong></p><p>a<br>b</p>"),
        ("<ul><li>one</li><li>two</li></ul><blockquote>q</blockquote><pre><code>c</code></pre>",
         "<ul><li>one</li><li>two</li></ul><blockquote>q</blockquote><pre><code>c</code></pre>"),
        ("<h3>unclosed", "<p><strong>unclosed</strong></p>"),
        // Bidi overrides and isolates go (they would reorder the text after them); marks stay.
        ("<p>a\u{202E}b\u{2066}c\u{200F}d</p>", "<p>abc\u{200F}d</p>"),
        // SVG and MathML, with whatever they carry.
        (#"<svg><script>alert(1)</script><a xlink:href="javascript:x">s</a></svg>after"#, "after"),
        (#"<svg/onload=alert(1)>x"#, ""),  // x is inside the svg, for a browser too
        ("<math><mi>x</mi></math>y", "y"),
        ("<iframe src=\"https://e.example\">inner</iframe>z", "z"),
        // Classes outside the allowlist go.
        (#"<span class="mention evil big">m</span>"#, #"<span class="mention">m</span>"#),
        (#"<span class="evil">m</span>"#, "<span>m</span>"),
        // Malformed markup: closed, balanced, escaped.
        ("<p><b>bold<i>both</b>italic?</p>", "<p><b>bold<i>both</i></b>italic?</p>"),
        ("<p>unclosed <em>tags", "<p>unclosed <em>tags</em></p>"),
        ("</p>stray</em> close", "stray close"),
        ("1 < 2 and 3 > 2 & so on", "1 &lt; 2 and 3 &gt; 2 &amp; so on"),
        ("<p>a &lt;script&gt; b &amp;amp; &hellip; &#x1F600; &bogus;</p>", "<p>a &lt;script&gt; b &amp;amp; … 😀 &amp;bogus;</p>"),
        ("<<script>script>alert(1)<</script>/script>", "&lt;/script&gt;"),
        ("<!-- <script>alert(1)</script> -->visible", "visible"),
        ("<p title=\"x\"\"y\">q</p>", "<p>q</p>"),
        ("<div><p>in div</p></div>", "<p>in div</p>"),
        ("<h1>Title</h1><table><tr><td>cell</td></tr></table>", "<p><strong>Title</strong></p>cell"),
        ("<a href=https://u.example/x>unquoted</a>", #"<a href="https://u.example/x" \#(rel)>unquoted</a>"#),
        ("<p>&#0;&#xD800;nul</p>", "<p>\u{FFFD}\u{FFFD}nul</p>"),
    ])
    func sanitizes(input: String, expected: String) {
        #expect(HTMLSanitizer.sanitize(input) == expected)
    }

    /// Random soup of markup fragments: never crashes, never lets a script or handler through,
    /// and sanitizing its own output changes nothing.
    @Test func randomMarkupIsAlwaysSafeAndStable() {
        let pieces = ["<", ">", "/", "\"", "'", "=", "&", "#", ";", "x", " ", "\n", "script", "style", "svg", "a", "p", "href",
                      "onload", "javascript:", "<!--", "-->", "<![CDATA[", "&#x3c;", "&lt;", "é", "\u{0}", "span", "class=",
                      "</", "mention", "<a href=\"", "https://e.example", "<img src=x onerror=", "<math>", "</p>", "<p>"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3000 {
            let input = (0..<Int.random(in: 1...60, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let output = HTMLSanitizer.sanitize(input)
            // Read back as a browser would: only allowed elements, only href/class/rel, safe links.
            for token in HTMLTokenizer(output, options: .sanitizer) {
                guard case .startTag(let name, let attributes, _) = token else { continue }
                #expect(HTMLSanitizer.allowedElements.contains(name), "\(input) → \(output)")
                for attribute in attributes {
                    #expect(["href", "class", "rel"].contains(attribute.name), "\(input) → \(output)")
                    if attribute.name == "href" { #expect(HTTPURL.parse(attribute.value) == attribute.value, "\(input) → \(output)") }
                }
            }
            #expect(HTMLSanitizer.sanitize(output) == output, "not stable: \(input) → \(output)")
        }
    }

    @Test func deepNestingIsFlattened() {
        let deep = String(repeating: "<span>", count: 200) + "x" + String(repeating: "</span>", count: 200)
        let output = HTMLSanitizer.sanitize(deep)
        #expect(output.components(separatedBy: "<span>").count - 1 == HTMLSanitizer.maximumDepth)
        #expect(output.contains("x"))
    }

    @Test func threadsReadInOrderWithDepth() {
        func comment(_ id: String, _ parent: String?, _ minute: Int) -> Discussion.Comment {
            Discussion.Comment(id: id, parentID: parent, authorName: id, authorHandle: "@\(id)@x", authorURL: "https://x/\(id)",
                               avatarURL: nil, url: "https://x/\(id)", contentHTML: "<p>\(id)</p>", summary: nil, sensitive: false,
                               published: .init(timeIntervalSince1970: Double(minute * 60)), updated: nil)
        }
        let discussion = Discussion(comments: [comment("c", "b", 3), comment("a", nil, 1), comment("b", "a", 2),
                                               comment("d", nil, 4), comment("orphan", "gone", 5), comment("loop", "loop", 6)])
        #expect(discussion.threaded().map { "\($0.comment.id):\($0.depth)" } == ["a:0", "b:1", "c:2", "d:0", "orphan:0", "loop:0"])
    }
}

@Suite struct LinkRewritingTests {
    @Test(arguments: [
        (#"<a href="/2025/x/">x</a> <img src="/i.png" alt="é">"#,
         #"<a href="https://b.example/2025/x/">x</a> <img src="https://b.example/i.png" alt="é">"#),
        (#"<a href="//cdn.example/x">protocol-relative stays</a>"#, #"<a href="//cdn.example/x">protocol-relative stays</a>"#),
        (#"<a data-href="/x" href="https://o.example/">other attributes stay</a>"#,
         #"<a data-href="/x" href="https://o.example/">other attributes stay</a>"#),
        (#"<p>text ="/ not in a tag, and "/" alone</p>"#, #"<p>text ="/ not in a tag, and "/" alone</p>"#),
        (#"<a href="/">root</a>"#, #"<a href="https://b.example/">root</a>"#),
        (#"ünïcödé <a href="/ü/">ü</a>"#, #"ünïcödé <a href="https://b.example/ü/">ü</a>"#),
    ])
    func rootRelativeLinksBecomeAbsolute(input: String, expected: String) {
        #expect(HTMLText.absolutizeLinks(input, baseURL: "https://b.example") == expected)
    }
}
