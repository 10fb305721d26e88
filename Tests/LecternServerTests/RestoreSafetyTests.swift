import Foundation
import Testing

/// `lectern restore` runs as root: an archive is untrusted input. Anything in it that could make
/// the restore write (or later publish) outside the site folder is refused before a byte is
/// written; what it restores is private to the site's owner.
@Suite(.serialized) struct RestoreSafetyTests {
    /// A scratch folder with an empty site folder in it, owned like the service user's.
    struct Scratch {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-restore-\(UUID().uuidString)")
        var site: URL { work.appendingPathComponent("site") }
        let serviceUser = getuid() == 0 ? 65_534 : Int(getuid())

        init() throws {
            try FileManager.default.createDirectory(at: work.appendingPathComponent("site"), withIntermediateDirectories: true)
            try FileManager.default.setAttributes([.ownerAccountID: serviceUser, .groupOwnerAccountID: serviceUser,
                                                   .posixPermissions: 0o750], ofItemAtPath: site.path)
        }

        /// Writes `archive.tar.gz` with Python's tarfile, which stores names and link targets as
        /// given (GNU tar strips `/` and `..` when creating): each member is
        /// `(name, kind, target-or-content)` with kind `file`, `dir`, `symlink` or `hardlink`.
        func archive(_ members: [(String, String, String)]) throws -> URL {
            let url = work.appendingPathComponent("archive-\(UUID().uuidString).tar.gz")
            let spec = try String(decoding: JSONSerialization.data(withJSONObject: members.map { [$0.0, $0.1, $0.2] }), as: UTF8.self)
            let script = """
            import io, json, sys, tarfile
            with tarfile.open(sys.argv[1], 'w:gz', format=tarfile.GNU_FORMAT) as t:
                for name, kind, value in json.loads(sys.argv[2]):
                    info = tarfile.TarInfo(name)
                    data = b''
                    if kind == 'file': data = value.encode(); info.size = len(data); info.mode = 0o644
                    elif kind == 'dir': info.type = tarfile.DIRTYPE; info.mode = 0o755
                    elif kind == 'symlink': info.type = tarfile.SYMTYPE; info.linkname = value
                    elif kind == 'hardlink': info.type = tarfile.LNKTYPE; info.linkname = value
                    t.addfile(info, io.BytesIO(data))
            """
            let (status, output) = try run(["python3", "-c", script, url.path, spec])
            #expect(status == 0, "\(output)")
            return url
        }

        func listing() -> [String] { ((try? FileManager.default.subpathsOfDirectory(atPath: site.path)) ?? []).sorted() }
        func remove() { try? FileManager.default.removeItem(at: work) }
    }

    /// A symlink, a hard link, an absolute path or a `..` component: each refused by name, with
    /// nothing written into the site folder. Before, a symlinked `static/` pointing at a root-only
    /// folder was restored and its file published under the site.
    @Test func restoreRefusesLinksAndEscapingEntries() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let secrets = scratch.work.appendingPathComponent("root-only")
        try FileManager.default.createDirectory(at: secrets, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try "root's secret\n".write(to: secrets.appendingPathComponent("secret.txt"), atomically: true, encoding: .utf8)
        let config = ("lectern.yml", "file", "title: Hostile\nbaseURL: https://blog.example\n")
        let hostile: [(entry: String, members: [(String, String, String)])] = [
            ("static", [config, ("static", "symlink", secrets.path)]),
            ("content/posts/copy.md", [config, ("content/posts/a.md", "file", "---\ntitle: A\n---\n"),
                                       ("content/posts/copy.md", "hardlink", "content/posts/a.md")]),
            ("content/posts/shadow.md", [config, ("content/posts/shadow.md", "hardlink", "/etc/shadow")]),
            (scratch.work.appendingPathComponent("planted.txt").path,
             [config, (scratch.work.appendingPathComponent("planted.txt").path, "file", "planted\n")]),
            ("content/../../planted.txt", [config, ("content/../../planted.txt", "file", "planted\n")]),
        ]
        for (entry, members) in hostile {
            let archive = try scratch.archive(members)
            let before = scratch.listing()
            let output = try lectern(["restore", archive.path], site: scratch.site, expectSuccess: false)
            #expect(output.hasPrefix("error:") && output.contains(entry), "\(entry): \(output)")
            #expect(scratch.listing() == before, "\(entry): nothing written")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.site.appendingPathComponent("public/secret.txt").path))
        #expect(!FileManager.default.fileExists(atPath: scratch.work.appendingPathComponent("planted.txt").path))
    }

    /// The restored database and keys are readable by the site's owner alone (0600 files in 0700
    /// folders), and belong to the site folder's owner when root restores them.
    @Test func restoredSecretsArePrivateToTheSitesOwner() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let source = scratch.work.appendingPathComponent("source")
        #expect(try run([lecternBinary, "init", source.path]).0 == 0)
        try lectern(["build"], site: source)
        let archive = scratch.work.appendingPathComponent("backup.tar.gz")
        try lectern(["backup", archive.path], site: source)
        try lectern(["restore", archive.path], site: scratch.site)
        let keys = try FileManager.default.contentsOfDirectory(atPath: scratch.site.appendingPathComponent("data/keys").path)
        #expect(!keys.isEmpty)
        let expected = [("data", 0o700), ("data/keys", 0o700), ("data/lectern.sqlite", 0o600)] + keys.map { ("data/keys/\($0)", 0o600) }
        for (path, mode) in expected {
            let attributes = try FileManager.default.attributesOfItem(atPath: scratch.site.appendingPathComponent(path).path)
            #expect(attributes[.posixPermissions] as? Int == mode, "\(path): \(String(attributes[.posixPermissions] as? Int ?? 0, radix: 8))")
            #expect(attributes[.ownerAccountID] as? Int == scratch.serviceUser, "\(path) belongs to the site's owner")
        }
    }

    /// A site folder whose `data/` is a symlink out of it is refused: the restore would write the
    /// database and keys wherever the link points.
    @Test func restoreRefusesASiteWhoseDataLinksOut() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let elsewhere = scratch.work.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: scratch.site.appendingPathComponent("data"), withDestinationURL: elsewhere)
        let archive = try scratch.archive([("lectern.yml", "file", "title: T\nbaseURL: https://blog.example\n"),
                                           ("data/keys/actor.pem", "file", "not a key\n")])
        let output = try lectern(["restore", archive.path], site: scratch.site, expectSuccess: false)
        #expect(output.hasPrefix("error:") && output.contains(scratch.site.appendingPathComponent("data").path), "\(output)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty, "nothing written through the link")
    }
}
