import BlogModel
import Foundation
import Testing
import Yams

/// Our TOML reader (`TOMLFrontMatter`, kept over a library: it converts TOML into YAML with
/// every key on its own file line, so an error in front matter names its line, which no TOML
/// library's values can tell) against CPython's `tomllib` (the reference reader, TOML 1.0) on
/// the shapes front matter takes: every document both readers take must mean the same, and one
/// that `tomllib` refuses we refuse too. Skips, saying so, without a Python that has `tomllib`.
@Suite struct TOMLDifferentialTests {
    static let documents: [String] = [
        #"title = "Hello""#,
        #"title = "Tabs\tand \"quotes\" \\ back \u00E9 \U0001F600""#,
        #"path = 'C:\Users\x'"#,
        "text = \"\"\"\nline one\nline two \\\n   joined\"\"\"",
        "raw = '''\nfirst\n  second\\n'''",
        "n = 42\nneg = -17\nplus = +99\nbig = 1_000_000",
        "hex = 0xDEAD_beef\noct = 0o755\nbin = 0b1101",
        "f = 3.14\ne = 6.02e23\nu = 9_224.5\nm = -0.0\nsmall = 5e-3",
        "yes = true\nno = false",
        #"tags = ["a", "b", "c"]"#,
        "nested = [[1, 2], [\"x\"], []]",
        "mixed = [\n  \"one\", # a comment\n  \"two\",\n]",
        #"point = { x = 1, y = "two", z = [3] }"#,
        "[taxonomies]\ntags = [\"swift\"]\ncategories = [\"notes\"]",
        "[extra]\ncomments = true\n[extra.social]\nmastodon = \"@me@x.example\"",
        "a.b.c = 1\na.d = 2",
        #""quoted key" = "v""#,
        #"'literal key' = 1"#,
        "[[authors]]\nname = \"Ada\"\n[[authors]]\nname = \"Grace\"",
        "title = \"x\" # trailing comment\n# whole line\nweight = 10",
        "empty = \"\"\nspace = \" \"",
        "[params]\nsummary = \"\"\"\nTwo\nlines\"\"\"\ndraft = false",
        // Not TOML: both refuse.
        "title = ",
        "title = \"unclosed",
        "a = 1\na = 2",
        "[t]\nx = 1\n[t]\ny = 2",
        "n = 0x",
        "x = [1, 2",
        "key without value",
        "b = tru",
        "s = 'multi\nline'",
        "n = 01",
    ]

    @Test func weReadWhatTomllibReads() throws {
        guard let reference = Self.tomllib(Self.documents) else {
            print("SKIP TOMLDifferentialTests: python3 with tomllib is not available")
            return
        }
        for (document, expected) in zip(Self.documents, reference) {
            let ours: String?
            do {
                let yaml = try TOMLFrontMatter.yaml(fromTOML: document, file: "x.md", firstLine: 2)
                ours = TOMLFrontMatterTests.canonical(TOMLFrontMatterTests.plain(try Yams.load(yaml: yaml, Resolver.default.removing(.timestamp))))
            } catch {
                ours = nil
            }
            #expect(ours == expected, "\(document.debugDescription)")
        }
    }

    /// Each document as `tomllib` reads it, in `TOMLFrontMatterTests.canonical`'s text form (nil
    /// where it refuses), or nil without it.
    static func tomllib(_ documents: [String]) -> [String?]? {
        let script = """
            import json, math, sys, tomllib
            def canonical(v):
                if isinstance(v, dict): return "{" + ", ".join(f"{k}: {canonical(v[k])}" for k in sorted(v)) + "}"
                if isinstance(v, list): return "[" + ", ".join(canonical(x) for x in v) + "]"
                if isinstance(v, str): return '"' + v + '"'
                if isinstance(v, bool): return "true" if v else "false"
                if isinstance(v, float) and math.isnan(v): return "nan"
                return repr(v)
            out = []
            for text in json.load(sys.stdin):
                try: out.append(canonical(tomllib.loads(text)))
                except tomllib.TOMLDecodeError: out.append(None)
            json.dump(out, sys.stdout)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let input = Pipe(), output = Pipe()
        (process.standardInput, process.standardOutput, process.standardError) = (input, output, FileHandle.nullDevice)
        guard (try? process.run()) != nil else { return nil }
        input.fileHandleForWriting.write(try! JSONSerialization.data(withJSONObject: documents))
        try? input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let results = try? JSONSerialization.jsonObject(with: data) as? [Any] else { return nil }
        return results.map { $0 as? String }
    }
}
