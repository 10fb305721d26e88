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

    /// libcurl is opened on first use, not when `lectern` starts: without it the site still
    /// builds, and `doctor` (and `version`) say what is missing instead of the loader refusing
    /// to start the program.
    /// A new site, and an environment in which `library` is a file that does not load.
    private func siteWithBrokenLibrary(_ library: String) throws -> (URL, [String: String]) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-broken-\(UUID().uuidString)")
        let libraries = root.appendingPathExtension("lib")
        #expect(try run([lecternBinary, "init", root.path]).0 == 0)
        try FileManager.default.createDirectory(at: libraries, withIntermediateDirectories: true)
        try Data("not a library".utf8).write(to: libraries.appendingPathComponent(library))
        return (root, ["LD_LIBRARY_PATH": libraries.path])
    }

    private func remove(_ root: URL) {
        for folder in [root, root.appendingPathExtension("lib")] { try? FileManager.default.removeItem(at: folder) }
    }

    @Test func withoutLibcurlTheSiteBuildsAndDoctorSaysWhy() throws {
        let (root, broken) = try siteWithBrokenLibrary("libcurl.so.4")
        defer { remove(root) }

        let build = try run([lecternBinary, "build", "-s", root.path], environment: broken)
        #expect(build.0 == 0 && build.1.contains("files written"), "\(build.1)")
        let doctor = try run([lecternBinary, "doctor", "--offline", "--json", "-s", root.path], environment: broken)
        #expect(doctor.0 != 0)
        let libcurl = try checks(doctor.1)["libcurl"]
        #expect(libcurl?["status"] == "failed" && libcurl?["detail"]?.contains("cannot load libcurl") == true, "\(doctor.1)")
        #expect(libcurl?["fix"]?.contains("libcurl4") == true)
        #expect(try run([lecternBinary, "version"], environment: broken).1.contains("cannot load libcurl"))
        // A library that loads but is not libcurl (zlib under libcurl's name): the missing function is named.
        let zlib = "/lib/x86_64-linux-gnu/libz.so.1"
        if FileManager.default.fileExists(atPath: zlib), let folder = broken["LD_LIBRARY_PATH"] {
            let impostor = URL(fileURLWithPath: folder).appendingPathComponent("libcurl.so.4")
            try FileManager.default.removeItem(at: impostor)
            try FileManager.default.createSymbolicLink(atPath: impostor.path, withDestinationPath: zlib)
            #expect(try run([lecternBinary, "version"], environment: broken).1.contains("libcurl.so.4 has no curl_global_init"))
        }
    }

    /// libcrypto too is opened on first use: a build signs nothing and does not need it, and
    /// `doctor` says what is missing instead of failing as it reads the keys.
    @Test func withoutLibcryptoTheSiteBuildsAndDoctorSaysWhy() throws {
        let (root, broken) = try siteWithBrokenLibrary("libcrypto.so.3")
        defer { remove(root) }
        // The blog's first opening makes its keys: that needs libcrypto, and says so without it.
        let early = try checks(try run([lecternBinary, "doctor", "--offline", "--json", "-s", root.path], environment: broken).1)
        #expect(early["openssl"]?["status"] == "failed" && early["database"] == nil, "\(early)")
        let first = try run([lecternBinary, "build", "-s", root.path], environment: broken)
        #expect(first.0 != 0 && first.1.contains("load libcrypto: cannot load libcrypto"), "\(first.1)")
        #expect(try run([lecternBinary, "build", "-s", root.path]).0 == 0)

        let build = try run([lecternBinary, "build", "-s", root.path], environment: broken)
        #expect(build.0 == 0 && build.1.contains("files written"), "\(build.1)")
        let doctor = try run([lecternBinary, "doctor", "--offline", "--json", "-s", root.path], environment: broken)
        #expect(doctor.0 != 0)
        let found = try checks(doctor.1)
        #expect(found["openssl"]?["status"] == "failed" && found["openssl"]?["detail"]?.contains("cannot load libcrypto") == true,
                "\(doctor.1)")
        #expect(found["openssl"]?["fix"]?.contains("libssl3") == true)
        #expect(found["keys"] == nil, "the keys are not read without libcrypto")
        #expect(try run([lecternBinary, "version"], environment: broken).1.contains("cannot load libcrypto"))
        // With it, the same site's doctor reads the keys.
        let healthy = try checks(try run([lecternBinary, "doctor", "--offline", "--json", "-s", root.path]).1)
        #expect(healthy["openssl"]?["status"] == "ok" && healthy["keys"]?["status"] == "ok")
    }
}
