import BlogModel
import Foundation
import Testing
@testable import Site
import Parallel

@Suite struct MarkdownTests {
    /// Regenerate with LECTERN_UPDATE_GOLDEN=1 after an intended change, then review the diff.
    @Test func gfmFeaturesMatchGoldenFile() throws {
        let input = try #require(Bundle.module.url(forResource: "gfm-features", withExtension: "md", subdirectory: "Golden"))
        let expectedURL = input.deletingPathExtension().appendingPathExtension("html")
        let html = MarkdownRenderer.render(try String(contentsOf: input, encoding: .utf8)).html
        if ProcessInfo.processInfo.environment["LECTERN_UPDATE_GOLDEN"] != nil {
            let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("Golden/gfm-features.html")
            try Data(html.utf8).write(to: source)
        }
        #expect(html == (try String(contentsOf: expectedURL, encoding: .utf8)))
    }

    /// What search indexes and shows in snippets is the text a reader sees, never the syntax.
    @Test func plainTextHasNoMarkdownSyntax() {
        let text = MarkdownRenderer.plainText("Done ~~not~~ *now*[^1], see [the docs](https://a.example/).\n\n```swift\nlet x = 1\n```\n\n[^1]: A note.\n")
        #expect(!text.contains("~~") && !text.contains("[^1]") && !text.contains("](") && !text.contains("```"), "\(text)")
        #expect(text.hasPrefix("Done not now"), "\(text)")
        #expect(text.contains("the docs") && text.contains("let x = 1") && text.contains("A note."), "\(text)")
    }

    @Test func footnotesAreCollectedAtTheEndWithBacklinks() {
        let html = MarkdownRenderer.render("One[^a] and two[^b].\n\n[^b]: Second.\n[^a]: First.\n").html
        let section = try! #require(html.range(of: "<section class=\"footnotes\""))
        #expect(html[section.lowerBound...].contains("href=\"#fnref-a\""))
        #expect(html[section.lowerBound...].contains("href=\"#fnref-b\""))
        #expect(html.hasSuffix("</section>\n"))
    }

    @Test func headingIdsAreUniqueAndSelfLinked() {
        let html = MarkdownRenderer.render("# Intro\n\n## Intro\n\n## `code` & Café\n").html
        #expect(html.contains("<h1 id=\"intro\">Intro <a class=\"anchor\" href=\"#intro\""))
        #expect(html.contains("<h2 id=\"intro-1\">"))
        #expect(html.contains("<h2 id=\"code-cafe\">"))
    }

    @Test func excerptIsTextBeforeMoreMarker() {
        let rendered = MarkdownRenderer.render("First.\n\nSecond.\n\n<!-- more -->\n\nThird.\n")
        #expect(rendered.excerptHTML == "<p>First.</p>\n<p>Second.</p>\n")
        #expect(rendered.hasMore)
    }

    @Test func excerptDefaultsToFirstParagraphWithoutFootnoteRefs() {
        let rendered = MarkdownRenderer.render("# Title\n\nLead[^1] text.\n\nMore.\n\n[^1]: Note.\n")
        #expect(rendered.excerptHTML == "<p>Lead text.</p>\n")
        #expect(rendered.hasMore)
        #expect(!MarkdownRenderer.render("Only one.").hasMore)
    }

    @Test func readingTimeIs225WordsPerMinuteRoundedUp() {
        let words = Array(repeating: "word", count: 451).joined(separator: " ")
        let rendered = MarkdownRenderer.render(words)
        #expect(rendered.wordCount == 451)
        #expect(rendered.readingMinutes == 3)
        #expect(MarkdownRenderer.render("").readingMinutes == 1)
    }
}

@Suite struct SlugTests {
    @Test(arguments: [
        ("Hello, World!", "hello-world"),
        ("Café crème: naïve résumé", "cafe-creme-naive-resume"),
        ("  --Leading and trailing--  ", "leading-and-trailing"),
        ("Don't panic", "dont-panic"),
        ("Straße & Ærø", "strasse-aero"),
        ("C++ / Swift 6.0", "c-swift-6-0"),
        ("日本語のタイトル", "日本語のタイトル"),
        ("!!!", ""),
    ])
    func slugs(title: String, expected: String) {
        #expect(Slug.make(title) == expected)
    }
}

@Suite struct MarkdownConcurrencyTests {
    /// cmark-gfm keeps the extensions' special characters in one process-wide table that every
    /// parser changes; unserialized parses on several threads lost strikethrough and tables now
    /// and then. Builds render posts in parallel, so this must hold.
    @Test func parallelRenderingIsDeterministic() throws {
        let source = "A ~~struck~~ word, https://example.org, and a table:\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n"
        let expected = MarkdownRenderer.render(source).html
        #expect(expected.contains("<del>struck</del>") && expected.contains("<table>"))
        let outputs = ParallelMap.map(Array(0..<2000)) { _ in MarkdownRenderer.render(source).html }
        #expect(outputs.allSatisfy { $0 == expected }, "\(outputs.filter { $0 != expected }.count) of 2000 renders differed")
    }
}

/// Parallel work runs on threads of its own, never on Dispatch's global queues (where the
/// server's request tasks run on Linux), and keeps order and the first error.
@Suite struct ParallelMapTests {
    @Test func runsOnItsOwnThreadsInOrder() throws {
        let caller = Thread.current
        // Each item takes a millisecond, so the started threads take part, not only the caller.
        let onHelpers = ParallelMap.map(Array(0..<128)) { _ -> Bool? in
            usleep(1_000)
            if Thread.current == caller { return false }
            return Thread.current.name == "lectern-map" ? true : nil
        }
        #expect(!onHelpers.contains(nil), "\(onHelpers.filter { $0 == nil }.count) items ran on an unnamed thread")
        #expect(ProcessInfo.processInfo.activeProcessorCount < 2 || onHelpers.contains(true))
        #expect(ParallelMap.map(Array(0..<1000)) { $0 * 2 } == Array(0..<1000).map { $0 * 2 })
        struct Failure: Error, Equatable { let index: Int }
        #expect(throws: Failure(index: 3)) {
            try ParallelMap.map(Array(0..<100)) { index -> Int in if index == 3 || index == 90 { throw Failure(index: index) }; return index }
        }
    }

    @Test(.enabled(if: ProcessInfo.processInfo.activeProcessorCount >= 2, "one core runs them one after the other"))
    func bothRunsTwoJobsAtOnce() throws {
        // Each waits for the other to start: run one after the other, they would wait forever.
        let started = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let (a, b) = try ParallelMap.both({ () -> String in
            started.0.signal()
            #expect(started.1.wait(timeout: .now() + 10) == .success)
            return "first"
        }, { () -> Int in
            started.1.signal()
            #expect(started.0.wait(timeout: .now() + 10) == .success)
            return 2
        })
        #expect(a == "first" && b == 2)
        struct Failure: Error, Equatable { let which: Int }
        #expect(throws: Failure(which: 1)) { try ParallelMap.both({ throw Failure(which: 1) }, { throw Failure(which: 2) }) }
        #expect(throws: Failure(which: 2)) { try ParallelMap.both({ 1 }, { throw Failure(which: 2) }) }
    }

    @Test func eventualValueReachesEveryWaiter() {
        let eventual = Eventual<Int>()
        // Four readers wait before it is provided; each gets it, and a later read does not wait.
        let provider = Background("lectern-test") {
            usleep(20_000)
            eventual.provide(42)
        }
        #expect(ParallelMap.map(Array(0..<4)) { _ in eventual.value } == [42, 42, 42, 42])
        provider.value
        #expect(eventual.value == 42)
    }

    @Test func backgroundValueIsWorkedOutOnItsOwnNamedThread() {
        let gate = DispatchSemaphore(value: 0)
        let value = Background("lectern-test") { () -> String in
            gate.wait()  // still running when made: the caller goes on meanwhile
            return Thread.current.name ?? "?"
        }
        gate.signal()
        #expect(value.value == "lectern-test")
        #expect(value.value == "lectern-test", "read twice, the same value without waiting again")
    }
}
