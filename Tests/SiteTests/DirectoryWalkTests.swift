import Foundation
import Site
import Testing

/// `DirectoryWalk` reads each name where `readdir` put it (copying `d_name` out read past the
/// buffer's last record, and crashed `lectern serve` at start 1 time in 6 on a 1,000-post site).
@Suite struct DirectoryWalkTests {
    @Test func everyNameIsReadWholeWhateverItsLength() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("walk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub/.hidden"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Lengths 1…255 (the longest name ext4 takes), so records end at every offset of the buffer.
        var expected: [String] = ["sub", "sub/.hidden", "café ☕"]
        _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("café ☕").path, contents: nil)
        for length in 1...255 {
            let name = String(String(repeating: "abcdefghij", count: 26).prefix(length))
            let file = length % 2 == 0 ? "sub/\(name)" : String(name)
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent(file).path, contents: Data("x".utf8))
            expected.append(file)
        }
        _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("sub/.hidden/secret").path, contents: nil)
        expected.append("sub/.hidden/secret")
        let all = DirectoryWalk.entries(under: folder.path)
        #expect(Set(all.map(\.path)) == Set(expected))
        #expect(all.count == expected.count)
        let visible = DirectoryWalk.entries(under: folder.path, hidden: false).map(\.path)
        #expect(!visible.contains { $0.contains(".hidden") })
        #expect(visible.count == expected.count - 2)
    }
}
