import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Makes the folders of a new output tree, parents first, and asks ext4 to spread each parent's
/// subfolders over its block groups (`chattr +T`, the Orlov allocator's "top directory"), as it
/// does for `/home`: a site's post folders are unrelated to one another.
///
/// Why: on an ext4 without a journal, every inode made within a minute of `rm -rf public` first
/// skips, one by one, the inodes just freed in its group (`recently_deleted`), so rebuilding a
/// deleted site grew with the square of its size. Spread over the disk's groups, the new folders
/// mostly land where nothing was freed: 1,100 folders of three files each, made again right
/// after deleting them, took 317 ms instead of 1.3–2.7 s. Elsewhere (tmpfs, journaled ext4,
/// other filesystems) the flag is refused or changes nothing, and the folders are made all the same.
enum FolderTree {
    /// Makes `folders` (relative to `root`, which exists) and every folder above them.
    static func make(_ folders: some Sequence<String>, in root: URL) throws {
        var all = Set<String>(), parents = Set<String>()  // "" is `root`
        for folder in folders {
            var path = Substring(folder)
            while !path.isEmpty, all.insert(String(path)).inserted {
                path = path[..<(path.lastIndex(of: "/") ?? path.startIndex)]
                parents.insert(String(path))
            }
        }
        if parents.contains("") { spreadSubfolders(root.path) }
        // Sorted, a folder comes after its parent; the flag is set before any subfolder is made.
        for folder in all.sorted() {
            let path = root.appendingPathComponent(folder).path
            guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
                throw SiteError.io(path: folder, message: "cannot make the folder: \(String(cString: strerror(errno)))")
            }
            if parents.contains(folder) { spreadSubfolders(path) }
        }
    }

    /// Sets the folder's "top directory" flag; a filesystem without it refuses, which is fine.
    private static func spreadSubfolders(_ path: String) {
        #if os(Linux)
        let getFlags: UInt = 0x8008_6601, setFlags: UInt = 0x4008_6602, topDirectory: Int32 = 0x0002_0000  // linux/fs.h
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var flags: Int32 = 0
        guard withUnsafeMutablePointer(to: &flags, { ioctl(descriptor, getFlags, $0) }) == 0,
              flags & topDirectory == 0 else { return }
        flags |= topDirectory
        _ = withUnsafeMutablePointer(to: &flags) { ioctl(descriptor, setFlags, $0) }
        #endif
    }
}
