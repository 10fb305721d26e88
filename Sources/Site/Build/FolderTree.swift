import BlogModel
import Foundation

/// Makes the folders of a new output tree, and every folder above them.
enum FolderTree {
    /// Makes `folders` (relative to `root`, which exists); a file in the way is an error naming it.
    static func make(_ folders: some Sequence<String>, in root: URL) throws {
        for folder in Set(folders).sorted() where !folder.isEmpty {
            do {
                try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
            } catch {
                throw SiteError.io(path: folder, message: "cannot make the folder: \(error.localizedDescription)")
            }
        }
    }
}
