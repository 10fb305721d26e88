// swift-tools-version:6.0
// libFuzzer targets for Lectern (see docs/fuzzing.md). A package of its own so the fuzzers can
// reach internal APIs (`@testable import`) without touching the main package: its library
// targets are symlinks into ../Sources (and ../migrations), with the same settings as
// ../Package.swift. Build it with Fuzz/fuzz.sh (or `make fuzz`), never as part of `swift test`.
import Foundation
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

// Every migration of ../migrations, so a new one needs no edit here.
let packageDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
let migrationFiles = ((try? FileManager.default.contentsOfDirectory(
    atPath: packageDirectory.appendingPathComponent("Sources/LecternMigrations").path)) ?? [])
    .filter { $0.hasSuffix(".sql") }.sorted()

/// One libFuzzer executable: Sources/<name>/<Name>.swift defines `LLVMFuzzerTestOneInput`.
func fuzzer(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(name: name, dependencies: dependencies + ["FuzzEntryPoints"], path: "Sources/\(name)",
                      swiftSettings: swiftSettings)
}

let package = Package(
    name: "LecternFuzz",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "fuzz-front-matter", targets: ["fuzz-front-matter"]),
        .executable(name: "fuzz-sanitizer", targets: ["fuzz-sanitizer"]),
        .executable(name: "fuzz-signature-headers", targets: ["fuzz-signature-headers"]),
        .executable(name: "fuzz-activity", targets: ["fuzz-activity"]),
        .executable(name: "fuzz-static-head", targets: ["fuzz-static-head"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", exact: "2.13.0"),
        .package(url: "https://github.com/jpsim/Yams.git", exact: "6.2.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    ],
    targets: [
        // The real sources, through symlinks (Sources/Site -> ../../Sources/Site, …).
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CCmark", pkgConfig: "libcmark-gfm",
                       providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]),
        .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        .systemLibrary(name: "CPSL", pkgConfig: "libpsl", providers: [.apt(["libpsl-dev"])]),
        .target(name: "CThreadName"),
        .target(name: "Parallel", dependencies: ["CThreadName"], swiftSettings: swiftSettings),
        .target(name: "LecternCrypto", dependencies: ["CCrypto"], swiftSettings: swiftSettings),
        .target(name: "Dates", swiftSettings: swiftSettings),
        .target(name: "HTTPSignatures", dependencies: ["LecternCrypto", "Dates"], swiftSettings: swiftSettings),
        .target(name: "DataIntegrity", dependencies: ["LecternCrypto", "Dates"], swiftSettings: swiftSettings),
        .target(name: "HTMLMarkup", swiftSettings: swiftSettings),
        .target(name: "BlogModel", dependencies: ["Dates", "HTMLMarkup", .product(name: "Yams", package: "Yams")],
                swiftSettings: swiftSettings),
        .target(name: "SyntaxHighlight", swiftSettings: swiftSettings),
        .target(
            name: "Site",
            dependencies: [
                "BlogModel", "CCmark", "CDeflate", "Dates", "HTMLMarkup", "Parallel", "SyntaxHighlight",
                .product(name: "Yams", package: "Yams"),
            ],
            resources: [.embedInCode("DefaultTheme")],
            swiftSettings: swiftSettings
        ),
        .target(name: "LecternMigrations", path: "Sources/LecternMigrations", exclude: [], sources: ["Migrations.swift"],
                resources: migrationFiles.map { .embedInCode($0) }),
        .target(name: "CSQLiteShim", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(name: "Storage", dependencies: ["BlogModel", "CSQLiteShim", "CPSL", "LecternMigrations", .product(name: "GRDB", package: "GRDB.swift"),
                                             .product(name: "Logging", package: "swift-log")],
                swiftSettings: swiftSettings),
        .target(name: "ActivityStreams", swiftSettings: swiftSettings),
        .target(name: "OutboundHTTP", dependencies: ["CCurl", "Parallel"], swiftSettings: swiftSettings),
        .target(
            name: "ActivityPub",
            dependencies: ["ActivityStreams", "BlogModel", "Dates", "DataIntegrity", "HTMLMarkup", "HTTPSignatures", "OutboundHTTP",
                           "LecternCrypto", "Parallel", "Storage", .product(name: "Logging", package: "swift-log"),
                           .product(name: "Metrics", package: "swift-metrics")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Interactions",
            dependencies: ["ActivityPub", "ActivityStreams", "BlogModel", "Dates", "DataIntegrity", "HTMLMarkup", "HTTPSignatures",
                           "OutboundHTTP", "LecternCrypto", "Parallel", "Storage", .product(name: "Logging", package: "swift-log"),
                           .product(name: "Metrics", package: "swift-metrics")],
            swiftSettings: swiftSettings
        ),

        // The fuzzers. FuzzEntryPoints supplies the `<module>_main` SwiftPM links debug executables to.
        .target(name: "FuzzEntryPoints", path: "Sources/FuzzEntryPoints"),
        fuzzer("fuzz-front-matter", ["BlogModel", "Site"]),
        fuzzer("fuzz-sanitizer", ["BlogModel", "HTMLMarkup", "Site"]),
        fuzzer("fuzz-signature-headers", ["HTTPSignatures"]),
        fuzzer("fuzz-activity", ["ActivityPub", "ActivityStreams", "BlogModel", "HTMLMarkup", "Interactions", "Storage"]),
        // The fast path's reader (PlainRequestHead.swift, a symlink) against NIO's llhttp.
        fuzzer("fuzz-static-head", [.product(name: "HTTPTypes", package: "swift-http-types"),
                                    .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio"),
                                    .product(name: "NIOHTTP1", package: "swift-nio")]),
    ]
)
