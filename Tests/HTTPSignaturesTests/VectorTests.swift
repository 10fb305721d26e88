import Dates
import Foundation
import Testing
@testable import HTTPSignatures
import LecternCrypto

@Suite struct CavageVectorTests {
    @Test func appendixCSigningStringsAndSignaturesMatchExactly() throws {
        let json = try Vectors.load("draft-cavage-12")
        let key = try PrivateKey(pem: json["privateKey"] as! String)
        let publicKey = try PublicKey(pem: json["publicKey"] as! String)
        let request = Vectors.request(json["request"] as! [String: Any])
        for testCase in json["cases"] as! [[String: Any]] {
            var value = "keyId=\"Test\",algorithm=\"rsa-sha256\","
            if let headers = testCase["headers"] as? String { value += "headers=\"\(headers)\"," }
            value += "signature=\"\(testCase["signature"] as! String)\""
            let header = try CavageSignatureHeader.parse(value)
            let text = try header.signingString(for: request)
            #expect(text == testCase["signingString"] as! String, "\(testCase["name"]!)")
            let signature = try key.sign(Array(text.utf8), algorithm: .rsaV15SHA256)
            #expect(Data(signature).base64EncodedString() == testCase["signature"] as! String, "\(testCase["name"]!)")
            #expect(publicKey.verify(header.signature, for: Array(text.utf8), algorithm: .rsaV15SHA256))
        }
    }

    @Test func appendixC3PassesTheFullMastodonPolicy() async throws {
        let json = try Vectors.load("draft-cavage-12")
        var request = Vectors.request(json["request"] as! [String: Any])
        let allHeaders = (json["cases"] as! [[String: Any]])[2]
        request.headers.append(("Signature", "keyId=\"Test\",algorithm=\"rsa-sha256\",headers=\"\(allHeaders["headers"]!)\",signature=\"\(allHeaders["signature"]!)\""))
        let keys = StaticKeys(["Test": try PublicKey(pem: json["publicKey"] as! String)])
        let now = HTTPDate.parse("Sun, 05 Jan 2014 21:31:40 GMT")!
        let verified = try await SignatureVerifier(now: now).verify(request, keys: keys)
        #expect(verified.keyId == "Test" && verified.scheme == .cavage)
    }
}

@Suite struct RFC9421VectorTests {
    private func keys(_ json: [String: Any]) -> [String: [String: String]] { json["keys"] as! [String: [String: String]] }

    @Test func appendixBSignatureBasesAndSignatures() throws {
        let json = try Vectors.load("rfc9421")
        let request = Vectors.request(json["request"] as! [String: Any])
        for testCase in json["cases"] as! [[String: Any]] {
            let name = testCase["name"] as! String
            let label = (testCase["signatureInput"] as! String).split(separator: "=", maxSplits: 1)[0]
            let inputs = try StructuredFieldParser.dictionary(testCase["signatureInput"] as! String)
            guard case .innerList(let list) = inputs[0].value else { Issue.record("\(name): not an inner list"); continue }
            #expect(try SignatureBase.make(for: request, covering: list) == testCase["base"] as! String, "\(name)")
            #expect(StructuredFieldSerializer.dictionary(inputs) == testCase["signatureInput"] as! String, "\(name)")

            let signatures = try StructuredFieldParser.dictionary(testCase["signature"] as! String)
            guard case .item(let item) = signatures[0].value, let signature = item.item.bytes else {
                Issue.record("\(name): no signature"); continue
            }
            let keyPair = keys(json)[testCase["key"] as! String]!
            let publicKey = try PublicKey(pem: keyPair["public"]!)
            #expect(try RFC9421Signature.isValid(signature, request: request, covering: list, key: publicKey), "\(name)")
            var tampered = signature
            tampered[10] ^= 1
            #expect(try !RFC9421Signature.isValid(tampered, request: request, covering: list, key: publicKey), "\(name)")

            if testCase["deterministic"] as! Bool, let privatePEM = keyPair["private"] {
                let (input, output) = try RFC9421Signature.sign(
                    request, label: String(label), covering: list, key: try PrivateKey(pem: privatePEM), algorithm: .ed25519)
                #expect(input == testCase["signatureInput"] as! String)
                #expect(output == testCase["signature"] as! String, "\(name) must sign byte for byte")
            }
        }
    }

    @Test func appendixB4RepeatedFieldsAreCombined() throws {
        let transform = try Vectors.load("rfc9421")["transform"] as! [String: Any]
        let request = Vectors.request(transform["request"] as! [String: Any])
        let inputs = try StructuredFieldParser.dictionary(transform["signatureInput"] as! String)
        guard case .innerList(let list) = inputs[0].value else { Issue.record("not an inner list"); return }
        #expect(try SignatureBase.make(for: request, covering: list) == transform["base"] as! String)
        let pem = (try Vectors.load("rfc9421")["keys"] as! [String: [String: String]])["test-key-ed25519"]!["private"]!
        let (_, signature) = try RFC9421Signature.sign(request, label: "transform", covering: list,
                                                       key: try PrivateKey(pem: pem), algorithm: .ed25519)
        #expect(signature == transform["signature"] as! String)
    }
}

@Suite struct DigestVectorTests {
    @Test func rfc9530Examples() throws {
        for testCase in try Vectors.load("rfc9530")["cases"] as! [[String: String]] {
            let body = Array(testCase["body"]!.utf8)
            #expect(BodyDigest.contentDigestHeader(for: body) == "sha-256=:\(testCase["sha-256"]!):")
            #expect(BodyDigest.digestHeader(for: body) == "SHA-256=\(testCase["sha-256"]!)")
            try BodyDigest.verifyContentDigest("sha-512=:\(testCase["sha-512"]!):, sha-256=:\(testCase["sha-256"]!):", body: body)
            try BodyDigest.verifyDigestHeader("sha-256=\(testCase["sha-256"]!)", body: body)
            #expect(throws: SignatureError.digestMismatch) {
                try BodyDigest.verifyContentDigest("sha-256=:\(testCase["sha-256"]!):", body: body + [32])
            }
        }
        #expect(throws: SignatureError.unsupportedDigest("md5")) { try BodyDigest.verifyContentDigest("md5=:AAAA:", body: []) }
        #expect(throws: SignatureError.unsupportedDigest("sha-512")) { try BodyDigest.verifyDigestHeader("SHA-512=AAAA", body: []) }
    }
}
