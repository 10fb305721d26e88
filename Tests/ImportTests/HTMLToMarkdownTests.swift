import BlogModel
import HTMLMarkup
@testable import Import
import Site
import Testing

/// Each HTML construct and its Markdown, and what Lectern's renderer makes of that Markdown.
@Suite struct HTMLToMarkdownTests {
    func markdown(_ html: String) -> String {
        HTMLToMarkdown.convert(html).markdown.trimmingCharacters(in: .newlines)
    }

    func rendered(_ html: String) -> String {
        MarkdownRenderer.render(HTMLToMarkdown.convert(html).markdown).html
    }

    /// The line break after `<pre>` is not content, whether written `\n` or `\r\n` (Windows):
    /// dropping it took the next character too, and a `<pre>` holding only `\r\n` stopped the import.
    @Test func theLineBreakAfterPreIsDroppedAlone() {
        #expect(markdown("<pre>\r\nabc</pre>").contains("abc"))
        #expect(markdown("<pre>\nabc</pre>").contains("abc"))
        _ = markdown("<pre>\r\n</pre><textarea>\r\n</textarea>")
    }

    @Test func paragraphsFoldWhitespace() {
        #expect(markdown("<p>One\n   two\tthree</p>\n\n<p> Four </p>") == "One two three\n\nFour")
        #expect(markdown("Loose text<p>then a paragraph</p>") == "Loose text\n\nthen a paragraph")
        #expect(markdown("<p>&nbsp;</p><p>kept</p>") == "kept")
    }

    @Test func emphasis() {
        #expect(markdown("<p><em>a</em> <strong>b</strong> <b><i>c</i></b> <del>d</del></p>") == "*a* **b** ***c*** ~~d~~")
        #expect(markdown("<p><em>foo </em>bar</p>") == "*foo* bar")
        #expect(markdown("<p>in<em>word</em>s</p>") == "in*word*s")
        #expect(markdown("<p><em>outer <em>inner</em> outer</em></p>") == "*outer inner outer*")
        #expect(markdown("<p><strong>bold <em>both</em></strong></p>") == "**bold *both***")
        #expect(markdown("<p><i class=\"icon-star\"></i>Starred</p>") == "Starred")
    }

    @Test func emphasisThatMarkdownCannotDelimitStaysHTML() {
        // `foo*(bar)*baz` would not be emphasis in CommonMark.
        #expect(markdown("<p>foo<em>(bar)</em>baz</p>") == "foo<em>(bar)</em>baz")
        #expect(rendered("<p>foo<em>(bar)</em>baz</p>").contains("foo<em>(bar)</em>baz"))
        // Space inside the delimiters moves out (a no-break space becomes a plain one).
        #expect(markdown("<p>a<em>&nbsp;x</em></p>") == "a *x*")
    }

    @Test func links() {
        #expect(markdown("<a href=\"https://x.example/a\" title=\"A &quot;T&quot;\">link</a>")
                == "[link](https://x.example/a \"A \\\"T\\\"\")")
        #expect(markdown("<a href=\"https://en.wikipedia.org/wiki/Swift_(language)\">Swift</a>")
                == "[Swift](https://en.wikipedia.org/wiki/Swift_(language))")
        #expect(markdown("<a href=\"https://x.example/a)b\">odd</a>") == "[odd](https://x.example/a\\)b)")
        #expect(markdown("<a href=\"/files/my file.pdf\">pdf</a>") == "[pdf](</files/my file.pdf>)")
        #expect(markdown("<a href=\"https://x.example/\">https://x.example/</a>") == "<https://x.example/>")
        #expect(markdown("<p>Wow!<a href=\"/x\">link</a></p>") == "Wow\\![link](/x)")
        #expect(markdown("<a href=\"/x\"><img src=\"a.png\" alt=\"A\"></a>") == "[![A](a.png)](/x)")
        #expect(markdown("<a href=\"/x\">[1]</a>") == "[\\[1\\]](/x)")
        #expect(markdown("<p><a id=\"top\"></a>Start</p>") == "<a id=\"top\"></a>Start")
        let html = rendered("<a href=\"https://en.wikipedia.org/wiki/Swift_(language)\" title=\"t\">Swift</a>")
        #expect(html.contains("<a href=\"https://en.wikipedia.org/wiki/Swift_(language)\" title=\"t\">Swift</a>"))
    }

    @Test func images() {
        #expect(markdown("<img src=\"a b.png\" alt=\"A [big] *one*\" title=\"T\">") == "![A \\[big\\] \\*one\\*](<a b.png> \"T\")")
        #expect(markdown("<img src=\"data:image/gif;base64,R0lGOD\" data-src=\"/real.jpg\" alt=\"\">") == "![](/real.jpg)")
        #expect(HTMLToMarkdown.convert("<img src=\"x.png\"><img src=\"x.png\">", imageURLs: ["x.png": "/2019/p/x.png"]).markdown
                == "![](/2019/p/x.png)![](/2019/p/x.png)\n")
    }

    @Test func lists() {
        #expect(markdown("<ul><li>a</li><li>b<ul><li>c</li><li>d<ol><li>e</li></ol></li></ul></li></ul>")
                == "- a\n- b\n  - c\n  - d\n    1. e")
        #expect(markdown("<ol start=\"9\"><li>nine</li><li>ten</li></ol>") == "9. nine\n10. ten")
        #expect(markdown("<ol><li><p>one</p></li><li><p>two</p><pre><code>x</code></pre></li></ol>")
                == "1. one\n\n2. two\n\n   ```\n   x\n   ```")
        // Two lists in a row must not merge into one.
        #expect(markdown("<ul><li>a</li></ul><ul><li>b</li></ul>") == "- a\n\n* b")
        // A nested list written without its <li>.
        #expect(markdown("<ul><li>a</li><ul><li>b</li></ul></ul>") == "- a\n  - b")
        #expect(rendered("<ul><li>a<ul><li>b</li></ul></li></ul>").contains("<li>a\n<ul>\n<li>b</li>"))
    }

    @Test func listsInsideBlockQuotes() {
        #expect(markdown("<blockquote><p>Quote</p><ul><li>one</li><li>two</li></ul></blockquote>")
                == "> Quote\n>\n> - one\n> - two")
        #expect(markdown("<blockquote><blockquote><p>deep</p></blockquote></blockquote>") == "> > deep")
        let html = rendered("<blockquote><ol><li>x</li></ol></blockquote>")
        #expect(html.contains("<blockquote>\n<ol>\n<li>x</li>"))
    }

    @Test func headings() {
        #expect(markdown("<h1>Title</h1><h3>C# and F#</h3><h2>Count #</h2>") == "# Title\n\n### C# and F\\#\n\n## Count \\#")
        #expect(markdown("<h2>Line<br>break</h2>") == "## Line break")
    }

    @Test func codeBlocksKeepTheirLanguage() {
        let cases: [(String, String)] = [
            ("<pre><code class=\"language-rust\">x</code></pre>", "rust"),
            ("<pre><code class=\"lang-js\">x</code></pre>", "js"),
            ("<pre data-lang=\"elixir\">x</pre>", "elixir"),
            ("<pre class=\"brush: ruby; gutter: false\">x</pre>", "ruby"),
            ("<pre class=\"prettyprint lang-go\">x</pre>", "go"),
            ("<pre><code class=\"hljs swift\">x</code></pre>", "swift"),
            ("<pre class=\"php\">x</pre>", "php"),
            ("<div class=\"highlight highlight-source-python\"><pre>x</pre></div>", "python"),
            ("<div class=\"language-ruby highlighter-rouge\"><div class=\"highlight\"><pre class=\"highlight\"><code>x</code></pre></div></div>", "ruby"),
            ("<pre lang=\"bash\">x</pre>", "bash"),
            ("<pre class=\"chroma\"><code class=\"language-go\" data-lang=\"go\">x</code></pre>", "go"),
        ]
        for (html, language) in cases {
            #expect(markdown(html) == "```\(language)\nx\n```", "\(html)")
        }
        #expect(markdown("<pre class=\"wp-block-code\"><code>plain</code></pre>") == "```\nplain\n```")
        #expect(markdown("<pre lang=\"en\">words</pre>") == "```\nwords\n```")
    }

    @Test func codeSurvivesByteForByte() {
        let code = "fn f<T: Into<String>>(x: T) -> Vec<&'a str> {\n\tif a && b || c < d { \"<b>&amp;</b>\" }\n}\n\n  // trailing spaces   \n"
        let html = "<pre><code class=\"language-rust\">" + HTMLNode.escape(code, attribute: false) + "</code></pre>"
        #expect(markdown(html) == "```rust\n" + code.dropLast() + "\n```")
        #expect(TextMeasure.codeBlocks(html: rendered(html)) == [String(code.dropLast())])
        // Entities are decoded once: &amp;lt; is the text "&lt;".
        #expect(markdown("<pre>a &amp;lt; b</pre>") == "```\na &lt; b\n```")
        // The line break right after <pre> is not content; Medium's <br> are line breaks.
        #expect(markdown("<pre>\nx</pre>") == "```\nx\n```")
        #expect(markdown("<pre>a<br>b<br/>c</pre>") == "```\na\nb\nc\n```")
        // Highlighter spans vanish, line-number gutters too.
        #expect(markdown("<pre><code><span class=\"ln\">1</span><span class=\"k\">let</span> x</code></pre>") == "```\nlet x\n```")
    }

    @Test func backticksInCodeGetLongerFences() {
        #expect(markdown("<pre><code>```\nnested\n```</code></pre>") == "````\n```\nnested\n```\n````")
        #expect(markdown("<p><code>a`b</code> and <code>`x`</code></p>") == "``a`b`` and `` `x` ``")
        #expect(rendered("<p><code>`x`</code></p>").contains("<code>`x`</code>"))
    }

    @Test func textThatLooksLikeMarkupStaysVisible() {
        #expect(markdown("<p>Type &lt;insert format&gt; here</p>") == "Type \\<insert format> here")
        #expect(markdown("<p>Type <insert format> here</p>") == "Type \\<insert format> here")
        #expect(rendered("<p>Type <insert format> here</p>").contains("Type &lt;insert format&gt; here"))
        #expect(markdown("<p>a *b* _c_ [d] `e` ~f~ 3 < 4 &amp;copy; snake_case</p>")
                == "a \\*b\\* \\_c\\_ \\[d\\] \\`e\\` \\~f\\~ 3 < 4 \\&copy; snake_case")
        #expect(rendered("<p>&amp;copy; *b*</p>").contains("&amp;copy; *b*"))
        #expect(markdown("<p># one<br>- two<br>10. three<br>+ four<br>&gt; five</p>")
                == "\\# one\\\n\\- two\\\n10\\. three\\\n\\+ four\\\n\\> five")
        #expect(markdown("<p>2019. A good year</p>") == "2019\\. A good year")
    }

    @Test func entities() {
        #expect(markdown("<p>&copy; &eacute; &#8217; &#x1F600; &hellip; &mdash;</p>") == "© é ’ 😀 … —")
        #expect(markdown("<p>a&nbsp;b</p>") == "a\u{A0}b")
        #expect(markdown("<p>&#150; &unknown; AT&T</p>") == "– \\&unknown; AT&T")
    }

    @Test func tables() {
        let html = """
        <table><thead><tr><th>A</th><th align="right">B</th><th style="text-align:center">C</th></tr></thead>
        <tbody><tr><td>1</td><td><code>x|y</code></td><td>a|b<br>c</td></tr><tr><td>only</td></tr></tbody></table>
        """
        #expect(markdown(html) == "| A | B | C |\n| --- | ---: | :---: |\n| 1 | `x\\|y` | a\\|b<br>c |\n| only |   |   |")
        let table = rendered(html)
        #expect(table.contains("<th align=\"right\">B</th>") && table.contains("<code>x|y</code>"))
        // Not expressible in GFM: kept as HTML.
        #expect(markdown("<table><tr><td>no</td><td>header</td></tr></table>").hasPrefix("<table>"))
        #expect(markdown("<table><tr><th>a</th></tr><tr><td colspan=\"2\">x</td></tr></table>").hasPrefix("<table>"))
        #expect(markdown("<table><caption>c</caption><tr><th>a</th></tr></table>").hasPrefix("<table>"))
        #expect(markdown("<table><tr><th>a</th></tr><tr><td><ul><li>x</li></ul></td></tr></table>").hasPrefix("<table>"))
    }

    @Test func footnotesInTheCommonShapes() {
        let kramdown = """
        <p>Text<sup id="fnref:1"><a href="#fn:1" class="footnote" rel="footnote">1</a></sup>.</p>
        <div class="footnotes"><ol><li id="fn:1"><p>Note.&nbsp;<a href="#fnref:1" class="reversefootnote">&#8617;</a></p></li></ol></div>
        """
        #expect(markdown(kramdown) == "Text[^1].\n\n[^1]: Note.")
        let markdownIt = """
        <p>A<sup class="footnote-ref"><a href="#fn1" id="fnref1">[1]</a></sup> B<sup class="footnote-ref"><a href="#fn2" id="fnref2">[2]</a></sup></p>
        <hr class="footnotes-sep"><section class="footnotes"><ol class="footnotes-list">
        <li id="fn1" class="footnote-item"><p>One. <a href="#fnref1" class="footnote-backref">↩︎</a></p></li>
        <li id="fn2" class="footnote-item"><p>Two</p><p>paragraphs. <a href="#fnref2" class="footnote-backref">↩︎</a></p></li>
        </ol></section>
        """
        #expect(markdown(markdownIt) == "A[^1] B[^2]\n\n[^1]: One.\n\n[^2]: Two\n\n    paragraphs.")
        let pandoc = """
        <p>X<a href="#fn1" class="footnote-ref" id="fnref1" role="doc-noteref"><sup>1</sup></a></p>
        <section id="footnotes" class="footnotes" role="doc-endnotes"><hr /><ol><li id="fn1"><p>P. <a href="#fnref1" class="footnote-back" role="doc-backlink">↩︎</a></p></li></ol></section>
        """
        #expect(markdown(pandoc) == "X[^1]\n\n[^1]: P.")
        let html = rendered(kramdown)
        #expect(html.contains("data-footnote-ref") && html.contains("Note."))
        // A list of items with ids that nothing references stays a list.
        #expect(markdown("<ol><li id=\"a\">one</li></ol>") == "1. one")
    }

    @Test func figuresAndRawHTML() {
        #expect(markdown("<figure><img src=\"a.png\" alt=\"A\"><figcaption>The <em>caption</em></figcaption></figure>")
                == "<figure>\n\n![A](a.png)\n\n<figcaption>The <em>caption</em></figcaption>\n</figure>")
        #expect(markdown("<figure><img src=\"a.png\" alt=\"A\"></figure>") == "![A](a.png)")
        // Another site's frame becomes a link a reader can follow (EmbedsTests has the players).
        #expect(markdown("<iframe src=\"https://v.example/1\" width=\"560\"></iframe>")
                == "[Embedded content from v.example](https://v.example/1)")
        // <video> cannot start an HTML block unless its tag is alone on the line.
        #expect(markdown("<video controls src=\"a.mp4\"></video>") == "<video controls=\"\" src=\"a.mp4\">\n</video>")
        #expect(rendered("<p>x</p><video controls src=\"a.mp4\"></video>").contains("<video controls=\"\" src=\"a.mp4\">"))
        #expect(markdown("<dl><dt>T</dt><dd>D</dd></dl>") == "<dl><dt>T</dt><dd>D</dd></dl>")
        #expect(markdown("<p>Press <kbd>Ctrl</kbd>+<kbd>*</kbd>, H<sub>2</sub>O</p>") == "Press <kbd>Ctrl</kbd>+<kbd>\\*</kbd>, H<sub>2</sub>O")
        // Raw HTML cannot hold blank lines (they end it): a <pre> inside keeps them as references.
        #expect(markdown("<table><tr><th>h</th></tr><tr><td><pre>a\n\n\nb</pre></td></tr></table>").contains("a\n&#10;\nb"))
        #expect(markdown("<p>x</p><hr><p>y</p>") == "x\n\n---\n\ny")
        #expect(markdown("<my-widget data-x=\"1\">hi</my-widget>") == "<my-widget data-x=\"1\">hi</my-widget>")
    }

    @Test func moreMarker() {
        #expect(markdown("<p>Intro</p><!--more--><p>Rest</p>") == "Intro\n\n<!-- more -->\n\nRest")
        #expect(markdown("<p>Intro<!-- more -->Rest</p>") == "Intro\n\n<!-- more -->\n\nRest")
        #expect(markdown("<p>a<!-- wp:paragraph -->b</p>") == "ab")
    }

    @Test func mediumTrackingPixelAndFootersGo() {
        let html = """
        <p>Body.</p><img src="https://medium.com/_/stat?event=post.clientViewed&amp;postId=1" width="1" height="1" alt="">\
        <hr><p><a href="https://medium.com/p/1">Post</a> was originally published in <a href="https://medium.com/pub">Pub</a> on Medium.</p>
        """
        let result = HTMLToMarkdown.convert(html)
        #expect(result.markdown == "Body.\n")
        #expect(result.removed.count == 2)
        #expect(HTMLToMarkdown.convert("<p>Body.</p><p>The post <a href=\"x\">X</a> appeared first on <a href=\"y\">Y</a>.</p>").markdown == "Body.\n")
        // The phrase in the middle of a post is content.
        #expect(HTMLToMarkdown.convert("<p>It was originally published in 1999.</p><p>More.</p>").markdown.contains("1999"))
    }

    @Test func plainText() {
        #expect(HTMLToMarkdown.plainText("<p>Don&#8217;t</p><p>stop <b>now</b></p>") == "Don’t stop now")
    }
}
