import Foundation
import Testing
@testable import WebServer

/// The smoke run of `fuzz-static-head` (`make fuzz` runs it for its budget): the fast path's
/// request reader and NIO's read every head the fast path answers the same way
/// (`StaticHeadDifferential`). Seeds from the fuzz corpus and hand-picked edge cases, then
/// 40,000 mutations of them from a fixed seed, so a failure is replayed by running it again.
@Suite struct StaticHeadDifferentialTests {
    static let edgeCases: [String] = [
        "GET / HTTP/1.1\r\nHost: a\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello",
        "GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n",
        "GET / HTTP/1.1\nHost: a\n\n",
        "GET /%00 HTTP/1.1\r\nHost: a\r\n\r\n",
        "GET /a\"b<c>{d} HTTP/1.1\r\nHost: a\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a\r\nAccept : text/html\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a\r\nIf-None-Match: \"x\"\t\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a\r\nConnection: keep-alive, upgrade\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a\r\nX: \u{7f}\r\n\r\n",
        "GET  / HTTP/1.1\r\nHost: a\r\n\r\n",
        "GET / HTTP/1.1 \r\nHost: a\r\n\r\n",
        "GET / http/1.1\r\nHost: a\r\n\r\n",
        "HEAD / HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n",
    ]

    static var seeds: [[UInt8]] {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/Corpus/fuzz-static-head")
        // Sorted: directory order differs by filesystem, and the seeded mutations must replay alike.
        let files = ((try? FileManager.default.contentsOfDirectory(at: corpus, includingPropertiesForKeys: nil)) ?? [])
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        return files.compactMap { try? [UInt8](Data(contentsOf: $0)) } + edgeCases.map { Array($0.utf8) }
    }

    static let tokens: [[UInt8]] = ["GET ", "HEAD ", " HTTP/1.1\r\n", "\r\n", "\n", "\r", "Host: x\r\n", "Accept: */*\r\n",
                                    "Connection: close\r\n", "Content-Length: 1\r\n", " ", "\t", ":", "/", "\u{0}", "\u{7f}", "é",
                                    "If-None-Match: \"a\"\r\n", "Transfer-Encoding: chunked\r\n", "\r\n\r\n"].map { Array($0.utf8) }

    @Test func everyHeadTheFastPathAnswersNIOReadsTheSame() {
        var disagreements: [String] = []
        for seed in Self.seeds {
            if let difference = StaticHeadDifferential.disagreement(seed) {
                disagreements.append("\(String(decoding: seed, as: UTF8.self).debugDescription): \(difference)")
            }
        }
        var random = SplitMix(seed: 0x1ec7e2)
        let seeds = Self.seeds
        var answered = 0
        for _ in 0..<40_000 {
            var input = seeds[Int(random.next() % UInt64(seeds.count))]
            for _ in 0...(random.next() % 4) { mutate(&input, with: &random) }
            if case .plain = input.withUnsafeBytes({ PlainRequestHead.read($0) }) { answered += 1 }
            if let difference = StaticHeadDifferential.disagreement(input), disagreements.count < 10 {
                disagreements.append("\(String(decoding: input, as: UTF8.self).debugDescription): \(difference)")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.joined(separator: "\n"))")
        #expect(answered > 1_000, "the mutations must reach the fast path often enough to mean something (\(answered))")
    }

    private func mutate(_ input: inout [UInt8], with random: inout SplitMix) {
        let position = input.isEmpty ? 0 : Int(random.next() % UInt64(input.count + 1))
        switch random.next() % 4 {
        case 0: input.insert(contentsOf: Self.tokens[Int(random.next() % UInt64(Self.tokens.count))], at: position)
        case 1: if position < input.count { input.remove(at: position) }
        case 2: if position < input.count { input[position] = UInt8(truncatingIfNeeded: random.next()) }
        default: if position < input.count { input[position] = [0x20, 0x09, 0x0D, 0x0A, 0x3A][Int(random.next() % 5)] }
        }
    }
}
