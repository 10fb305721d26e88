import Foundation
import Testing

/// `lectern doctor` through the real executable: a healthy running blog passes, and each kind of
/// trouble fails with its fix and exit status 1.
@Suite(.serialized) struct DoctorCommandTests {
    func checks(_ output: String) throws -> [String: [String: String]] {
        let list = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: String]], "\(output)")
        return Dictionary(list.map { ($0["name"]!, $0) }, uniquingKeysWith: { first, _ in first })
    }

    @Test func healthyBlogPassesAndEachProblemNamesItsFix() async throws {
        try await withBlog { _, blog in

            let healthy = try checks(try lectern(["doctor", "--json"], site: blog.root))
            #expect(healthy["baseURL"]?["status"] == "warning", "a loopback baseURL is fine for trying only")
            for name in ["config", "permissions", "database", "migrations", "openssl", "keys", "disk", "clock", "libcurl", "deliveries", "reachable"] {
                #expect(healthy[name]?["status"] == "ok", "\(name): \(healthy[name] ?? [:])")
            }
            // The libraries linked, as they name themselves at run time.
            #expect(healthy["openssl"]?["detail"]?.hasPrefix("OpenSSL 3.") == true, "\(healthy["openssl"] ?? [:])")
            #expect(healthy["libcurl"]?["detail"]?.hasPrefix("libcurl/") == true, "\(healthy["libcurl"] ?? [:])")
            let version = try run([lecternBinary, "version"]).1
            #expect(version.contains("openssl 3.") && version.contains("libcurl libcurl/"), "\(version)")
            let text = try lectern(["doctor"], site: blog.root)
            #expect(text.contains("✓ reachable: http://127.0.0.1:\(blog.port) serves this blog's WebFinger and actor"), "\(text)")

            // A key readable by others.
            let key = blog.root.appendingPathComponent("data/keys/instance-actor.pem")
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: key.path)
            let loose = try lectern(["doctor", "--offline"], site: blog.root, expectSuccess: false)
            #expect(loose.contains("✗ permissions: readable by others: data/keys/instance-actor.pem"), "\(loose)")
            #expect(loose.contains("fix: chmod"))
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key.path)

            // Configuration: no baseURL; not https; a path prefix; and nobody answering at the address.
            let configFile = blog.root.appendingPathComponent("lectern.yml")
            let original = try String(contentsOf: configFile, encoding: .utf8)
            let baseLine = try #require(original.split(separator: "\n").first { $0.hasPrefix("baseURL:") })
            for (replacement, expected) in [("", "not set"), ("baseURL: http://blog.example", "is not https"),
                                            ("baseURL: https://example.com/blog", "has a path")] {
                try original.replacingOccurrences(of: String(baseLine), with: replacement).write(to: configFile, atomically: true, encoding: .utf8)
                let output = try lectern(["doctor", "--offline", "--json"], site: blog.root, expectSuccess: false)
                let result = try checks(output)
                #expect(result["baseURL"]?["status"] == "failed" && result["baseURL"]?["detail"]?.contains(expected) == true, "\(output)")
                #expect(result["baseURL"]?["fix"] != nil)
            }
            try original.replacingOccurrences(of: String(baseLine), with: "baseURL: http://127.0.0.1:\(try freePort())")
                .write(to: configFile, atomically: true, encoding: .utf8)
            let unreachable = try checks(try lectern(["doctor", "--json"], site: blog.root, expectSuccess: false))
            #expect(unreachable["reachable"]?["status"] == "failed")

            try "title: [unclosed\n".write(to: configFile, atomically: true, encoding: .utf8)
            let broken = try lectern(["doctor"], site: blog.root, expectSuccess: false)
            #expect(broken.contains("✗ config:") && broken.contains("lectern.yml"), "\(broken)")
            try original.write(to: configFile, atomically: true, encoding: .utf8)
        }
    }

    /// A damaged database is a failed check with its fix, never a crash.
    @Test func damagedDatabaseIsAFailedCheck() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-doctor-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try run([lecternBinary, "init", root.path]).0 == 0)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("data"), withIntermediateDirectories: true)
        try Data(repeating: 0x42, count: 8192).write(to: root.appendingPathComponent("data/lectern.sqlite"))
        let output = try lectern(["doctor", "--offline"], site: root, expectSuccess: false)
        #expect(output.contains("✗ database:") && output.contains("fix:"), "\(output)")
    }

    /// libcrypto and libcurl are linked: without either, the loader refuses to start `lectern`,
    /// naming the library, before any of its code runs: nothing is built, opened or written.
    @Test(arguments: ["libcrypto.so.3", "libcurl.so.4"])
    func withoutALinkedLibraryNothingStarts(library: String) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-broken-\(UUID().uuidString)")
        let libraries = root.appendingPathExtension("lib")
        defer { for folder in [root, libraries] { try? FileManager.default.removeItem(at: folder) } }
        #expect(try run([lecternBinary, "init", root.path]).0 == 0)
        try FileManager.default.createDirectory(at: libraries, withIntermediateDirectories: true)
        try Data("not a library".utf8).write(to: libraries.appendingPathComponent(library))
        let broken = ["LD_LIBRARY_PATH": libraries.path]
        for command in [["version"], ["build", "-s", root.path], ["doctor", "--offline", "--json", "-s", root.path]] {
            let (status, output) = try run([lecternBinary] + command, environment: broken)
            #expect(status == 127 && output.contains("error while loading shared libraries") && output.contains(library),
                    "\(command): \(status) \(output)")
        }
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("public").path), "nothing was built")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("data/lectern.sqlite").path), "nothing was opened")
        // With the library, the same site builds and its doctor reports the versions linked.
        #expect(try run([lecternBinary, "build", "-s", root.path]).0 == 0)
        let found = try checks(try run([lecternBinary, "doctor", "--offline", "--json", "-s", root.path]).1)
        #expect(found["openssl"]?["status"] == "ok" && found["keys"]?["status"] == "ok" && found["libcurl"]?["status"] == "ok")
    }
}
