import Foundation
import RawStructuredFieldValues
import Testing
@testable import HTTPSignatures

/// Our RFC 8941 dictionary parser (kept for speed: with swift-http-structured-headers, RFC 9421
/// verification ran at 0.30× `openssl speed` instead of 0.68×, docs/signatures.md) read against
/// Apple's parser, the reference, on every signature field we have and on mutations of them:
/// both accept or both refuse, and what both accept is the same members, in the same order,
/// with the same items and parameters. Where the library reads more (RFC 9651 dates `@…` and
/// display strings `%"…"`, byte sequences it does not decode) only our refusal is checked.
@Suite struct StructuredFieldDifferentialTests {
    static var seeds: [String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let corpus = root.appendingPathComponent("Fuzz/Corpus/fuzz-signature-headers")
        // Sorted: directory order differs by filesystem, and the seeded mutations must replay alike.
        let files = ((try? FileManager.default.contentsOfDirectory(at: corpus, includingPropertiesForKeys: nil)) ?? [])
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        return files.compactMap { try? String(contentsOf: $0, encoding: .utf8) } + [
            #"sig1=("@method" "@target-uri" "host" "date" "digest");created=1618884473;keyid="test-key-rsa-pss""#,
            #"sig-b21=:YmFzZTY0:, sig-b22=();alg="ed25519""#,
            #"a=1, b=2;x=?0, a=3, c=(1 2.5 "s" tok :AA==:);p, d"#,
            #"sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:, sha-512=:AAAA:"#,
            #"a;x=?0,x=@0,x=?0,c="s\"q""#, #"a=:A:, a=1"#,  // a date and a bad byte sequence, both replaced
        ]
    }

    @Test func ourParserReadsWhatTheLibraryReads() throws {
        var random = SystemRandomNumberGenerator()
        var seed = UInt64.random(in: 0...UInt64.max, using: &random)
        let start = seed
        func next() -> UInt64 { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return seed >> 11 }
        let alphabet = Array(#"abz*09-_.:=;,() "\?@%'/+"#.utf8) + [9, 0x7f, 0xc3]
        var inputs = Self.seeds
        for _ in 0..<5_000 {
            var bytes = Array(Self.seeds[Int(next() % UInt64(Self.seeds.count))].utf8)
            for _ in 0...(next() % 3) {
                let position = bytes.isEmpty ? 0 : Int(next() % UInt64(bytes.count + 1))
                switch next() % 3 {
                case 0: bytes.insert(alphabet[Int(next() % UInt64(alphabet.count))], at: position)
                case 1: if position < bytes.count { bytes.remove(at: position) }
                default: if position < bytes.count { bytes[position] = alphabet[Int(next() % UInt64(alphabet.count))] }
                }
            }
            inputs.append(String(decoding: bytes, as: UTF8.self))
        }
        var differences: [String] = []
        var bothRead = 0
        for input in inputs where differences.count < 10 {
            let ours = try? StructuredFieldParser.dictionary(input)
            var parser = StructuredFieldValueParser(Array(input.utf8))
            let theirs = try? parser.parseDictionaryFieldValue()
            switch (ours, theirs) {
            case (nil, nil): continue
            case (let ours?, nil): differences.append("\(input.debugDescription): we read \(ours), the library refuses")
            case (nil, let theirs?):
                if !Self.onlyRFC9651(theirs) && !Self.writesRFC9651(input) { differences.append("\(input.debugDescription): the library reads \(theirs), we refuse") }
            case (let ours?, let theirs?):
                bothRead += 1
                if let difference = Self.difference(ours, theirs) { differences.append("\(input.debugDescription): \(difference)") }
            }
        }
        #expect(differences.isEmpty, "seed \(start):\n\(differences.joined(separator: "\n"))")
        #expect(bothRead > 200, "the mutations must keep enough valid fields to mean something (\(bothRead))")
    }

    /// Whether the library's reading holds what RFC 8941 does not have (or a byte sequence we
    /// would decode, and may refuse for its padding).
    static func onlyRFC9651(_ map: OrderedMap<String, ItemOrInnerList>) -> Bool {
        func special(_ item: RFC9651BareItem) -> Bool {
            switch item {
            case .date, .displayString, .undecodedByteSequence: return true
            default: return false
            }
        }
        func special(_ item: Item) -> Bool { special(item.rfc9651BareItem) || item.rfc9651Parameters.contains { special($0.1) } }
        return map.contains { _, member in
            switch member {
            case .item(let item): return special(item)
            case .innerList(let list): return list.bareInnerList.contains(where: special) || list.rfc9651Parameters.contains { special($0.1) }
            }
        }
    }

    /// Whether the text itself holds an RFC 9651 date or display string, or a byte sequence that
    /// is not plain base64, anywhere outside a string: a later member of the same name replaces
    /// it in the library's reading (`a=@0, a=1` reads as `a=1`), so `onlyRFC9651` cannot see it.
    static func writesRFC9651(_ input: String) -> Bool {
        let bytes = Array(input.utf8)
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") { index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1 }
            case UInt8(ascii: "@"): return true
            case UInt8(ascii: "%") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\""): return true
            // A colon inside a token (`a=tok:x`) does not open a byte sequence.
            case UInt8(ascii: ":") where index == 0 || Array("=( ,\t".utf8).contains(bytes[index - 1]):
                guard let close = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: ":")) else { return false }
                var padded = String(decoding: bytes[(index + 1)..<close], as: UTF8.self)
                while padded.count % 4 != 0 { padded += "=" }
                if Data(base64Encoded: padded) == nil { return true }
                index = close
            default: break
            }
            index += 1
        }
        return false
    }

    static func difference(_ ours: StructuredField.Dictionary, _ theirs: OrderedMap<String, ItemOrInnerList>) -> String? {
        let theirKeys = theirs.map(\.0)
        guard ours.map(\.key) == theirKeys else { return "keys \(ours.map(\.key)) against \(theirKeys)" }
        for ((_, member), (key, other)) in zip(ours, theirs) {
            switch (member, other) {
            case (.item(let a), .item(let b)):
                if let d = difference(a.item, b.rfc9651BareItem) ?? difference(a.parameters, b.rfc9651Parameters) { return "\(key): \(d)" }
            case (.innerList(let a), .innerList(let b)):
                guard a.items.count == b.bareInnerList.count else { return "\(key): \(a.items.count) items against \(b.bareInnerList.count)" }
                for (x, y) in zip(a.items, b.bareInnerList) {
                    if let d = difference(x.item, y.rfc9651BareItem) ?? difference(x.parameters, y.rfc9651Parameters) { return "\(key): \(d)" }
                }
                if let d = difference(a.parameters, b.rfc9651Parameters) { return "\(key): \(d)" }
            default: return "\(key): an item against an inner list"
            }
        }
        return nil
    }

    static func difference(_ ours: StructuredField.Parameters, _ theirs: OrderedMap<String, RFC9651BareItem>) -> String? {
        guard ours.map(\.key) == theirs.map(\.0) else { return "parameters \(ours.map(\.key)) against \(theirs.map(\.0))" }
        for ((_, a), (_, b)) in zip(ours, theirs) { if let d = difference(a, b) { return d } }
        return nil
    }

    static func difference(_ ours: StructuredField.Item, _ theirs: RFC9651BareItem) -> String? {
        switch (ours, theirs) {
        case (.integer(let a), .integer(let b)) where a == b: return nil
        case (.decimal(let a), .decimal(let b)) where abs(a - Double(b)) <= max(4 * a.ulp, 1e-9): return nil  // a 12-digit decimal is a few ulps off either way
        case (.string(let a), .string(let b)) where a == b: return nil
        case (.token(let a), .token(let b)) where a == b: return nil
        case (.boolean(let a), .bool(let b)) where a == b: return nil
        case (.bytes(let a), .undecodedByteSequence(let b)):
            var padded = b
            while padded.count % 4 != 0 { padded += "=" }
            return Data(base64Encoded: padded).map([UInt8].init) == a ? nil : "bytes \(a) against :\(b):"
        default: return "\(ours) against \(theirs)"
        }
    }
}
