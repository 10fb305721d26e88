// The oracle of the static fast path (`PlainRequestHead`, read from raw bytes before NIO sees
// them): whatever head it answers from memory, NIO's own HTTP/1.1 parser (llhttp, through
// `HTTPRequestDecoder`) must read the same way — same method, target and version, one Host,
// no body, keep-alive, the same values of the fields the answer depends on. Anything the fast
// path does not answer goes to NIO untouched, so it cannot disagree. Shared by the libFuzzer
// target `fuzz-static-head` and `StaticHeadDifferentialTests` (a symlink there).
import NIOCore
import NIOEmbedded
import NIOHTTP1
#if canImport(WebServer)
@testable import WebServer
#endif

enum StaticHeadDifferential {
    /// The fields whose values an answer from memory depends on.
    static let comparedFields = ["accept", "accept-encoding", "if-none-match", "if-modified-since"]

    /// What the two readers see differently in `bytes`; nil when they agree (or the fast path
    /// hands the bytes on).
    static func disagreement(_ bytes: [UInt8]) -> String? {
        let reading = bytes.withUnsafeBytes { PlainRequestHead.read($0) }
        guard case .plain(let head, let length) = reading else { return nil }
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)))
        defer { _ = try? channel.finish() }
        do {
            try channel.writeInbound(ByteBuffer(bytes: bytes[..<length]))
        } catch {
            return "NIO refuses a head the fast path answers: \(error)"
        }
        guard case .head(let parsed)? = try? channel.readInbound(as: HTTPServerRequestPart.self) else {
            return "NIO reads no whole head in the \(length) bytes the fast path answers"
        }
        guard case .end? = try? channel.readInbound(as: HTTPServerRequestPart.self) else {
            return "NIO reads a body after the head"
        }
        if parsed.method.rawValue != head.method.rawValue { return "method: NIO \(parsed.method.rawValue), fast path \(head.method.rawValue)" }
        if parsed.uri != head.target { return "target: NIO \(parsed.uri), fast path \(head.target)" }
        if parsed.version != .http1_1 { return "version: NIO \(parsed.version)" }
        if !parsed.isKeepAlive { return "NIO closes the connection after it" }
        if parsed.headers["host"].count != 1 { return "NIO reads \(parsed.headers["host"].count) Host fields" }
        for name in comparedFields {
            let nio = parsed.headers[name].map { $0.trimmingCharacters(in: [" ", "\t"]) }
            let fast = head.headers.first { $0.name.canonicalName == name }.map { [$0.value] } ?? []
            if nio != fast { return "\(name): NIO \(nio), fast path \(fast)" }
        }
        return nil
    }
}
