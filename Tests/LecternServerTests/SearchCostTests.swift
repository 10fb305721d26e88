import BlogModel
import Foundation
import LecternRuntime
import Storage
import Testing

/// What one search may cost, through the real server: a query's terms and prefixes are bounded
/// before it runs, and however many arrive at once, searching never starves page serving.
@Suite(.serialized) struct SearchCostTests {
    /// `count` posts of 400 words from a vocabulary of ~2,000 (so every letter starts many words,
    /// and a one-letter prefix merges hundreds of lists), straight into the store's index.
    private func index(_ count: Int, in blog: BlogFixture) throws {
        var generator = SplitMix(seed: 36)
        let syllables = ["lo", "rem", "ip", "sum", "do", "lor", "sit", "am", "et", "con", "sec", "tur", "ad", "pi", "scing",
                         "el", "it", "sed", "ei", "us", "mod", "tem", "por", "in", "ci", "dunt", "ut", "la", "bo", "re",
                         "ma", "gna", "ali", "qua", "en", "im", "ve", "ni", "qu", "is", "nos", "trud", "ex", "er", "ta", "ti",
                         "on", "ul", "zo", "ka", "fy", "gu", "hw", "jo", "wy", "vo", "by", "xa"]
        let words = (0..<2000).map { _ in (0..<3).map { _ in syllables[Int(generator.next() % UInt64(syllables.count))] }.joined() }
        let documents = (0..<count).map { i in
            SearchDocument(path: "/2020/p\(i)/", title: "Post \(i) " + words[i % words.count], tags: [],
                           body: (0..<400).map { _ in words[Int(generator.next() % UInt64(words.count))] }.joined(separator: " "),
                           published: Date(timeIntervalSince1970: 1_600_000_000 + Double(i) * 3600), sourceHash: "h\(i)")
        }
        try blog.store.search.updateSearchIndex(documents, removing: [])
    }

    /// Enough that the worst query took a second of CPU before it was bounded (~0.9 s on 5,000).
    private static let posts = 5000
    private static let letters = "abcdefghijklmnopqrstuvwxyz".map(String.init)
    /// Every one-letter prefix, OR'd: the whole index merged, twice, and snippets from it.
    private static let worstCase = letters.map { $0 + "*" }.joined(separator: " OR ")
    /// As many terms as the bounds allow, each as short a prefix as allowed.
    private static let worstAllowed = ["lo", "re", "ip", "do", "si", "am", "co", "ta"].map { $0 + "*" }.joined(separator: " OR ")

    private func encoded(_ query: String) -> String {
        query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }

    @Test func costlyQueriesAreBoundedBeforeTheyRun() async throws {
        try await withBlog(background: false) { _, blog in
            try index(Self.posts, in: blog)
            func timed(_ query: String) async throws -> (status: Int, body: String, seconds: Double) {
                let start = ContinuousClock.now
                let (status, body) = try await blog.get("/search?q=" + encoded(query))
                let elapsed = ContinuousClock.now - start
                return (status, body, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            }
            let worst = try await timed(Self.worstCase)
            #expect(worst.status == 200 && worst.body.contains("at least 2 letters"), "\(worst.body.suffix(2000))")
            #expect(worst.seconds < 0.5, "26 one-letter prefixes: \(worst.seconds) s")
            // Many two-letter prefixes: only the first 8 terms are searched, and the page says so.
            let many = try await timed(Self.letters.map { $0 + "e*" }.joined(separator: " OR "))
            #expect(many.status == 200 && many.body.contains("only its first 8 words were searched"), "\(many.body.suffix(2000))")
            #expect(many.seconds < 0.5, "\(many.seconds) s")
            let allowed = try await timed(Self.worstAllowed)
            #expect(allowed.status == 200 && allowed.body.contains("posts match"), "\(allowed.body.suffix(2000))")
            #expect(allowed.seconds < 0.5, "the costliest query the bounds let through: \(allowed.seconds) s")
            // Ordinary searches are untouched.
            let plain = try await blog.get("/search?q=" + encoded("lorem OR ipsum* \"dolor sit\""))
            #expect(plain.status == 200 && !plain.body.contains("search-notice"), "\(plain.body.suffix(2000))")
        }
    }

    /// Eight clients search as fast as answers come (costly queries, the worst ones included)
    /// while another loads `/` again and again: pages are answered as fast as on a quiet server.
    @Test func aSearchFloodDoesNotStarvePages() async throws {
        try await withBlog(background: false) { _, blog in
            try index(Self.posts, in: blog)
            let port = blog.port
            let quiet = try await OffPool.run { try pageLatencies(port: port, count: 100) }
            let stop = Box(false)
            let searches = Box<[Int: Int]>([:])
            let slowestSearch = Box(0.0)
            let queries = [Self.worstCase, Self.worstAllowed, Self.letters.map { $0 + "e*" }.joined(separator: " OR ")]
            let flood = (0..<8).map { client in
                Task {
                    var round = client
                    while !stop.value {
                        let start = Date()
                        let status = (try? await blog.get("/search?q=" + encoded(queries[round % queries.count])).status) ?? 0
                        let seconds = Date().timeIntervalSince(start)
                        searches.update { $0[status, default: 0] += 1 }
                        slowestSearch.update { $0 = max($0, seconds) }
                        round += 1
                    }
                }
            }
            try await Task.sleep(for: .milliseconds(300))  // every client has a search running
            let busy = try await OffPool.run { try pageLatencies(port: port, count: 200) }
            stop.value = true
            for task in flood { await task.value }
            let quietP99 = percentile(quiet, 0.99), busyP95 = percentile(busy, 0.95)
            let report = "GET / p50/p99/max quiet \(ms(percentile(quiet, 0.5)))/\(ms(quietP99))/\(ms(quiet.max()!)), during the flood "
                + "\(ms(percentile(busy, 0.5)))/\(ms(busyP95)) (p95)/\(ms(percentile(busy, 0.99)))/\(ms(busy.max()!)); searches answered by status: \(searches.value), "
                + "the slowest in \(ms(slowestSearch.value))"
            print(report)
            #expect(searches.value.values.reduce(0, +) >= 8, "the flood ran: \(report)")
            // 50 ms; on a machine so busy that even a quiet p99 is long, 50 ms more than that. The
            // p95 of 200, not the p99 (the second slowest), so that one stall of the machine's
            // scheduler does not decide: starved pages are slow by the dozen.
            #expect(busyP95 < max(0.05, quietP99 + 0.05), "\(report)")
            // Each search waits for at most 7 before it, each stopped after 100 ms of CPU (with
            // the pages, and anything else on the machine, first). Unbounded, 8 at once took 1.6 s.
            #expect(slowestSearch.value < 1.5, "\(report)")
        }
    }
}

/// `count` GETs of `/` one after another on one kept-alive connection: each one's seconds from
/// sending to the last byte of the answer.
func pageLatencies(port: Int, count: Int) throws -> [Double] {
    let connection = try RawConnection(port: port)
    var latencies: [Double] = []
    for _ in 0..<count {
        let start = Date()
        connection.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        var received: [UInt8] = []
        var expected: Int?
        while expected.map({ received.count < $0 }) ?? true {
            guard let chunk = connection.receiveBytes(within: 10), !chunk.isEmpty else { throw CancellationError() }
            received += chunk
            if expected == nil, let end = received.indices.dropLast(3).first(where: { received[$0..<$0 + 4].elementsEqual([13, 10, 13, 10]) }) {
                let head = String(decoding: received[..<end], as: UTF8.self).lowercased()
                let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) } ?? 0
                expected = end + 4 + length
            }
        }
        latencies.append(Date().timeIntervalSince(start))
    }
    return latencies
}

func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)]
}

private func ms(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }

/// A small deterministic generator: the same corpus on every run.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
