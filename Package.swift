// swift-tools-version:6.0
import PackageDescription

// Our own code is held to "no warnings"; CI builds with -warnings-as-errors via the Makefile.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Lectern",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "lectern", targets: ["lectern"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", exact: "2.28.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", exact: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams.git", exact: "6.2.2"),
        .package(url: "https://github.com/apple/swift-http-structured-headers.git", exact: "1.7.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", exact: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", exact: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", exact: "2.4.1"),
    ],
    targets: [
        // System libraries (Debian packages, found through pkg-config), linked as usual: the
        // loader finds them when `lectern` starts, or refuses to start it.
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CCmark", pkgConfig: "libcmark-gfm",
                       providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]),
        .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        // The Public Suffix List through libpsl: webmention bounds per registrable domain.
        .systemLibrary(name: "CPSL", pkgConfig: "libpsl", providers: [.apt(["libpsl-dev"])]),

        .target(name: "CThreadName"),
        // glibc's mallopt and malloc_trim (<malloc.h>), for the serving process's heap.
        .target(name: "CHeap"),
        .target(name: "Parallel", dependencies: ["CThreadName"], swiftSettings: swiftSettings),
        .target(name: "LecternCrypto", dependencies: ["CCrypto"], swiftSettings: swiftSettings),
        .target(name: "Dates", swiftSettings: swiftSettings),
        .target(name: "HTTPSignatures", dependencies: ["LecternCrypto", "Dates"], swiftSettings: swiftSettings),
        // Object integrity proofs (FEP-8b32): RFC 8785 canonical JSON, base58btc/Multikey, eddsa-jcs-2022.
        .target(name: "DataIntegrity", dependencies: ["LecternCrypto", "Dates"], swiftSettings: swiftSettings),
        // One HTML tokenizer and one tree over it (the sanitizer's, Webmention's and the importer's
        // readings as options), character references, the remote-HTML sanitizer and `WebURL`.
        .target(name: "HTMLMarkup", swiftSettings: swiftSettings),
        // The blog's own vocabulary, below everything that is about the blog: the settings of
        // `lectern.yml`, posts and pages with their front matter, comments, hosts and origins,
        // and text (one escape, one plain-text reading).
        .target(name: "BlogModel", dependencies: ["Dates", "HTMLMarkup", .product(name: "Yams", package: "Yams")],
                swiftSettings: swiftSettings),
        // Code blocks coloured at build time (our own lexers: see its README for why).
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
        // The SQL files of migrations/ compiled in, so the binary carries its schema.
        .target(name: "LecternMigrations", path: "migrations", exclude: [], sources: ["Migrations.swift"],
                resources: [.embedInCode("0001_initial.sql"), .embedInCode("0002_inbox_outbox.sql"),
                            .embedInCode("0003_trust_identity.sql"), .embedInCode("0004_silence.sql"),
                            .embedInCode("0005_digest_numbers.sql"), .embedInCode("0006_search.sql"),
                            .embedInCode("0007_search_state.sql"), .embedInCode("0008_tombstones_and_limits.sql"),
                            .embedInCode("0009_signature_memory.sql"), .embedInCode("0010_following.sql"),
                            .embedInCode("0011_webmention.sql"), .embedInCode("0012_assertion_keys.sql"),
                            .embedInCode("0013_held_inbound.sql"),
                            .embedInCode("0014_post_fingerprint_source.sql"), .embedInCode("0015_newsletter.sql"),
                            .embedInCode("0016_thread_backfill.sql"), .embedInCode("0017_unix_seconds.sql")]),
        // sqlite3_db_config, which is variadic (Swift cannot call it), and a WAL hook in C.
        .target(name: "CSQLiteShim", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(
            name: "Storage",
            dependencies: ["BlogModel", "CSQLiteShim", "CPSL", "LecternMigrations", .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        .target(name: "ActivityStreams", swiftSettings: swiftSettings),
        // `lectern import`: feeds, WordPress, Ghost, Hugo/Jekyll/Zola folders → posts with front matter.
        .target(name: "Import", dependencies: ["BlogModel", "Dates", "HTMLMarkup", "Site", .product(name: "Yams", package: "Yams")], swiftSettings: swiftSettings),
        // Outgoing HTTP over libcurl with the SSRF guard, shared by key fetching and delivery.
        .target(name: "OutboundHTTP", dependencies: ["CCurl", "Parallel"], swiftSettings: swiftSettings),
        // The protocol: documents, discovery, dereferencing, keys and their budget, origin rules,
        // object proofs, the inbox gate, FEP-8fcf. What the blog does with it is Interactions'.
        .target(
            name: "ActivityPub",
            dependencies: ["ActivityStreams", "BlogModel", "Dates", "DataIntegrity", "HTMLMarkup", "HTTPSignatures", "OutboundHTTP",
                           "LecternCrypto", "Parallel", "Storage",
                           .product(name: "Logging", package: "swift-log"), .product(name: "Metrics", package: "swift-metrics")],
            swiftSettings: swiftSettings
        ),
        // What the blog does with the protocol: applies the inbox, publishes, digests, follows,
        // moderation and owner commands.
        .target(
            name: "Interactions",
            dependencies: ["ActivityPub", "ActivityStreams", "BlogModel", "Dates", "DataIntegrity", "HTMLMarkup", "HTTPSignatures",
                           "OutboundHTTP", "LecternCrypto", "Parallel", "Storage",
                           .product(name: "Logging", package: "swift-log"), .product(name: "Metrics", package: "swift-metrics")],
            swiftSettings: swiftSettings
        ),
        // The outbox worker: the store's delivery queue over libcurl's multi interface.
        .target(name: "Delivery",
                dependencies: ["Dates", "OutboundHTTP", "HTTPSignatures", "LecternCrypto", "Parallel", "Storage",
                               .product(name: "Logging", package: "swift-log"), .product(name: "Metrics", package: "swift-metrics")],
                swiftSettings: swiftSettings),
        // The newsletter's mail: messages composed with every header made safe, and handed to the
        // operator's relay over SMTP through libcurl.
        .target(name: "Mail", dependencies: ["BlogModel", "CCurl"], swiftSettings: swiftSettings),
        // Webmention received (the request, then the source read into the comment paths) and
        // sent (endpoint discovery, the form POST over the delivery queue and its policy).
        .target(name: "Webmention",
                dependencies: ["ActivityStreams", "BlogModel", "Delivery", "HTMLMarkup", "OutboundHTTP", "Interactions", "Parallel", "Storage",
                               .product(name: "Logging", package: "swift-log"), .product(name: "Metrics", package: "swift-metrics")],
                swiftSettings: swiftSettings),
        // One way to open a blog, for the server and every command; its background work as services.
        .target(
            name: "LecternRuntime",
            dependencies: [
                "ActivityPub", "BlogModel", "Delivery", "Interactions", "Mail", "Site", "Storage", "Webmention", "OutboundHTTP", "LecternCrypto", "Parallel", "CThreadName", "CHeap",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WebServer",
            dependencies: [
                "LecternRuntime", "ActivityPub", "BlogModel", "Dates", "Interactions", "Parallel", "Site", "HTTPSignatures", "Storage", "LecternCrypto", "Webmention",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "lectern",
            dependencies: [
                "BlogModel", "Site", "SyntaxHighlight", "WebServer", "LecternRuntime", "LecternCrypto", "HTTPSignatures", "ActivityPub", "Interactions", "Webmention", "Delivery", "Storage", "DataIntegrity",
                "OutboundHTTP", "Import", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),

        // bench/signatures: our signing and verification rates, next to `openssl speed`.
        .executableTarget(name: "signature-bench", dependencies: ["HTTPSignatures", "LecternCrypto"],
                          path: "bench/signature-bench", swiftSettings: swiftSettings),
        // bench/inbox and bench/fanout: a fake fediverse server and a signed-request generator.
        .executableTarget(name: "federation-bench",
                          dependencies: ["OutboundHTTP", "HTTPSignatures", "LecternCrypto", "Storage",
                                         .product(name: "Hummingbird", package: "hummingbird")],
                          path: "bench/federation-bench", swiftSettings: swiftSettings),

        // make soak / make chaos (docs/reliability.md): a fake fediverse, mixed load, flaky inboxes and
        // kill -9 against a real `lectern serve`.
        .executableTarget(name: "lectern-soak",
                          dependencies: ["OutboundHTTP", "HTTPSignatures", "LecternCrypto", "Storage",
                                         .product(name: "Hummingbird", package: "hummingbird"),
                                         .product(name: "ArgumentParser", package: "swift-argument-parser")],
                          path: "Tests/Soak", swiftSettings: swiftSettings),

        .testTarget(name: "SiteTests", dependencies: ["BlogModel", "Site", "SyntaxHighlight", "HTMLMarkup", "Parallel", "ActivityStreams", "Dates"], resources: [.copy("Golden"), .copy("MustacheSpec")],
                    swiftSettings: swiftSettings),
        .testTarget(
            name: "LecternServerTests",
            dependencies: [
                "WebServer", "LecternRuntime", "BlogModel", "Site", "OutboundHTTP", "HTTPSignatures", "LecternCrypto", "Storage", "Delivery", "DataIntegrity",
                "ActivityPub", "Interactions", "Webmention",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            exclude: ["Support/html_allowlist.py", "Support/smtp_sink.py"],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "FederationTests", dependencies: ["ActivityPub", "BlogModel", "Interactions", "Webmention", "Site", "Storage", "LecternCrypto", "DataIntegrity"],
                    resources: [.copy("Golden")], swiftSettings: swiftSettings),
        .testTarget(name: "DataIntegrityTests", dependencies: ["DataIntegrity", "LecternCrypto"], exclude: ["rfc8785_canonical.py"], resources: [.copy("Vectors")],
                    swiftSettings: swiftSettings),
        .testTarget(name: "HTTPClientTests", dependencies: ["OutboundHTTP"], swiftSettings: swiftSettings),
        .testTarget(name: "MailTests", dependencies: ["Mail", "BlogModel", "LecternRuntime", "LecternCrypto"], exclude: ["read_mail.py"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "ImportTests", dependencies: ["BlogModel", "Import", "HTMLMarkup", "Site", .product(name: "Yams", package: "Yams")],
                    swiftSettings: swiftSettings),
        // The one tokenizer against the two it replaced (copies kept in the target as references).
        .testTarget(name: "HTMLMarkupTests", dependencies: ["HTMLMarkup"], exclude: ["Microformats"], swiftSettings: swiftSettings),
        .testTarget(name: "StoreTests", dependencies: ["Storage", "LecternMigrations"], swiftSettings: swiftSettings),
        // Some tests call OpenSSL directly: to forge encodings, and as the oracle.
        .testTarget(name: "LecternCryptoTests", dependencies: ["LecternCrypto", "CCrypto"], swiftSettings: swiftSettings),
        .testTarget(name: "HTTPSignaturesTests", dependencies: ["Dates", "HTTPSignatures", .product(name: "RawStructuredFieldValues", package: "swift-http-structured-headers")],
                    exclude: ["Interop"], resources: [.copy("Vectors")], swiftSettings: swiftSettings),
    ]
)
