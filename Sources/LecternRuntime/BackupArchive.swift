import Foundation

/// What a backup archive holds, read before `lectern restore` writes anything. Restore runs as
/// root, so the archive is untrusted input: only plain files and folders under relative paths
/// without `..` are restored. A symlink (or a hard link) could make the restore, the build after
/// it, or the ownership change write through to any file on the machine — a symlinked `static/`
/// once published a root-only file under the site.
enum BackupArchive {
    struct Entry: Equatable {
        /// The first letter of `tar -tv`'s mode column: `-` file, `d` folder, `l` symlink, `h` hard link…
        var type: Character
        var name: String
    }

    /// Throws, naming the entry, unless every entry is a file or folder with a safe relative path.
    static func check(_ archive: URL) throws {
        for entry in try entries(archive) {
            if let problem = problem(entry) {
                throw SiteBackup.Failure("\(archive.lastPathComponent) holds '\(entry.name)', \(problem): refused, nothing restored "
                                         + "(a backup made by lectern backup holds only files and folders inside the site)")
            }
        }
    }

    static func problem(_ entry: Entry) -> String? {
        switch entry.type {
        case "-", "d": break
        case "l": return "a symbolic link"
        case "h": return "a hard link"
        default: return "a device or other special file"
        }
        if entry.name.hasPrefix("/") { return "an absolute path" }
        if entry.name.split(separator: "/", omittingEmptySubsequences: false).contains("..") { return "a path with '..'" }
        return nil
    }

    /// The entries as GNU tar lists them: names as stored (`-P`: no leading `/` or `..` removed),
    /// C-quoted so that no name can pass for a link target or another line.
    static func entries(_ archive: URL) throws -> [Entry] {
        let listing = try SiteBackup.tar(["-tvzPf", archive.path, "--quoting-style=c"], environment: ["LC_ALL": "C"])
        return try listing.split(separator: "\n").map { line in
            guard let type = line.first, let quote = line.firstIndex(of: "\""),
                  let name = unquote(line[line.index(after: quote)...]) else {
                throw SiteBackup.Failure("\(archive.lastPathComponent): cannot read the archive's listing (\(line))")
            }
            return Entry(type: type, name: name)
        }
    }

    /// Reads a C-quoted name up to its closing quote (`\\`, `\"`, `\n`, `\t`, octal bytes).
    static func unquote(_ text: Substring) -> String? {
        var bytes: [UInt8] = [], scalars = Array(text.utf8), index = 0
        let escapes: [UInt8: UInt8] = [UInt8(ascii: "n"): 10, UInt8(ascii: "t"): 9, UInt8(ascii: "r"): 13, UInt8(ascii: "a"): 7,
                                       UInt8(ascii: "b"): 8, UInt8(ascii: "f"): 12, UInt8(ascii: "v"): 11]
        while index < scalars.count {
            let byte = scalars[index]
            if byte == UInt8(ascii: "\"") { return String(decoding: bytes, as: UTF8.self) }
            index += 1
            guard byte == UInt8(ascii: "\\"), index < scalars.count else { bytes.append(byte); continue }
            let next = scalars[index]
            if (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(next) {
                var value = 0, digits = 0
                while digits < 3, index < scalars.count, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(scalars[index]) {
                    value = value * 8 + Int(scalars[index] - UInt8(ascii: "0"))
                    index += 1
                    digits += 1
                }
                bytes.append(UInt8(truncatingIfNeeded: value))
            } else {
                bytes.append(escapes[next] ?? next)
                index += 1
            }
        }
        return nil
    }

    /// After unpacking: nothing but files and folders, and no file with a second name (a hard
    /// link unpacks as a plain file), in case tar and its listing ever disagree. Fails closed.
    static func checkUnpacked(_ folder: URL) throws {
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else {
            throw SiteBackup.Failure("cannot read the unpacked archive in \(folder.path): refused, nothing restored")
        }
        for case let path as String in walker {
            var info = stat()
            guard lstat(folder.appendingPathComponent(path).path, &info) == 0 else {
                throw SiteBackup.Failure("cannot inspect the unpacked '\(path)': refused, nothing restored")
            }
            let type = info.st_mode & S_IFMT
            if type != S_IFREG && type != S_IFDIR || (type == S_IFREG && info.st_nlink > 1) {
                throw SiteBackup.Failure("the archive unpacked '\(path)', which is neither a file nor a folder: refused, nothing restored")
            }
        }
    }
}
