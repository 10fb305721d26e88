import Foundation
import Testing

/// `/search` on the real server: the index follows every build (the server's and the CLI's),
/// results are ranked with marked snippets in the theme, and no query can break the page.
@Suite struct SearchTests {
    @Test func searchFindsPostsAndFollowsBuildsFromAnyProcess() async throws {
        try await withBlog { _, blog in
            let empty = try await blog.get("/search")
            #expect(empty.status == 200 && empty.body.contains(#"<form class="search-form" action="/search""#))
            let welcome = try await blog.get("/search?q=lectern")
            #expect(welcome.status == 200)
            #expect(welcome.body.contains(#"<a href="/2025/welcome-to-lectern/">"#), "\(welcome.body)")
            #expect(welcome.body.contains("<mark>"), "matched words are marked")

            // A post written and built by the CLI is found by the running server at once.
            let file = blog.root.appendingPathComponent("content/posts/zebras.md")
            try "---\ntitle: On zebras\ndate: \(dated())\ntags: [stripes]\n---\nZebras & <b>stripes</b> in the savanna.\n"
                .write(to: file, atomically: true, encoding: .utf8)
            try lectern(["build"], site: blog.root)
            let zebras = try await blog.get("/search?q=savanna")
            #expect(zebras.body.contains("/\(thisYear)/on-zebras/"))
            #expect(zebras.body.contains("One post matches “savanna”."))
            #expect(zebras.body.contains("<mark>savanna</mark>"))
            #expect(try await blog.get("/search?q=stripes").body.contains("On zebras"), "tags are searched")
            let form = try await blog.get("/search?q=zebras+savanna")
            #expect(form.body.contains("One post matches “zebras savanna”."), "a form's + is a space")
            // Renamed: one post gone and one new in the same build, so the counts alone balance.
            let renamed = blog.root.appendingPathComponent("content/posts/okapis.md")
            try "---\ntitle: On okapis\ndate: \(dated())\n---\nOkapis in the forest.\n".write(to: renamed, atomically: true, encoding: .utf8)
            try FileManager.default.removeItem(at: file)
            try lectern(["build"], site: blog.root)
            #expect(try await blog.get("/search?q=savanna").body.contains("Nothing matches “savanna”."), "removed posts leave the index")
            #expect(try await blog.get("/search?q=forest").body.contains("/\(thisYear)/on-okapis/"))
            try FileManager.default.removeItem(at: renamed)
            try lectern(["build"], site: blog.root)
            #expect(try await blog.get("/search?q=forest").body.contains("Nothing matches “forest”."))
        }
    }

    @Test func hostileAndBrokenQueriesGetAPageNeverAnError() async throws {
        try await withBlog { _, blog in
            let script = try await blog.get("/search?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E%22%3E")
            #expect(script.status == 200)
            #expect(!script.body.contains("<script>alert"), "the query is escaped wherever it is shown")
            #expect(script.body.contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;"))
            let syntax = try await blog.get("/search?q=%22unbalanced+c%2B%2B")
            #expect(syntax.status == 200 && syntax.body.contains("its words were searched instead"), "\(syntax.body)")
            for bad in ["page=0", "page=abc", "page=51"] {
                #expect(try await blog.get("/search?q=lectern&\(bad)").status == 400, "\(bad)")
            }
            let long = try await blog.get("/search?q=" + String(repeating: "a%20OR%20", count: 2000))
            #expect(long.status == 200)
            #expect(long.body.utf8.count < 20_000, "a long query is cut to 200 characters, not echoed whole")
        }
    }
}
