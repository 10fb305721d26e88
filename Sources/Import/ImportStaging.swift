import BlogModel
import Foundation
import Site

/// Makes an import all or nothing. Every file an import writes goes first to a staging folder
/// inside the site (`.lectern-import-…/files/`, laid out as the site is); `check()` then builds,
/// into a scratch folder, the site as it would be with those files (its own content and static
/// files hard-linked, drafts and future posts included), with the rules every build applies;
/// only when that build succeeds does `commit()` move the files into place. A source that would
/// break the site leaves it exactly as it was, and a second try does not meet a first one's files.
///
/// ```swift
/// let staging = try ImportStaging(siteRoot: site)
/// defer { staging.discard() }
/// // … ItemWriter writes into staging.files …
/// try staging.check()
/// try staging.commit()
/// ```
struct ImportStaging {
    let siteRoot: URL
    /// Inside the site folder, so that moving the files in is a rename on one file system.
    let folder: URL
    /// The staged files, at the paths they get in the site.
    var files: URL { folder.appendingPathComponent("files") }
    private var scratch: URL { folder.appendingPathComponent("check") }

    static let prefix = ".lectern-import-"

    init(siteRoot: URL) throws {
        self.siteRoot = siteRoot.standardizedFileURL
        Self.removeAbandoned(in: self.siteRoot)
        let pid = ProcessInfo.processInfo.processIdentifier
        folder = self.siteRoot.appendingPathComponent("\(Self.prefix)\(pid)-\(UUID().uuidString.prefix(8).lowercased())")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("files"), withIntermediateDirectories: true)
    }

    /// Staging folders of imports whose process is gone (interrupted, killed): never committed,
    /// so only in the way.
    static func removeAbandoned(in root: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: root.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            let pid = name.dropFirst(prefix.count).prefix { $0.isNumber }
            guard let number = Int32(pid), kill(number, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: root.appendingPathComponent(name))
        }
    }

    /// Builds the site with the staged files added; throws the build's error (every broken file
    /// named) when it would not build.
    func check() throws {
        let manager = FileManager.default
        try manager.createDirectory(at: scratch, withIntermediateDirectories: true)
        let config = siteRoot.appendingPathComponent(SiteConfig.fileName)
        try manager.copyItem(at: config, to: scratch.appendingPathComponent(SiteConfig.fileName))
        let theme = siteRoot.appendingPathComponent("theme")
        if manager.fileExists(atPath: theme.path) {
            try manager.createSymbolicLink(at: scratch.appendingPathComponent("theme"), withDestinationURL: theme)
        }
        for name in ["content", "static"] {
            try Self.linkTree(siteRoot.appendingPathComponent(name), into: scratch.appendingPathComponent(name))
            try Self.linkTree(files.appendingPathComponent(name), into: scratch.appendingPathComponent(name))
        }
        do {
            // As the live site will build, posts coming due included; drafts are previews, never built there.
        try SiteBuilder(root: scratch).build(.init(includeDrafts: false, includeFuture: true,
                                                   outputFolder: scratch.appendingPathComponent("public")))
        } catch {
            // Name files as they would be in the site, not in the scratch folder.
            throw CheckFailure(description: "\(error)".replacingOccurrences(of: scratch.path + "/", with: ""))
        }
    }

    struct CheckFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Moves every staged file into the site. Checks first that none exists there (an import
    /// never overwrites, even a file made while it ran), and puts back what it moved if a move fails.
    func commit() throws {
        let manager = FileManager.default
        let staged = Self.relativeFiles(under: files)
        for path in staged where manager.fileExists(atPath: siteRoot.appendingPathComponent(path).path) {
            throw SiteError.io(path: path, message: "appeared while the import ran; nothing was written (never overwritten)")
        }
        var moved: [String] = []
        do {
            for path in staged {
                let target = siteRoot.appendingPathComponent(path)
                try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try manager.moveItem(at: files.appendingPathComponent(path), to: target)
                moved.append(path)
            }
        } catch {
            // Put back what was moved; what cannot be is named, never left silently in the site.
            var stuck: [String] = []
            for path in moved.reversed() {
                do { try manager.moveItem(at: siteRoot.appendingPathComponent(path), to: files.appendingPathComponent(path)) }
                catch { stuck.append(path) }
            }
            guard stuck.isEmpty else {
                throw SiteError.io(path: stuck.joined(separator: ", "),
                                   message: "written, then could not be taken back after the import stopped (\(error)); remove them by hand")
            }
            throw error
        }
    }

    /// Removes the staging folder (after a commit, the folders it left; otherwise everything).
    func discard() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Files under `root`, relative to it, in a stable order. Folders reached through symbolic
    /// links are entered (`content/posts` kept elsewhere, as the build reads it), each real
    /// folder once, so a loop ends.
    static func relativeFiles(under root: URL) -> [String] {
        var found: [String] = []
        var visited = Set<String>()
        func walk(_ folder: URL, _ relative: String) {
            guard let real = SiteFolders.realPath(folder.path), visited.insert(real).inserted,
                  let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
            for name in names {
                let url = folder.appendingPathComponent(name), path = relative.isEmpty ? name : relative + "/" + name
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { continue }
                if isFolder.boolValue { walk(url, path) } else { found.append(path) }
            }
        }
        walk(root, "")
        return found.sorted()
    }

    /// Mirrors the files under `source` into `target` as hard links (copies where a link cannot
    /// be made): the check build sees the site's files without copying their bytes.
    private static func linkTree(_ source: URL, into target: URL) throws {
        let manager = FileManager.default
        for path in relativeFiles(under: source) {
            let destination = target.appendingPathComponent(path)
            try manager.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            if manager.fileExists(atPath: destination.path) { try manager.removeItem(at: destination) }
            do {
                try manager.linkItem(at: source.appendingPathComponent(path), to: destination)
            } catch {
                try manager.copyItem(at: source.appendingPathComponent(path), to: destination)
            }
        }
    }
}
