import BlogModel
import Foundation
import Site
import Storage

/// `lectern backup` and `lectern restore`: one `.tar.gz` holding what cannot be rebuilt — a
/// consistent copy of the database (SQLite's online backup, taken while the server writes), the
/// keys, `lectern.yml`, `content/`, `theme/`, `static/`. `public/` is not saved: a build makes it.
public enum SiteBackup {
    /// What a backup holds besides the database, relative to the site folder.
    static let items = ["lectern.yml", "content", "theme", "static", "data/keys"]
    static let database = "data/lectern.sqlite"

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// Writes the archive (mode 0600: it holds the private keys); never overwrites a file.
    /// Returns what it holds, relative to the site.
    @discardableResult
    public static func create(blog: Blog, archive: URL) throws -> [String] {
        let files = FileManager.default
        guard !files.fileExists(atPath: archive.path) else { throw Failure("\(archive.path) exists; give a new file name") }
        let stage = files.temporaryDirectory.appendingPathComponent("lectern-backup-\(UUID().uuidString)")
        defer { try? files.removeItem(at: stage) }
        try files.createDirectory(at: stage.appendingPathComponent("data"), withIntermediateDirectories: true,
                                  attributes: [.posixPermissions: 0o700])
        try blog.store.backup(to: stage.appendingPathComponent(database).path)
        let present = items.filter { files.fileExists(atPath: blog.root.appendingPathComponent($0).path) }
        let partial = archive.deletingLastPathComponent().appendingPathComponent("." + archive.lastPathComponent + ".partial")
        try? files.removeItem(at: partial)
        guard files.createFile(atPath: partial.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw Failure("cannot write \(archive.path)")
        }
        do {
            try tar(["-czf", partial.path, "-C", stage.path, database, "-C", blog.root.path] + present)
            try files.moveItem(at: partial, to: archive)
        } catch {
            try? files.removeItem(at: partial)
            throw error
        }
        return [database] + present
    }

    /// Puts a backup back into `root`: refuses while a server runs for it, a site folder whose
    /// `content/`, `static/` or `data/` links out of it, and an archive holding anything but files
    /// and folders under safe relative paths (`BackupArchive`), all before writing anything;
    /// unpacks beside it, checks the database's integrity, then swaps each part in. The site folder
    /// itself is kept (its owner and mode too); the database and keys are made 0600 in 0700
    /// folders, and what is restored gets the folder's owner. Run a build after.
    @discardableResult
    public static func restore(archive: URL, into root: URL) throws -> [String] {
        let files = FileManager.default
        guard files.fileExists(atPath: archive.path) else { throw Failure("no file \(archive.path)") }
        if let server = ServerPresence(root: root).running() {
            throw Failure("a server is running for \(root.path) (\(server["address"] ?? "pid \(server["pid"] ?? "?")")); "
                          + "stop it first (systemctl stop lectern), then restore")
        }
        try SiteFolders.checkContained(root: root)
        try BackupArchive.check(archive)
        try files.createDirectory(at: root.appendingPathComponent("data"), withIntermediateDirectories: true,
                                  attributes: [.posixPermissions: 0o700])
        // Unpacked inside the site folder, so the swaps below are renames on one file system.
        let stage = root.appendingPathComponent(".restore-\(UUID().uuidString)")
        defer { try? files.removeItem(at: stage) }
        try files.createDirectory(at: stage, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        // No owner or mode from the archive: modes come from the umask, then `makePrivate`.
        try tar(["-xzf", archive.path, "-C", stage.path, "--no-same-owner", "--no-same-permissions"])
        try BackupArchive.checkUnpacked(stage)
        guard files.fileExists(atPath: stage.appendingPathComponent("lectern.yml").path) else {
            throw Failure("\(archive.path) is not a Lectern backup (no lectern.yml inside)")
        }
        let restoredDatabase = stage.appendingPathComponent(database)
        if files.fileExists(atPath: restoredDatabase.path) { try Store.checkIntegrity(path: restoredDatabase.path) }

        try makePrivate(stage)
        let parts = ([database] + items).filter { files.fileExists(atPath: stage.appendingPathComponent($0).path) }
        let owner = try files.attributesOfItem(atPath: root.path)
        for part in parts {
            let target = root.appendingPathComponent(part)
            if part == database {
                // A stale WAL left next to the restored file would be replayed into it: it must go.
                for suffix in ["-wal", "-shm"] where files.fileExists(atPath: target.path + suffix) {
                    try files.removeItem(atPath: target.path + suffix)
                }
            }
            if files.fileExists(atPath: target.path) { try files.removeItem(at: target) }
            try files.moveItem(at: stage.appendingPathComponent(part), to: target)
            try giveOwnership(of: target, like: owner)
        }
        try setMode(0o700, root.appendingPathComponent("data").path)
        return parts
    }

    /// The database and the keys, readable by the site's owner alone: 0600 files in 0700 folders
    /// (as `lectern doctor` wants them), whatever the archive or the umask said.
    static func makePrivate(_ stage: URL) throws {
        let data = stage.appendingPathComponent("data"), keys = stage.appendingPathComponent("data/keys")
        for folder in [data, keys] where FileManager.default.fileExists(atPath: folder.path) { try setMode(0o700, folder.path) }
        if FileManager.default.fileExists(atPath: stage.appendingPathComponent(database).path) {
            try setMode(0o600, stage.appendingPathComponent(database).path)
        }
        guard let walker = FileManager.default.enumerator(atPath: keys.path) else { return }
        for case let path as String in walker {
            var isFolder: ObjCBool = false
            let full = keys.appendingPathComponent(path).path
            _ = FileManager.default.fileExists(atPath: full, isDirectory: &isFolder)
            try setMode(isFolder.boolValue ? 0o700 : 0o600, full)
        }
    }

    static func setMode(_ mode: mode_t, _ path: String) throws {
        guard chmod(path, mode) == 0 else { throw Failure("cannot set the mode of \(path): \(String(cString: strerror(errno)))") }
    }

    /// When run as root (a restore by the administrator), what is restored belongs to the site
    /// folder's owner, or the service user is locked out of its own blog.
    /// Restores, then builds the site, and gives everything written (the database's -wal and -shm
    /// files, `public/` and the build's records) the folder's owner too: a restore run by root leaves nothing the service
    /// user cannot write.
    @discardableResult
    public static func restoreAndBuild(archive: URL, into root: URL) throws -> (parts: [String], written: Int) {
        let parts = try restore(archive: archive, into: root)
        let blog = try Blog.open(root: root)
        let report = try blog.build()
        let owner = try FileManager.default.attributesOfItem(atPath: root.path)
        for folder in ["data", "public", ".public.previous", ".public.build"] where FileManager.default.fileExists(atPath: root.appendingPathComponent(folder).path) {
            try giveOwnership(of: root.appendingPathComponent(folder), like: owner)
        }
        return (parts, report.written)
    }

    static func giveOwnership(of url: URL, like folder: [FileAttributeKey: Any]) throws {
        guard getuid() == 0, let user = (folder[.ownerAccountID] as? NSNumber)?.uint32Value,
              let group = (folder[.groupOwnerAccountID] as? NSNumber)?.uint32Value else { return }
        // lchown: a symlink in an archive changes owner itself, never what it points to (as root,
        // following it could hand /etc to the service user).
        func own(_ path: String) throws {
            guard lchown(path, user, group) == 0 else { throw Failure("cannot give \(path) to the site's owner: \(String(cString: strerror(errno)))") }
        }
        try own(url.path)
        guard let walker = FileManager.default.enumerator(atPath: url.path) else { return }
        for case let path as String in walker { try own(url.appendingPathComponent(path).path) }
    }

    /// Runs tar; returns what it printed. Its output goes to a file, not a second pipe: a long
    /// listing filling one pipe while we wait on the other would hang both processes.
    @discardableResult
    static func tar(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/tar")
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let listing = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-tar-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: listing.path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let output = FileHandle(forWritingAtPath: listing.path) else { throw Failure("cannot write \(listing.path)") }
        defer { try? FileManager.default.removeItem(at: listing) }
        process.standardOutput = output
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? output.close()
        guard process.terminationStatus == 0 else {
            throw Failure("tar failed: " + String(decoding: message, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        // Unreadable output is an error, never an empty listing: restore trusts what this says.
        return String(decoding: try Data(contentsOf: listing), as: UTF8.self)
    }
}
