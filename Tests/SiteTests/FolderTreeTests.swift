import BlogModel
import Foundation
import Testing
@testable import Site

/// A new output tree's folders: all made, and a file in the way named.
@Suite struct FolderTreeTests {
    @Test func makesEveryFolder() throws {
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
    }

    @Test func aFileInTheWayIsAnErrorNamingTheFolder() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-folders-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("x".utf8).write(to: root.appendingPathComponent("posts"))
        #expect(throws: SiteError.self) { try FolderTree.make(["posts/hello"], in: root) }
    }
}
