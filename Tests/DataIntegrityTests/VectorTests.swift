import Foundation
import Testing
@testable import DataIntegrity
import LecternCrypto

/// The published vectors of `Vectors/` (see its README for sources and licences).
enum Vectors {
    static let folder = Bundle.module.url(forResource: "Vectors", withExtension: nil)!

    static func json(_ name: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(name))) as! [String: Any]
    }

    static func text(_ name: String) throws -> String { try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8) }

    /// A member of a vector file as canonical JSON (re-serialized by Foundation, then read by ours).
    static func value(_ any: Any) throws -> CanonicalJSON {
        try CanonicalJSON.parse(Array(try JSONSerialization.data(withJSONObject: any, options: [.fragmentsAllowed])))
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
    static func bytes(hex: String) -> [UInt8] {
        let digits = Array(hex.utf8).filter { $0 != 0x20 }
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
    }
}

@Suite struct RFC8785Tests {
    @Test func appendixBNumberTable() throws {
        let lines = try Vectors.text("rfc8785-numbers.txt").split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines.count == 24)
        for line in lines {
            let parts = line.split(separator: ",")
            let value = Double(bitPattern: UInt64(parts[0], radix: 16)!)
            #expect(CanonicalJSON.ecmaScript(value) == String(parts[1]), "\(parts[0])")
            // And through the parser: the JSON form reads back as the same double, written the same way.
            let reread = try CanonicalJSON.parse(Array(parts[1].utf8))
            #expect(String(decoding: reread.canonical(), as: UTF8.self) == String(parts[1]))
        }
    }

    @Test func nanAndInfinityHaveNoJSONForm() {
        for text in ["1e400", "-1e400", "NaN", "Infinity", "-Infinity"] {
            #expect(throws: CanonicalJSON.ParseError.self) { try CanonicalJSON.parse(Array(text.utf8)) }
        }
    }

    @Test func primitivesExampleByteForByte() throws {
        let example = try Vectors.json("rfc8785-examples.json")["primitives"] as! [String: String]
        let canonical = try CanonicalJSON.parse(Array(example["input"]!.utf8)).canonical()
        #expect(String(decoding: canonical, as: UTF8.self) == example["canonical"]!)
        #expect(canonical == Vectors.bytes(hex: example["hex"]!))
    }

    @Test func sortingByUTF16CodeUnits() throws {
        let example = try Vectors.json("rfc8785-examples.json")["sorting"] as! [String: Any]
        let canonical = String(decoding: try CanonicalJSON.parse(Array((example["input"] as! String).utf8)).canonical(), as: UTF8.self)
        let order = example["order"] as! [String]
        let positions = order.map { canonical.range(of: "\"\($0)\"")!.lowerBound }
        #expect(positions == positions.sorted())
    }

    @Test func stringsAreEscapedAsECMAScriptDoes() throws {
        let input = #"["\u0000\u001f\b\t\n\f\r\"\\\/\u007f\u00e9\ud83d\ude00"]"#
        let output = String(decoding: try CanonicalJSON.parse(Array(input.utf8)).canonical(), as: UTF8.self)
        #expect(output == "[\"\\u0000\\u001f\\b\\t\\n\\f\\r\\\"\\\\/\u{7f}é😀\"]")
    }

    @Test func whatIJSONRefusesIsRefused() {
        let refused = [
            #"{"a":1,"a":2}"#,              // a repeated name
            #"["\ud800"]"#, #"["\udc00"]"#, #"["\ud800\u0041"]"#,  // lone surrogates
            "[\"\u{01}\"]",                  // a raw control character
            "[01]", "[1.]", "[.5]", "[1e]", "[+1]", "[-]",  // not RFC 8259 numbers
            "{\"a\":1} x", "", "[1,]", "{\"a\"}", "[tru]",
        ]
        for text in refused {
            #expect(throws: CanonicalJSON.ParseError.self, "\(text)") { try CanonicalJSON.parse(Array(text.utf8)) }
        }
        #expect(throws: CanonicalJSON.ParseError.self) { try CanonicalJSON.parse([0x22, 0xC3, 0x28, 0x22]) }  // not UTF-8
        #expect(throws: CanonicalJSON.ParseError.self) { try CanonicalJSON.parse(Array(String(repeating: "[", count: 65).utf8) + Array(String(repeating: "]", count: 65).utf8)) }
    }
}

@Suite struct MultikeyTests {
    @Test func base58RoundTripsAndKeepsLeadingZeros() {
        for bytes: [UInt8] in [[], [0], [0, 0, 1], [0xFF], Array(0...99), [0, 0] + SecureRandom.bytes(64)] {
            #expect(Base58.decode(Base58.encode(bytes)) == bytes)
        }
        #expect(Base58.encode(Array("Hello World!".utf8)) == "2NEpo7TZRRrLZSi2U")  // the base58 draft's example
        #expect(Base58.decode("0OIl") == nil)
        #expect(Base58.decode(String(repeating: "z", count: 201)) == nil)
    }

    @Test func fep521aEd25519Multikey() throws {
        let vector = try Vectors.json("fep-521a.json")
        let raw = Vectors.bytes(hex: vector["publicKeyHex"] as! String)
        let multikey = vector["multikey"] as! [String: String]
        #expect(Multikey.ed25519(publicKey: raw) == multikey["publicKeyMultibase"])
        #expect(Multikey.ed25519PublicKey(multikey["publicKeyMultibase"]!) == raw)
        // Through OpenSSL and back.
        #expect(try PublicKey(rawEd25519: raw).rawEd25519() == raw)
    }

    @Test func aKeyOfAnotherTypeOrLengthIsNoEd25519Key() throws {
        let raw = [UInt8](repeating: 7, count: 32)
        #expect(Multikey.ed25519PublicKey(Multibase.encode([0xEC, 0x01] + raw)) == nil)  // x25519-pub
        #expect(Multikey.ed25519PublicKey(Multibase.encode([0xED, 0x01] + raw.dropLast())) == nil)
        #expect(Multikey.ed25519PublicKey("u" + Base58.encode([0xED, 0x01] + raw)) == nil)  // not base58btc
    }
}

@Suite struct EddsaJcs2022Tests {
    @Test func w3cVectorStepByStep() throws {
        let vector = try Vectors.json("vc-di-eddsa-jcs-2022.json")
        let seed = try #require(Multikey.ed25519PrivateKey(vector["secretKeyMultibase"] as! String))
        let key = try PrivateKey(rawEd25519Seed: seed)
        #expect(Multikey.ed25519(publicKey: try key.publicKey.rawEd25519()) == vector["publicKeyMultibase"] as? String)

        let document = try Vectors.value(vector["unsecuredDocument"]!).members!
        let canonicalDocument = CanonicalJSON.object(document).canonical()
        #expect(String(decoding: canonicalDocument, as: UTF8.self) == vector["canonicalDocument"] as? String)
        #expect(Vectors.hex(Digest.sha256(canonicalDocument)) == vector["documentHash"] as? String)
        let options = try Vectors.value(vector["proofOptions"]!).members!
        let canonicalOptions = CanonicalJSON.object(options).canonical()
        #expect(String(decoding: canonicalOptions, as: UTF8.self) == vector["canonicalProofConfig"] as? String)
        #expect(Vectors.hex(Digest.sha256(canonicalOptions)) == vector["proofConfigHash"] as? String)
        #expect(Vectors.hex(EddsaJcs2022.hashData(document: document, proofConfig: options)) == vector["hashData"] as? String)

        // Ed25519 is deterministic: the whole secured document comes out as published.
        let signed = try EddsaJcs2022.sign(document, key: key, verificationMethod: options["verificationMethod"]!.string!,
                                           created: options["created"]!.string!)
        let proofValue = signed["proof"]!["proofValue"]!.string!
        #expect(proofValue == vector["proofValue"] as? String)
        #expect(Vectors.hex(Multibase.decode(proofValue)!) == vector["signatureHex"] as? String)
        #expect(CanonicalJSON.object(signed) == (try Vectors.value(vector["securedDocument"]!)))

        let secured = try Vectors.value(vector["securedDocument"]!).members!
        let proofs = EddsaJcs2022.proofs(in: secured)
        #expect(proofs.count == 1)
        #expect(EddsaJcs2022.verify(proofs[0], of: secured, key: key.publicKey))
    }

    @Test func fep8b32SigningAndVerifying() throws {
        let vector = try Vectors.json("fep-8b32.json")
        let key = try PrivateKey(rawEd25519Seed: #require(Multikey.ed25519PrivateKey(vector["secretKeyMultibase"] as! String)))
        let document = try Vectors.value(vector["document"]!).members!
        let signed = try EddsaJcs2022.sign(document, key: key, verificationMethod: vector["verificationMethod"] as! String,
                                           created: vector["created"] as! String)
        #expect(CanonicalJSON.object(signed) == (try Vectors.value(vector["signedDocument"]!)))

        // Verifying: with the key the actor lists, as a verifier gets it.
        let actor = vector["actor"] as! [String: Any]
        let listed = (actor["assertionMethod"] as! [[String: String]])[0]
        let publicKey = try PublicKey(rawEd25519: #require(Multikey.ed25519PublicKey(listed["publicKeyMultibase"]!)))
        let received = try Vectors.value(vector["signedDocument"]!).members!
        let proofs = EddsaJcs2022.proofs(in: received)
        #expect(proofs.map(\.verificationMethod) == [listed["id"]!])
        #expect(EddsaJcs2022.verify(proofs[0], of: received, key: publicKey))
    }

    /// Every change after signing breaks the proof: a member's value, an added member, a
    /// removed one, the proof's own options, the signature.
    @Test func anyChangeBreaksTheProof() throws {
        let vector = try Vectors.json("fep-8b32.json")
        let key = try PrivateKey(rawEd25519Seed: #require(Multikey.ed25519PrivateKey(vector["secretKeyMultibase"] as! String)))
        let signed = try Vectors.value(vector["signedDocument"]!).members!
        func verifies(_ document: [String: CanonicalJSON]) -> Bool {
            EddsaJcs2022.proofs(in: document).contains { EddsaJcs2022.verify($0, of: document, key: key.publicKey) }
        }
        #expect(verifies(signed))
        var changed = signed
        changed["actor"] = .string("https://server.example/users/mallory")
        #expect(!verifies(changed))
        changed = signed
        changed["to"] = .string("https://www.w3.org/ns/activitystreams#Public")
        #expect(!verifies(changed))
        changed = signed
        changed["object"] = .string("https://server.example/objects/1")
        #expect(!verifies(changed))
        changed = signed
        changed["@context"] = nil
        #expect(!verifies(changed))
        for (member, value) in [("created", CanonicalJSON.string("2024-02-24T23:36:38Z")),
                                ("verificationMethod", .string("https://server.example/users/bob#ed25519-key"))] {
            changed = signed
            var proof = signed["proof"]!.members!
            proof[member] = value
            changed["proof"] = .object(proof)
            #expect(!verifies(changed), "\(member)")
        }
        var proof = signed["proof"]!.members!
        var signature = Multibase.decode(proof["proofValue"]!.string!)!
        signature[10] ^= 1
        proof["proofValue"] = .string(Multibase.encode(signature))
        changed = signed
        changed["proof"] = .object(proof)
        #expect(!verifies(changed))
        // Another key.
        let other = try PrivateKey.generate(.ed25519)
        #expect(!EddsaJcs2022.proofs(in: signed).contains { EddsaJcs2022.verify($0, of: signed, key: other.publicKey) })
    }

    @Test func onlyEddsaJcs2022AssertionProofsCount() throws {
        let key = try PrivateKey.generate(.ed25519)
        let document: [String: CanonicalJSON] = ["@context": .string("https://www.w3.org/ns/activitystreams"), "type": .string("Note")]
        let signed = try EddsaJcs2022.sign(document, key: key, verificationMethod: "https://a.example/u#k", created: "2025-01-01T00:00:00Z")
        let proof = signed["proof"]!.members!
        for (member, value) in [("cryptosuite", CanonicalJSON.string("eddsa-rdfc-2022")), ("type", .string("Ed25519Signature2020")),
                                ("proofPurpose", .string("authentication")), ("created", .string("yesterday")),
                                ("expires", .string("2025-01-02T00:00:00Z")), ("previousProof", .string("urn:x")),
                                ("proofValue", .string("uAAAA")), ("verificationMethod", .number(1))] {
            var other = proof
            other[member] = value
            var changed = signed
            changed["proof"] = .object(other)
            #expect(EddsaJcs2022.proofs(in: changed, now: 1_767_225_600).isEmpty, "\(member)")  // 2026
        }
        // A set: each proof is read, no more than four.
        var set = signed
        set["proof"] = .array(Array(repeating: .object(proof), count: 6))
        #expect(EddsaJcs2022.proofs(in: set).count == EddsaJcs2022.maximumProofs)
        #expect(EddsaJcs2022.proofs(in: set).allSatisfy { EddsaJcs2022.verify($0, of: set, key: key.publicKey) })
    }

    /// §3.3.2: the document's `@context` must start with the proof's.
    @Test func theProofsContextMustBeginTheDocuments() throws {
        let key = try PrivateKey.generate(.ed25519)
        let document: [String: CanonicalJSON] = ["@context": .array([.string("https://www.w3.org/ns/activitystreams"),
                                                                     .string("https://w3id.org/security/data-integrity/v1")]),
                                                 "type": .string("Note")]
        let signed = try EddsaJcs2022.sign(document, key: key, verificationMethod: "https://a.example/u#k", created: "2025-01-01T00:00:00Z")
        var reordered = signed
        reordered["@context"] = .array([.string("https://w3id.org/security/data-integrity/v1"), .string("https://www.w3.org/ns/activitystreams")])
        #expect(!EddsaJcs2022.verify(EddsaJcs2022.proofs(in: reordered)[0], of: reordered, key: key.publicKey))
        var shortened = signed
        shortened["@context"] = .string("https://www.w3.org/ns/activitystreams")
        #expect(!EddsaJcs2022.verify(EddsaJcs2022.proofs(in: shortened)[0], of: shortened, key: key.publicKey))
    }
}
