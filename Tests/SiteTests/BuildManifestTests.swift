import BlogModel
import Foundation
import Testing
@testable import Site

/// The manifest is written sorted by path, whether the paths were sorted again or kept in the
/// order the last manifest listed them.
@Suite struct BuildManifestTests {
    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-manifest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func text(_ folder: URL) throws -> String {
        try String(contentsOf: try #require(records(folder).manifest(of: folder)), encoding: .utf8)
    }

    private func records(_ folder: URL) -> BuildRecords { BuildRecords(outputFolder: folder) }

    private func hash(_ text: String) -> ContentHash { var hash = ContentHash(); hash.combine(text); return hash }

    @Test func theOrderReadIsKeptOnlyForTheSamePathsAndOnlyWhenSorted() throws {
        let output = try folder()
        defer { try? FileManager.default.removeItem(at: output) }
        let paths = ["b/index.html", "a/index.html", "é/index.html", "c.xml", "a.xml"]
        var manifest = BuildManifest()
        for path in paths { manifest.files[path] = hash(path) }
        try manifest.save(tree: output, records: records(output))
        let sorted = paths.sorted()
        #expect(try text(output) == BuildManifest.header + "\n" + sorted.map { "\(hash($0).hex) \($0)\n" }.joined())

        var read = BuildManifest.load(tree: output, records: records(output))
        #expect(read.sortedPaths == sorted && read == manifest)
        read.files["a.xml"] = hash("edited")  // same paths: written in the order read, sorted
        try read.save(tree: output, records: records(output))
        #expect(try text(output).contains("\(hash("edited").hex) a.xml\n"))
        #expect(try text(output).split(separator: "\n").dropFirst().map { String($0.dropFirst(17)) } == sorted)

        // The order read is what is written (not sorted again) as long as it covers the paths.
        var trusted = BuildManifest.load(tree: output, records: records(output))
        trusted.sortedPaths = trusted.sortedPaths.map { Array($0.reversed()) }
        try trusted.save(tree: output, records: records(output))
        #expect(try text(output).split(separator: "\n").dropFirst().map { String($0.dropFirst(17)) } == sorted.reversed())
        read.files["a.xml"] = hash("edited")
        try read.save(tree: output, records: records(output))

        // The order read no longer covers the paths: sorted again, the new one in its place.
        var grown = BuildManifest.load(tree: output, records: records(output))
        grown.files.removeValue(forKey: "c.xml")
        grown.files["0.xml"] = hash("0")
        try grown.save(tree: output, records: records(output))
        #expect(try text(output).split(separator: "\n").dropFirst().map { String($0.dropFirst(17)) }
                == (sorted.filter { $0 != "c.xml" } + ["0.xml"]).sorted())

        // A manifest listed out of order (by hand, or damaged) is not trusted to be sorted.
        let file = try #require(records(output).manifest(of: output))
        try (BuildManifest.header + "\n\(hash("z").hex) z.html\n\(hash("y").hex) y.html\n").write(to: file, atomically: true, encoding: .utf8)
        let unsorted = BuildManifest.load(tree: output, records: records(output))
        #expect(unsorted.sortedPaths == nil && unsorted.files.count == 2)
        try unsorted.save(tree: output, records: records(output))
        #expect(try text(output).hasSuffix("y.html\n\(hash("z").hex) z.html\n"))
    }
}
