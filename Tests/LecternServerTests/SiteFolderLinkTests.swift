import Foundation
import Testing

/// A site whose `content/`, `static/` or `data/` is a symlink out of the site folder is refused by
/// every command that would read or write through it, naming the path: a build would publish
/// whatever the link reaches (`static -> /etc`), a server would keep its database there.
@Suite struct SiteFolderLinkTests {
    @Test func foldersLinkedOutOfTheSiteAreRefused() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-links-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let root = work.appendingPathComponent("site")
        #expect(try run([lecternBinary, "init", root.path]).0 == 0)
        for folder in ["content", "static", "data"] {
            let inside = root.appendingPathComponent(folder), outside = work.appendingPathComponent("outside-\(folder)")
            try FileManager.default.createDirectory(at: inside, withIntermediateDirectories: true)
            try FileManager.default.moveItem(at: inside, to: outside)
            try FileManager.default.createSymbolicLink(at: inside, withDestinationURL: outside)
            defer {
                try? FileManager.default.removeItem(at: inside)
                try? FileManager.default.moveItem(at: outside, to: inside)
            }
            for command in [["build"], ["publish"]] {
                let output = try lectern(command, site: root, expectSuccess: false)
                #expect(output.hasPrefix("error:") && output.contains(inside.path), "\(command) with \(folder) linked out: \(output)")
            }
            let (status, output) = try runWithin(seconds: 20, [lecternBinary, "serve", "-s", root.path, "--port", "0"])
            #expect(status != 0 && output.contains(inside.path), "serve with \(folder) linked out: \(output)")
        }
        // A link that stays inside the site is the writer's own business.
        let shared = root.appendingPathComponent("assets")
        try FileManager.default.moveItem(at: root.appendingPathComponent("static"), to: shared)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("static").path, withDestinationPath: "assets")
        #expect(try lectern(["build"], site: root).contains("files written"))
    }
}

/// Runs a command that should exit by itself; killed (and reported as status -1) after `seconds`.
func runWithin(seconds: Double, _ arguments: [String]) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let deadline = Date().addingTimeInterval(seconds)
    while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    let timedOut = process.isRunning
    if timedOut { process.terminate() }
    process.waitUntilExit()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return (timedOut ? -1 : process.terminationStatus, output)
}
