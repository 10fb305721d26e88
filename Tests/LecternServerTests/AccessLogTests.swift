import Foundation
import Testing
@testable import WebServer

/// Access lines are buffered and written by a thread of their own: every line arrives, in
/// order, in the log's shape; a stalled output costs a bounded buffer, and the loss is told.
@Suite struct AccessLogTests {
    func pipe() -> (read: FileHandle, write: Int32) {
        var ends: [Int32] = [0, 0]
        precondition(Glibc.pipe(&ends) == 0)
        return (FileHandle(fileDescriptor: ends[0], closeOnDealloc: true), ends[1])
    }

    @Test func linesArriveInOrderWithinAFewHundredMilliseconds() async throws {
        let (reader, writer) = pipe()
        defer { close(writer) }
        let sink = AccessLogSink(descriptor: writer)
        for number in 0..<100 { sink.append(label: "lectern", "GET /\(number)/ 200 10 0.1ms") }
        let started = ContinuousClock.now
        var text = ""
        while text.split(separator: "\n").count < 100 { text += String(decoding: reader.availableData, as: UTF8.self) }
        #expect(ContinuousClock.now - started < .seconds(1), "written within 200 ms or so")
        let lines = text.split(separator: "\n")
        #expect(lines.count == 100)
        #expect(lines.first?.hasSuffix(" info lectern: component=access [WebServer] GET /0/ 200 10 0.1ms") == true, "\(lines.first ?? "")")
        #expect(lines.last?.hasSuffix("GET /99/ 200 10 0.1ms") == true)
    }

    @Test func aStalledOutputDropsLinesPastTheBoundAndSaysSo() async throws {
        // Nobody reads the pipe yet: once it is full, the writing thread waits in `write`. (The
        // pipe stays open when the test ends: that thread may still be writing into it.)
        let (reader, writer) = pipe()
        let sink = AccessLogSink(descriptor: writer)
        let line = String(repeating: "x", count: 1_000)
        for _ in 0..<(AccessLogSink.capacity / 1_000 + 500) { sink.append(label: "lectern", line) }
        let waiting = sink.waiting
        #expect(waiting.bytes <= AccessLogSink.capacity && waiting.bytes > AccessLogSink.capacity - 2_000)
        #expect(waiting.dropped > 0)
        // Read again, the waiting lines come out, then how many were dropped.
        var read = Data()
        while !String(decoding: read.suffix(200), as: UTF8.self).contains(" lines dropped (output too slow)") {
            read += reader.availableData
        }
        #expect(String(decoding: read.suffix(200), as: UTF8.self).contains("access log: \(waiting.dropped) lines dropped"))
    }
}
