// libFuzzer target: the header values an incoming signed request carries, each parsed by what
// reads it in production. One input is tried as every kind of value:
//  - RFC 8941 dictionary (`Signature-Input`, `Signature`, `Content-Digest`) and inner list;
//    each inner list also goes through SignatureBase.make (RFC 9421's signature base);
//  - draft-cavage `Signature` (CavageSignatureHeader.parse, CavageVerifier.precheck) and its
//    signing string for a fixed request;
//  - `Date` (HTTPDate.parse);
//  - `Digest` and `Content-Digest` (BodyDigest.verifyDigestHeader / verifyContentDigest).
// Round trips (trap when broken):
//  - dictionary / inner list: serialize(parse(x)) parses, to the same value, and serializes
//    to the same text again;
//  - Cavage: parse(parse(x).serialized) == parse(x) when the values can be written quoted
//    (no '"') and the times are whole seconds;
//  - HTTP date: parse(format(parse(x))) == parse(x) for years 1000–9999 (the fixed layout).
import Foundation
@testable import HTTPSignatures

private let now = Date(timeIntervalSince1970: 1_700_000_000)
private let baseHeaders: [(name: String, value: String)] = [
    ("Host", "blog.example"), ("Date", HTTPDate.format(now)), ("Content-Type", "application/activity+json"),
    ("Digest", "SHA-256=47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="),
    ("Content-Digest", "sha-256=:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=:"),
]
private let request = HTTPRequestParts(method: "POST", url: "https://blog.example/inbox?page=1", headers: baseHeaders)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSignatureHeaders(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    structuredFields(text)
    cavage(text)
    httpDate(text)
    _ = try? BodyDigest.verifyDigestHeader(text, body: [])
    _ = try? BodyDigest.verifyContentDigest(text, body: [])
    return 0
}

// MARK: - RFC 8941

private func structuredFields(_ text: String) {
    if let dictionary = try? StructuredFieldParser.dictionary(text) {
        let serialized = StructuredFieldSerializer.dictionary(dictionary)
        let again: StructuredField.Dictionary
        do { again = try StructuredFieldParser.dictionary(serialized) } catch {
            fail("serialized dictionary does not parse (\(error))", text, serialized)
        }
        if !same(dictionary, again) { fail("dictionary round trip changed the value", text, serialized) }
        if StructuredFieldSerializer.dictionary(again) != serialized { fail("serialization is not canonical", text, serialized) }
        for case (_, .innerList(let list)) in dictionary {
            _ = try? SignatureBase.make(for: request, covering: list)
        }
    }
    if let list = try? StructuredFieldParser.innerList(text) {
        let serialized = StructuredFieldSerializer.innerList(list)
        let again: StructuredField.InnerList
        do { again = try StructuredFieldParser.innerList(serialized) } catch {
            fail("serialized inner list does not parse (\(error))", text, serialized)
        }
        if !same(list, again) { fail("inner list round trip changed the value", text, serialized) }
        _ = try? SignatureBase.make(for: request, covering: list)
    }
}

private func same(_ a: StructuredField.Parameters, _ b: StructuredField.Parameters) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
}

private func same(_ a: StructuredField.ParameterizedItem, _ b: StructuredField.ParameterizedItem) -> Bool {
    a.item == b.item && same(a.parameters, b.parameters)
}

private func same(_ a: StructuredField.InnerList, _ b: StructuredField.InnerList) -> Bool {
    a.items.count == b.items.count && zip(a.items, b.items).allSatisfy(same) && same(a.parameters, b.parameters)
}

private func same(_ a: StructuredField.Dictionary, _ b: StructuredField.Dictionary) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { x, y in
        guard x.key == y.key else { return false }
        switch (x.value, y.value) {
        case (.item(let i), .item(let j)): return same(i, j)
        case (.innerList(let i), .innerList(let j)): return same(i, j)
        default: return false
        }
    }
}

// MARK: - draft-cavage

private func cavage(_ text: String) {
    // What the inbox does first with a `Signature` header…
    var signed = request
    signed.headers.append(("Signature", text))
    _ = try? CavageVerifier(now: now, audience: nil).precheck(signed)

    guard let header = try? CavageSignatureHeader.parse(text) else { return }
    // …and, once the key is known, the signing string it verifies against (both forms).
    _ = try? header.signingString(for: request, includeQuery: true)
    _ = try? header.signingString(for: request, includeQuery: false)

    let quotable = !header.keyId.contains("\"") && !(header.algorithm ?? "").contains("\"")
        && !header.headers.contains { $0.contains("\"") }
    let wholeSeconds = [header.created, header.expires].allSatisfy { date in
        date.map { Int64(exactly: $0.timeIntervalSince1970) != nil } ?? true
    }
    guard quotable, wholeSeconds else { return }
    let serialized = header.serialized
    let again: CavageSignatureHeader
    do { again = try CavageSignatureHeader.parse(serialized) } catch {
        fail("serialized Cavage header does not parse (\(error))", text, serialized)
    }
    if again != header { fail("Cavage round trip changed the value", text, serialized) }
}

// MARK: - HTTP dates

private let earliest = Date(timeIntervalSince1970: -30_610_224_000)  // 1000-01-01
private let latest = Date(timeIntervalSince1970: 253_402_300_799)    // 9999-12-31 23:59:59

private func httpDate(_ text: String) {
    guard let date = HTTPDate.parse(text), date >= earliest, date <= latest else { return }
    let formatted = HTTPDate.format(date)
    guard let again = HTTPDate.parse(formatted) else { fail("formatted date does not parse", text, formatted) }
    if again.timeIntervalSince1970 != date.timeIntervalSince1970.rounded(.down) {
        fail("date round trip changed the value (\(date.timeIntervalSince1970) → \(again.timeIntervalSince1970))", text, formatted)
    }
}

private func fail(_ what: String, _ input: String, _ serialized: String) -> Never {
    fatalError("\(what)\ninput:      \(input.debugDescription)\nserialized: \(serialized.debugDescription)")
}
