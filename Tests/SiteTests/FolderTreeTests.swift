import Foundation
import Testing
@testable import Site

/// A new output tree's folders: all made, parents first, and on ext4 each parent marked for
/// the allocator to spread its subfolders (`lsattr` shows `T`).
@Suite struct FolderTreeTests {
    @Test func makesEveryFolderAndMarksTheParents() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-folders-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try FolderTree.make(["2025/hello", "2025/other", "tags/swift", "", "about"], in: root)
        for folder in ["2025", "2025/hello", "2025/other", "tags", "tags/swift", "about"] {
            var isFolder: ObjCBool = false
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(folder).path, isDirectory: &isFolder) && isFolder.boolValue, "\(folder)")
        }
        // Made again over an existing tree: nothing to do, no error.
        try FolderTree.make(["2025/hello"], in: root)

        guard let rootFlags = attributes(root.path), rootFlags.contains("e") else { return }  // not ext4 (tmpfs…)
        #expect(rootFlags.contains("T"))
        for parent in ["2025", "tags"] { #expect(attributes(root.appendingPathComponent(parent).path)?.contains("T") == true, "\(parent)") }
        for leaf in ["2025/hello", "tags/swift", "about"] { #expect(attributes(root.appendingPathComponent(leaf).path)?.contains("T") == false, "\(leaf)") }
    }

    @Test func aFileInTheWayIsAnErrorNamingTheFolder() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-folders-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("x".utf8).write(to: root.appendingPathComponent("posts"))
        #expect(throws: SiteError.self) { try FolderTree.make(["posts/hello"], in: root) }
    }

    /// `lsattr -d`'s flags of `path`, nil when it cannot tell.
    private func attributes(_ path: String) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/lsattr")
        process.arguments = ["-d", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: " ").first.map(String.init)
    }
}
