import Foundation
import Synchronization

/// The blog under test: a site folder made with `lectern init` and filled with generated posts,
/// one `lectern serve` process (killed and restarted by chaos), and `lectern publish` run by a
/// second process, as a writer would.
final class SiteUnderTest: Sendable {
    let lectern: String
    let root: URL
    let port: Int
    let logFile: URL
    private let server = Mutex<Process?>(nil)

    var baseURL: String { "http://127.0.0.1:\(port)" }
    /// The server's admin listener, whose `/metrics` tells what its memory is held by.
    var adminPort: Int { port + 1 }
    var database: String { root.appendingPathComponent("data/lectern.sqlite").path }

    init(lectern: String, root: URL, port: Int) {
        self.lectern = lectern
        self.root = root
        self.port = port
        logFile = root.deletingLastPathComponent().appendingPathComponent("serve.log")
    }

    static let words = ["river", "lantern", "harbor", "quiet", "engine", "garden", "signal", "letter", "winter", "copper",
                        "meadow", "archive", "compass", "violet", "thunder", "paper", "orbit", "station", "marble", "ferry"]

    /// `lectern init`, `posts` generated posts, the given `delivery:` settings, then the first
    /// `lectern publish` (which records the posts without announcing them).
    func create(posts: Int, delivery: String) throws {
        try? FileManager.default.removeItem(at: root)
        try? FileManager.default.removeItem(at: logFile)
        try run(["init", root.path])
        let config = root.appendingPathComponent("lectern.yml")
        var yaml = try String(contentsOf: config, encoding: .utf8)
        yaml = yaml.replacingOccurrences(of: "baseURL: http://127.0.0.1:8080", with: "baseURL: \(baseURL)")
            .replacingOccurrences(of: "  port: 8080", with: "  port: \(port)")
        yaml += "federation:\n  allowPrivateAddresses: true\ncomments:\n  moderation: open\ndelivery:\n\(delivery)"
        try yaml.write(to: config, atomically: true, encoding: .utf8)
        let folder = root.appendingPathComponent("content/posts")
        var random = SplitMix64(seed: 7)
        for n in 0..<posts {
            let date = Date(timeIntervalSince1970: 1_700_000_000 + Double(n) * 86_400)
            let tags = (0..<3).map { _ in Self.words[Int(random.next() % 20)] }
            let paragraphs = (0..<4).map { _ in
                (0..<60).map { _ in Self.words[Int(random.next() % 20)] }.joined(separator: " ").capitalized + "."
            }
            let text = """
                ---
                title: "Soak post \(n): \(tags[0]) and \(tags[1])"
                date: \(ISO8601DateFormatter().string(from: date))
                tags: [\(Set(tags).sorted().joined(separator: ", "))]
                ---

                \(paragraphs.joined(separator: "\n\n"))

                ```swift
                let post = \(n)
                ```

                """
            try text.write(to: folder.appendingPathComponent(String(format: "soak-%05d.md", n)), atomically: true, encoding: .utf8)
        }
        try run(["publish", "-s", root.path])
    }

    /// Runs a `lectern` command to its end; throws with its output when it fails.
    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: lectern)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw SoakError("lectern \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(output.suffix(2000))")
        }
        return output
    }

    /// Starts `lectern serve` (its output appended to `logFile`) and waits until it answers.
    func start() async throws {
        if !FileManager.default.fileExists(atPath: logFile.path) { _ = FileManager.default.createFile(atPath: logFile.path, contents: nil) }
        let log = try FileHandle(forWritingTo: logFile)
        log.seekToEndOfFile()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: lectern)
        process.arguments = ["serve", "-s", root.path, "--port", String(port), "--admin-port", String(adminPort)]
        process.standardOutput = log
        process.standardError = log
        try process.run()
        server.withLock { $0 = process }
        for _ in 0..<600 {
            if let response = try? await Net.get(baseURL + "/actor", accept: "application/activity+json"), response.status == 200 { return }
            guard process.isRunning else { throw SoakError("lectern serve exited \(process.terminationStatus); see \(logFile.path)") }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw SoakError("lectern serve did not answer within 60 s")
    }

    var pid: Int32? { server.withLock { $0.flatMap { $0.isRunning ? $0.processIdentifier : nil } } }

    /// `kill -9`, as a crash or the OOM killer would.
    func kill() {
        guard let process = server.withLock({ $0 }) else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// SIGTERM, then waits for the graceful exit.
    func stop() {
        guard let process = server.withLock({ $0 }), process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    /// What the server's memory is held by (`lectern_memory_bytes` in its `/metrics`, and the
    /// whole heap from `/metrics/heap`), in MB: nil while it does not answer.
    func memory() async -> ProcessSampler.HeldMemory? {
        var held: [String: Double] = [:]
        for path in ["/metrics", "/metrics/heap"] {
            guard let response = try? await Net.get("http://127.0.0.1:\(adminPort)\(path)", accept: "text/plain"),
                  response.status == 200 else { return nil }
            for line in String(decoding: response.body, as: UTF8.self).split(separator: "\n") where line.hasPrefix("lectern_memory_bytes{") {
                guard let open = line.firstIndex(of: "\""), let close = line[line.index(after: open)...].firstIndex(of: "\""),
                      let value = Double(line.split(separator: " ").last ?? "") else { continue }
                held[String(line[line.index(after: open)..<close])] = value / 1_048_576
            }
        }
        guard let heap = held["heap_in_use"], let site = held["site"], let sqlite = held["sqlite"] else { return nil }
        return .init(heapMB: heap, siteMB: site, sqliteMB: sqlite)
    }

    var logBytes: Int { (try? FileManager.default.attributesOfItem(atPath: logFile.path)[.size] as? Int) ?? 0 }

    /// Lines of the server's log, and how many of them say `error` or `critical`.
    func logLines() -> (lines: Int, errors: [String]) {
        guard let text = try? String(contentsOf: logFile, encoding: .utf8) else { return (0, []) }
        let lines = text.split(separator: "\n")
        return (lines.count, lines.filter { $0.contains(" error ") || $0.contains(" critical ") }.map(String.init))
    }

    func fileSize(_ relative: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(relative).path)[.size] as? Int) ?? 0
    }

    /// Writes a new post (or rewrites one), then `lectern publish` in a process of its own.
    func publish(slug: String, title: String, body: String, date: Date) throws -> String {
        let text = "---\ntitle: \"\(title)\"\ndate: \(ISO8601DateFormatter().string(from: date))\ntags: [soak]\n---\n\n\(body)\n"
        try text.write(to: root.appendingPathComponent("content/posts/\(slug).md"), atomically: true, encoding: .utf8)
        return try run(["publish", "-s", root.path])
    }
}
