import BlogModel
import Foundation
import Testing

/// A reader of `public/` sees the old site or the new one, never a mix, however the build that
/// replaces it ends: `kill -9` at any moment leaves one whole tree, and the next build finishes
/// the job and clears what the killed one left behind.
@Suite struct AtomicPublishTests {
    /// 120 posts; `edited` of them say "Version B" instead of "Version A". A third of the posts
    /// changing is a "small" build (fewer than half the files), the kind that used to move files
    /// in one by one.
    func writePosts(in root: URL, edited: Int) throws {
        for number in 0..<120 {
            let version = number < edited ? "B" : "A"
            let text = "---\ntitle: Post \(number)\ndate: 2024-01-\(String(format: "%02d", number % 28 + 1))T10:\(String(format: "%02d", number % 60)):00Z\n"
                + "tags: [t\(number % 7)]\n---\nVersion \(version) of post \(number). " + String(repeating: "Words to compress. ", count: 40) + "\n"
            let url = root.appendingPathComponent("content/posts/post-\(number).md")
            if (try? String(contentsOf: url, encoding: .utf8)) != text { try text.write(to: url, atomically: true, encoding: .utf8) }
        }
    }

    /// Every file a reader can fetch, by path.
    func snapshot(_ root: URL) -> [String: Data] {
        let folder = root.appendingPathComponent("public")
        var files: [String: Data] = [:]
        for path in (try? FileManager.default.subpathsOfDirectory(atPath: folder.path)) ?? [] {
            var isFolder: ObjCBool = false
            let full = folder.appendingPathComponent(path).path
            if FileManager.default.fileExists(atPath: full, isDirectory: &isFolder), !isFolder.boolValue {
                files[path] = FileManager.default.contents(atPath: full)
            }
        }
        return files
    }

    func leftovers(_ root: URL) throws -> [String] {
        // `.public.previous` is the spare the next build fills, not a leftover.
        try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasPrefix(".public.") && $0 != ".public.previous" && $0 != ".public.build" }
    }

    /// The inode of each post page: a rename into place changes it, whatever the clock says.
    func inodes(_ root: URL) -> [UInt64] {
        (0..<120).map { number in
            var info = stat()
            return stat(root.appendingPathComponent("public/2024/post-\(number)/index.html").path, &info) == 0 ? UInt64(info.st_ino) : 0
        }
    }

    @Test func killedBuildsLeaveTheOldSiteOrTheNewOneWhole() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-atomic-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try run([lecternBinary, "init", root.path]).0 == 0)
        let sites: [Int: [String: Data]] = try [0, 40].reduce(into: [:]) { sites, edited in
            try writePosts(in: root, edited: edited)
            try lectern(["build"], site: root)
            sites[edited] = snapshot(root)
        }
        try writePosts(in: root, edited: 0)
        let start = Date()
        try lectern(["build"], site: root)
        let buildTime = Date().timeIntervalSince(start)
        #expect(snapshot(root) == sites[0], "a build of the same sources gives the same files")

        var generator = SystemRandomNumberGenerator()
        for round in 0..<8 {
            let target = round % 2 == 0 ? 40 : 0, before = 40 - target
            try writePosts(in: root, edited: target)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: lecternBinary)
            process.arguments = ["build", "-s", root.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let pagesBefore = inodes(root)
            try process.run()
            let launched = Date()
            // Half the rounds kill at a random moment of the build; the other half as soon as the
            // first page changes, when a build moving files in one by one is least done.
            let deadline = Date().addingTimeInterval(round % 4 < 2 ? Double.random(in: 0...(buildTime * 1.2), using: &generator) : buildTime * 3)
            let watchPages = round % 4 >= 2
            while process.isRunning && Date() < deadline {
                if watchPages && inodes(root) != pagesBefore { break }
                if !watchPages { usleep(500) }
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let seen = snapshot(root)
            let whole = seen == sites[before] ? "old" : seen == sites[target] ? "new" : nil
            let mixed = sites[target]!.filter { seen[$0.key] != $0.value }.count
            #expect(whole != nil, "round \(round): public/ is neither site (\(mixed) files differ from the new one)")
            print("round \(round): killed \(String(format: "%.3f", Date().timeIntervalSince(launched))) s in, public/ \(whole ?? "mixed")")

            try lectern(["build"], site: root)
            #expect(snapshot(root) == sites[target], "round \(round): the next build finishes the job")
            let left = try leftovers(root)
            #expect(left.isEmpty, "round \(round): \(left)")
        }
    }
}
