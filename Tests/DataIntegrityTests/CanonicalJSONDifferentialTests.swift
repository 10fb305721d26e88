import DataIntegrity
import Foundation
import Testing

/// Our RFC 8785 canonicalization (`CanonicalJSON`, our own: no package in the mirror does JCS)
/// against an independent implementation, Trail of Bits' `rfc8785` (PyPI, installed by
/// `make test-tools`), on random documents: nested objects and arrays, strings of every kind of
/// scalar (controls, Latin, BMP, astral; keys too, so sorting by UTF-16 code units is exercised),
/// integers and doubles of every magnitude. The published vectors are in `VectorTests`; this is
/// what they do not cover. Skipped, visibly, where the reference is not installed.
@Suite struct CanonicalJSONDifferentialTests {
    static let referenceAvailable: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import rfc8785"]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    /// SplitMix64: a seeded generator, so a failure replays.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func string(_ random: inout Seeded) -> String {
        let ranges: [ClosedRange<UInt32>] = [0x00...0x1F, 0x20...0x7E, 0xA0...0x17F, 0x370...0x3FF, 0x4E00...0x4E80,
                                             0xE000...0xE010, 0xFFF0...0xFFFD, 0x1F300...0x1F64F, 0x10000...0x10020]
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...8, using: &random) {
            let range = ranges.randomElement(using: &random)!
            scalars.append(Unicode.Scalar(UInt32.random(in: range, using: &random))!)
        }
        return String(scalars)
    }

    static func number(_ random: inout Seeded) -> Any {
        switch Int.random(in: 0...3, using: &random) {
        case 0: return Int.random(in: -(1 << 53) + 1...(1 << 53) - 1, using: &random)
        case 1: return Int.random(in: -1000...1000, using: &random)
        case 2: return Double.random(in: -1...1, using: &random) * pow(10, Double(Int.random(in: -30...30, using: &random)))
        default:
            let value = Double(bitPattern: random.next())
            return value.isFinite ? value : 0.5
        }
    }

    static func value(_ random: inout Seeded, depth: Int) -> Any {
        let kind = depth >= 4 ? Int.random(in: 0...3, using: &random) : Int.random(in: 0...5, using: &random)
        switch kind {
        case 0: return NSNull()
        case 1: return Bool.random(using: &random)
        case 2: return number(&random)
        case 3: return string(&random)
        case 4: return (0..<Int.random(in: 0...5, using: &random)).map { _ in value(&random, depth: depth + 1) }
        default:
            var object: [String: Any] = [:]
            for _ in 0..<Int.random(in: 0...6, using: &random) { object[string(&random)] = value(&random, depth: depth + 1) }
            return object
        }
    }

    @Test(.enabled(if: referenceAvailable, "the reference, Python's rfc8785, is not installed (make test-tools)"))
    func randomDocumentsCanonicalizeAsTheReferenceDoes() throws {
        var random = Seeded(state: 8785)
        let texts = try (0..<400).map { _ in
            String(decoding: try JSONSerialization.data(withJSONObject: [Self.value(&random, depth: 0)]), as: UTF8.self)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("rfc8785_canonical.py").path]
        let (input, output) = (Pipe(), Pipe())
        (process.standardInput, process.standardOutput) = (input, output)
        try process.run()
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: texts))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let reference = try #require(try JSONSerialization.jsonObject(with: data) as? [String])
        #expect(reference.count == texts.count)
        var differences = 0
        for (text, expected) in zip(texts, reference) {
            let ours = try CanonicalJSON.parse(Array(text.utf8)).canonical()
            let theirs = [UInt8](Data(base64Encoded: expected)!)
            if ours != theirs {
                differences += 1
                if differences <= 3 {
                    Issue.record("\(text)\n  ours:   \(String(decoding: ours, as: UTF8.self))\n  rfc8785: \(String(decoding: theirs, as: UTF8.self))")
                }
            }
        }
        #expect(differences == 0, "\(differences) of \(texts.count) documents canonicalized differently")
    }
}
