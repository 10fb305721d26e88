import Dates
import Foundation
import Testing
@testable import HTTPSignatures
import LecternCrypto

/// Signs with our signers and checks the one verifier: every scheme, key type and method.
@Suite struct RoundTripTests {
    static let rsa = try! PrivateKey.generate(.rsa(bits: 2048))
    static let ed = try! PrivateKey.generate(.ed25519)
    static let keyId = "https://blog.example/actor#main-key"
    static let now = Date(timeIntervalSince1970: 1_750_000_000)

    static func keys(_ key: PrivateKey) -> StaticKeys { StaticKeys([keyId: key.publicKey]) }

    static func signed(_ scheme: VerifiedSignature.Scheme, _ key: PrivateKey, _ request: HTTPRequestParts,
                       at date: Date = now) throws -> HTTPRequestParts {
        var request = request
        switch scheme {
        case .cavage: try CavageSigner(keyId: keyId, key: key).sign(&request, now: date)
        case .rfc9421: try RFC9421Signer(keyId: keyId, key: key).sign(&request, now: date)
        }
        return request
    }

    static let get = HTTPRequestParts(method: "GET", url: "https://remote.example/users/bob?page=2",
                                      headers: [("Accept", "application/activity+json")])

    @Test(arguments: [VerifiedSignature.Scheme.cavage, .rfc9421], [true, false])
    func signThenVerify(scheme: VerifiedSignature.Scheme, useRSA: Bool) async throws {
        let key = useRSA ? Self.rsa : Self.ed
        for request in [HTTPRequestParts.delivery(), Self.get] {
            let signed = try Self.signed(scheme, key, request)
            let verified = try await SignatureVerifier(now: Self.now).verify(signed, keys: Self.keys(key))
            #expect(verified.keyId == Self.keyId && verified.scheme == scheme && verified.acceptedUntil != nil)
        }
    }

    @Test func mastodonShapedHeaders() throws {
        let post = try Self.signed(.cavage, Self.rsa, .delivery())
        let signature = try #require(post.field("signature"))
        #expect(signature.hasPrefix("keyId=\"\(Self.keyId)\",algorithm=\"rsa-sha256\",headers=\"(request-target) host date digest content-type\",signature=\""))
        #expect(post.field("date") == "Sun, 15 Jun 2025 15:06:40 GMT")
        #expect(post.field("digest")?.hasPrefix("SHA-256=") == true)
        let get = try Self.signed(.cavage, Self.rsa, Self.get)
        #expect(get.field("signature")?.contains("headers=\"(request-target) host date accept\"") == true)
        let modern = try Self.signed(.rfc9421, Self.rsa, .delivery())
        #expect(modern.field("signature-input") == "sig1=(\"@method\" \"@target-uri\" \"content-type\" \"content-digest\");created=1750000000;keyid=\"\(Self.keyId)\";alg=\"rsa-v1_5-sha256\"")
    }

    @Test func keyIsRefreshedOnceWhenItRotated() async throws {
        let signed = try Self.signed(.cavage, Self.rsa, .delivery())
        let stale = try PrivateKey.generate(.rsa(bits: 2048)).publicKey
        let keys = StaticKeys([Self.keyId: stale], afterRefresh: [Self.keyId: Self.rsa.publicKey])
        _ = try await SignatureVerifier(now: Self.now).verify(signed, keys: keys)
        #expect(keys.lookups.map(\.1) == [false, true])
        let never = StaticKeys([Self.keyId: stale])
        await #expect(throws: SignatureError.badSignature) {
            try await SignatureVerifier(now: Self.now).verify(signed, keys: never)
        }
    }

    @Test func firstValidLabelWins() async throws {
        var request = try Self.signed(.rfc9421, Self.ed, .delivery())
        let good = request.field("signature-input")!, goodSignature = request.field("signature")!
        let bad = good.replacingOccurrences(of: "sig1=", with: "broken=").replacingOccurrences(of: "\"@target-uri\" ", with: "")
        request.setHeader("Signature-Input", "\(bad), \(good)")
        request.setHeader("Signature", "broken=:AAAA:, \(goodSignature)")
        let verified = try await SignatureVerifier(now: Self.now).verify(request, keys: Self.keys(Self.ed))
        #expect(verified.scheme == .rfc9421)
    }
}

/// Any single-byte change to what is signed must be rejected.
@Suite struct TamperTests {
    private func rejects(_ request: HTTPRequestParts, key: PrivateKey) async -> Bool {
        do {
            _ = try await SignatureVerifier(now: RoundTripTests.now).verify(request, keys: RoundTripTests.keys(key))
            return false
        } catch { return true }
    }

    private static func flip(_ text: String, at index: Int) -> String {
        var bytes = Array(text.utf8)
        bytes[index] = bytes[index] == UInt8(ascii: "a") ? UInt8(ascii: "b") : UInt8(ascii: "a")
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test(arguments: [VerifiedSignature.Scheme.cavage, .rfc9421])
    func everyByteMatters(scheme: VerifiedSignature.Scheme) async throws {
        let key = RoundTripTests.rsa
        let signed = try RoundTripTests.signed(scheme, key, .delivery(body: #"{"type":"Like"}"#))
        #expect(await !rejects(signed, key: key))
        for index in signed.body.indices {
            var copy = signed
            copy.body[index] ^= 0x01
            #expect(await rejects(copy, key: key), "body byte \(index)")
        }
        for index in signed.path.utf8.indices.map({ signed.path.utf8.distance(from: signed.path.utf8.startIndex, to: $0) }) {
            var copy = signed
            copy.path = Self.flip(signed.path, at: index)
            #expect(await rejects(copy, key: key), "path byte \(index)")
        }
        let signedFields = scheme == .cavage ? ["host", "date", "digest", "content-type"] : ["content-type", "content-digest"]
        for name in signedFields {
            let value = signed.field(name)!
            for index in 0..<value.utf8.count {
                var copy = signed
                copy.setHeader(name, Self.flip(value, at: index))
                #expect(await rejects(copy, key: key), "\(name) byte \(index)")
            }
        }
        let signatureField = signed.field("signature")!
        let encoded = scheme == .cavage
            ? String(signatureField.split(separator: "signature=\"")[1].dropLast())
            : String(signatureField.dropFirst("sig1=:".count).dropLast())
        let raw = [UInt8](Data(base64Encoded: encoded)!)
        for index in raw.indices {
            var tampered = raw
            tampered[index] ^= 0x80
            var copy = signed
            copy.setHeader("Signature", signatureField.replacingOccurrences(of: encoded, with: Data(tampered).base64EncodedString()))
            #expect(await rejects(copy, key: key), "signature byte \(index)")
        }
    }
}

@Suite struct PolicyTests {
    let now = RoundTripTests.now
    let keys = RoundTripTests.keys(RoundTripTests.rsa)

    private func verify(_ request: HTTPRequestParts, at now: Date? = nil) async throws {
        _ = try await SignatureVerifier(now: now ?? self.now).verify(request, keys: keys)
    }

    @Test func timeWindowEdges() async throws {
        for scheme in [VerifiedSignature.Scheme.cavage, .rfc9421] {
            let sign = { (offset: TimeInterval) in
                try RoundTripTests.signed(scheme, RoundTripTests.rsa, .delivery(), at: self.now.addingTimeInterval(offset))
            }
            try await verify(try sign(59 * 60))
            await #expect(throws: SignatureError.notYetValid) { try await verify(try sign(61 * 60)) }
            // Default lifetime 5 min, plus 1 h of skew.
            try await verify(try sign(-(65 * 60)))
            await #expect(throws: SignatureError.expired) { try await verify(try sign(-(65 * 60 + 1))) }
        }
    }

    @Test func expiresAndCreatedOfHs2019() async throws {
        let key = RoundTripTests.ed
        var request = HTTPRequestParts.delivery()
        request.setHeader("Digest", BodyDigest.digestHeader(for: request.body))
        request.setHeader("Host", request.authority)
        func sign(created: Date, expires: Date) throws -> HTTPRequestParts {
            var copy = request
            var header = CavageSignatureHeader(keyId: RoundTripTests.keyId, algorithm: "hs2019",
                                               headers: ["(request-target)", "(created)", "(expires)", "host", "digest"],
                                               signature: [], created: created, expires: expires)
            header.signature = try key.sign(Array(try header.signingString(for: copy).utf8), algorithm: .ed25519)
            copy.setHeader("Signature", header.serialized)
            return copy
        }
        let keys = RoundTripTests.keys(key)
        let created = now.addingTimeInterval(-7200)
        _ = try await SignatureVerifier(now: now).verify(try sign(created: created, expires: now.addingTimeInterval(-3599)), keys: keys)
        await #expect(throws: SignatureError.expired) {
            _ = try await SignatureVerifier(now: now).verify(try sign(created: created, expires: now.addingTimeInterval(-3601)), keys: keys)
        }
        // `expires` never extends a signature past created + 12 h.
        let old = now.addingTimeInterval(-14 * 3600)
        await #expect(throws: SignatureError.expired) {
            _ = try await SignatureVerifier(now: now).verify(try sign(created: old, expires: now.addingTimeInterval(3600)), keys: keys)
        }
    }

    @Test func mastodonCoverageRules() async throws {
        let key = RoundTripTests.rsa
        func cavage(_ headers: String, method: String = "POST", algorithm: String = "rsa-sha256") throws -> HTTPRequestParts {
            var request = method == "POST" ? HTTPRequestParts.delivery() : RoundTripTests.get
            request.setHeader("Host", request.authority)
            request.setHeader("Date", HTTPDate.format(now))
            request.setHeader("Digest", BodyDigest.digestHeader(for: request.body))
            var header = CavageSignatureHeader(keyId: RoundTripTests.keyId, algorithm: algorithm,
                                               headers: headers.split(separator: " ").map(String.init), signature: [])
            header.signature = try key.sign(Array(try header.signingString(for: request).utf8), algorithm: .rsaV15SHA256)
            request.setHeader("Signature", header.serialized)
            return request
        }
        await #expect(throws: SignatureError.notCovered("date or (created)")) { try await verify(try cavage("(request-target) host digest")) }
        await #expect(throws: SignatureError.notCovered("digest")) { try await verify(try cavage("(request-target) host date")) }
        await #expect(throws: SignatureError.notCovered("host")) { try await verify(try cavage("(request-target) date", method: "GET")) }
        await #expect(throws: SignatureError.unsupportedAlgorithm("rsa-sha512")) {
            try await verify(try cavage("(request-target) host date digest", algorithm: "rsa-sha512"))
        }
        try await verify(try cavage("(request-target) host date digest", algorithm: "hs2019"))
        try await verify(try cavage("host date digest"))  // digest stands in for (request-target)

        var unsigned = HTTPRequestParts.delivery()
        await #expect(throws: SignatureError.missingSignature) { try await verify(unsigned) }
        unsigned.setHeader("Signature", "algorithm=\"rsa-sha256\",signature=\"AAAA\"")
        await #expect(throws: SignatureError.missingParameter("keyId")) { try await verify(unsigned) }
    }

    @Test func requestTargetWithoutQueryIsAccepted() async throws {
        var request = HTTPRequestParts(method: "GET", url: "https://blog.example/actor?x=1", headers: [])
        request.setHeader("Host", request.authority)
        request.setHeader("Date", HTTPDate.format(now))
        var header = CavageSignatureHeader(keyId: RoundTripTests.keyId, algorithm: "rsa-sha256",
                                           headers: ["(request-target)", "host", "date"], signature: [])
        header.signature = try RoundTripTests.rsa.sign(Array(try header.signingString(for: request, includeQuery: false).utf8),
                                                       algorithm: .rsaV15SHA256)
        request.setHeader("Signature", header.serialized)
        try await verify(request)
    }

    @Test func rfc9421Requirements() async throws {
        var request = try RoundTripTests.signed(.rfc9421, RoundTripTests.rsa, .delivery())
        let input = request.field("signature-input")!
        for (from, to, error) in [
            ("\"@target-uri\" ", "", SignatureError.notCovered("@target-uri")),
            (" \"content-digest\"", "", SignatureError.notCovered("content-digest")),
            (";created=1750000000", "", SignatureError.missingParameter("created")),
            (";keyid=\"\(RoundTripTests.keyId)\"", "", SignatureError.missingParameter("keyid")),
            ("rsa-v1_5-sha256", "hmac-sha256", SignatureError.unsupportedAlgorithm("hmac-sha256")),
        ] {
            request.setHeader("Signature-Input", input.replacingOccurrences(of: from, with: to))
            await #expect(throws: error) { try await verify(request) }
        }
        request.setHeader("Signature-Input", "sig1=(\"@method\"")
        await #expect(throws: SignatureError.self) { try await verify(request) }
    }

    /// Each label may name its own key, fetched and checked in turn: a request carrying dozens
    /// is refused before any of that.
    @Test func manyLabelsAreRefusedBeforeAnyKeyIsFetched() async throws {
        var request = try RoundTripTests.signed(.rfc9421, RoundTripTests.rsa, .delivery())
        let input = request.field("signature-input")!, signature = request.field("signature")!
        let labels = 0..<(RFC9421Verifier.maximumLabels + 1)
        func many(_ field: String) -> String {
            labels.map { field.replacingOccurrences(of: "sig1=", with: "s\($0)=") }.joined(separator: ", ")
        }
        request.setHeader("Signature-Input", many(input))
        request.setHeader("Signature", many(signature))
        await #expect {
            try await verify(request)
        } throws: { error in
            guard case SignatureError.malformed(let reason) = error else { return false }
            return reason.contains("more than 8 members")
        }
        request.setHeader("Signature-Input", input + ", " + input.replacingOccurrences(of: "sig1=", with: "sig2="))
        request.setHeader("Signature", signature + ", " + signature.replacingOccurrences(of: "sig1=", with: "sig2="))
        try await verify(request)  // two labels are fine
    }
}

@Suite struct StructuredFieldTests {
    @Test func parsesAndSerializesCanonically() throws {
        let text = #"sig1=("@method" "@query-param";name="a b");created=1;keyid="k\"q";alg=tok, b=?0, c, d=:AQID:, e=-1.5"#
        let parsed = try StructuredFieldParser.dictionary(text)
        #expect(parsed.map(\.key) == ["sig1", "b", "c", "d", "e"])
        #expect(StructuredFieldSerializer.dictionary(parsed) == text)
    }

    @Test(arguments: ["sig1=(\"a\"", "a=\"unterminated", "A=1", "a=1,", "a=:not base64!:", "a=1;", "a=\"\u{7}\"",
                      "a=1234567890123456", "a=1.2345", "a=1.", "a=-", "a=1234567890123.5", "a=123456789012.1234",
                      "a=\"x\\y\"", "a=:QQ===:", "a=:Q:", "a=:QQ=Q:"])
    func rejectsMalformed(text: String) {
        #expect(throws: StructuredFieldError.self) { try StructuredFieldParser.dictionary(text) }
    }

    /// Numbers are read digit by digit and strings without escapes straight from the input;
    /// both must give what RFC 8941 says (limits included) and serialize back the same.
    @Test func numbersAndStringsAtTheirLimits() throws {
        let text = #"a=999999999999999, b=-999999999999999, c=123456789012.123, d=-0.5, e=7.25, f="", "#
            + #"g="plain", h="with \"quotes\" and \\ backslash", i=:QQ:, j=:QUI=:"#
        let parsed = try StructuredFieldParser.dictionary(text)
        func item(_ key: String) -> StructuredField.Item? {
            guard case .item(let item)? = parsed.first(where: { $0.key == key })?.value else { return nil }
            return item.item
        }
        #expect(item("a") == .integer(999_999_999_999_999) && item("b") == .integer(-999_999_999_999_999))
        #expect(item("c") == .decimal(123_456_789_012.123) && item("d") == .decimal(-0.5) && item("e") == .decimal(7.25))
        #expect(item("f") == .string("") && item("g") == .string("plain"))
        #expect(item("h") == .string(#"with "quotes" and \ backslash"#))
        #expect(item("i") == .bytes([0x41]) && item("j") == .bytes([0x41, 0x42]))
        // Serialized canonically: byte sequences get their padding.
        #expect(StructuredFieldSerializer.dictionary(parsed) == text.replacingOccurrences(of: ":QQ:", with: ":QQ==:"))
    }

    /// A repeated key's last value wins, in the key's first position (RFC 8941 §4.2.2; the
    /// library reads it so, `StructuredFieldDifferentialTests`), for members and parameters alike.
    /// The same with a few keys (checked pairwise) and with many (through dictionaries).
    @Test(arguments: [0, 20])
    func repeatedKeysResolveTheSameWithFewOrMany(extra: Int) throws {
        let filler = (0..<extra).map { "f\($0)=0" }
        let members = try StructuredFieldParser.dictionary((["a=1", "b=2"] + filler + ["a=3"]).joined(separator: ", "))
        #expect(members.map(\.key) == ["a", "b"] + filler.map { String($0.prefix { $0 != "=" }) })
        guard case .item(let a)? = members.first?.value else { Issue.record("no a"); return }
        #expect(a.item == .integer(3))
        let fillerParameters = (0..<extra).map { ";g\($0)" }.joined()
        guard case .item(let item)? = try StructuredFieldParser.dictionary("x=1;p=1;q=2\(fillerParameters);p=3").first?.value else {
            Issue.record("no x"); return
        }
        #expect(item.parameters.map(\.key).prefix(2) == ["p", "q"] && item.parameters.count == 2 + extra)
        #expect(item.parameter("p") == .integer(3))
    }

    /// A header of a thousand made-up members costs linear work, not quadratic (12 ms in a
    /// release build before), though it is refused only after parsing.
    @Test func manyMembersCostLinearTime() throws {
        func parseTime(_ count: Int) -> Duration {
            let text = (0..<count).map { "m\($0)=(\"@method\");keyid=\"k\($0)\"" }.joined(separator: ", ")
            return (0..<5).map { _ in ContinuousClock().measure { _ = try? StructuredFieldParser.dictionary(text) } }.min()!
        }
        _ = parseTime(64)  // warm up
        let small = parseTime(128), large = parseTime(1024)
        // Eight times the members: about eight times the time; a quadratic check would take sixty-four.
        #expect(large < small * 20, "128 members: \(small), 1,024: \(large)")
    }

    /// RFC 8941's minimums are what the parser takes: more members, items or parameters would
    /// cost quadratic duplicate checks before any key is known.
    @Test func takesRFC8941sMinimumsAndNoMore() throws {
        func members(_ count: Int) -> String { (0..<count).map { "m\($0)=1" }.joined(separator: ", ") }
        func items(_ count: Int) -> String { "a=(" + (0..<count).map { "\($0)" }.joined(separator: " ") + ")" }
        func parameters(_ count: Int) -> String { "a=1" + (0..<count).map { ";p\($0)" }.joined() }
        #expect(try StructuredFieldParser.dictionary(members(1024)).count == 1024)
        #expect(throws: StructuredFieldError.self) { try StructuredFieldParser.dictionary(members(1025)) }
        #expect(try StructuredFieldParser.dictionary(items(256)).count == 1)
        #expect(throws: StructuredFieldError.self) { try StructuredFieldParser.dictionary(items(257)) }
        #expect(try StructuredFieldParser.dictionary(parameters(256)).count == 1)
        #expect(throws: StructuredFieldError.self) { try StructuredFieldParser.dictionary(parameters(257)) }
    }
}

/// The signature header is parsed before any key is known, so any sender can make it as large
/// as the HTTP parser allows: its cost must grow linearly with the number of parameters.
@Suite struct SignatureHeaderCostTests {
    static func parseTime(unknownParameters count: Int) -> Duration {
        let header = #"keyId="https://remote.example/a#k",signature="c2ln","#
            + (0..<count).map { "p\($0)=1" }.joined(separator: ",")
        return (0..<5).map { _ in ContinuousClock().measure { _ = try? CavageSignatureHeader.parse(header) } }.min()!
    }

    @Test func manyUnknownParametersCostLinearTime() {
        _ = Self.parseTime(unknownParameters: 1_000)  // warm up
        let small = Self.parseTime(unknownParameters: 1_000), large = Self.parseTime(unknownParameters: 16_000)
        // Sixteen times the parameters: about sixteen times the time; a quadratic check would take
        // 256 (the bound leaves room for a machine busy with the other suites).
        #expect(large < small * 64, "1,000 parameters: \(small), 16,000: \(large)")
    }

    @Test func aRepeatedUnknownParameterIsStillRefused() {
        #expect(throws: SignatureError.malformed("parameter x appears twice")) {
            try CavageSignatureHeader.parse(#"keyId="k",signature="c2ln",x=1,y=2,X=3"#)
        }
    }
}

/// Base64 of signatures and digests (Foundation's, padding made optional): everything Foundation
/// encodes decodes, with and without padding, and the rest is refused.
@Suite struct Base64Tests {
    @Test func agreesWithFoundationOnEveryLength() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...300 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let encoded = Data(bytes).base64EncodedString()
            #expect(Base64.decode(encoded) == bytes, "length \(length)")
            let unpadded = String(encoded.drop { _ in false }.reversed().drop { $0 == "=" }.reversed())
            #expect(Base64.decode(unpadded) == bytes, "length \(length) unpadded")
        }
    }

    @Test(arguments: ["Q", "QQ===", "Q=Q=", "QQ==QQ", "QUJD\n", "QU JD", "QUJD\u{0}", "é", "QUJD-_"])
    func refusesWhatIsNotBase64(text: String) {
        #expect(Base64.decode(text) == nil)
    }
}

/// What a request may cost before it is refused, and whom it may be addressed to.
@Suite struct BoundedVerificationTests {
    let now = RoundTripTests.now

    /// RFC 9421: one label is verified, the first that passes the policy; a valid second label
    /// behind a bad first one is never reached (each would cost a key fetch and an RSA check).
    @Test func onlyTheFirstLabelIsVerified() async throws {
        let other = try PrivateKey.generate(.rsa(bits: 2048))
        var first = HTTPRequestParts.delivery(), second = HTTPRequestParts.delivery()
        var badSigner = RFC9421Signer(keyId: RoundTripTests.keyId, key: other)
        badSigner.label = "bad"
        try badSigner.sign(&first, now: now)
        try RFC9421Signer(keyId: RoundTripTests.keyId, key: RoundTripTests.rsa).sign(&second, now: now)
        var both = second
        both.setHeader("Signature-Input", first.field("signature-input")! + ", " + second.field("signature-input")!)
        both.setHeader("Signature", first.field("signature")! + ", " + second.field("signature")!)
        _ = try await SignatureVerifier(now: now).verify(second, keys: RoundTripTests.keys(RoundTripTests.rsa))
        await #expect(throws: SignatureError.badSignature) {
            _ = try await SignatureVerifier(now: now).verify(both, keys: RoundTripTests.keys(RoundTripTests.rsa))
        }
    }

    /// The audience: a covered host (or the target URI) must be one of the server's own.
    @Test func theHostMustBeOurs() async throws {
        let keys = RoundTripTests.keys(RoundTripTests.rsa)
        for scheme in [VerifiedSignature.Scheme.cavage, .rfc9421] {
            let signed = try RoundTripTests.signed(scheme, RoundTripTests.rsa, .delivery(), at: now)
            let ours = SignatureAudience(authorities: [signed.authority.uppercased() + "."])
            _ = try await SignatureVerifier(now: now, audience: ours).verify(signed, keys: keys)
            let elsewhere = SignatureAudience(authorities: ["elsewhere.example"])
            await #expect(throws: SignatureError.wrongAudience(signed.authority)) {
                _ = try await SignatureVerifier(now: now, audience: elsewhere).verify(signed, keys: keys)
            }
        }
        #expect(SignatureAudience.normalized("Blog.Example.:443", scheme: "https") == "blog.example")
        #expect(SignatureAudience.normalized("[::1]:443", scheme: "https") == "[::1]")
        #expect(SignatureAudience.normalized("blog.example:8443", scheme: "https") == "blog.example:8443")
    }
}
