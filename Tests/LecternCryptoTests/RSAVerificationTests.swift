import CCrypto
import Foundation
import Testing
@testable import LecternCrypto

/// PKCS#1 v1.5 / SHA-256 checks go through contexts set up once per key and copied for each
/// check (`VerificationContexts`): they must answer exactly as a context set up afresh for the
/// check does, on good signatures, on every damaged one, and on encodings built to fool a
/// verifier that parses its padding.
@Suite struct RSAVerificationTests {
    static let message = Array("POST /inbox\nhost: blog.example\ndigest: SHA-256=…".utf8)

    /// OpenSSL's answer from a context set up for this one check: the oracle.
    static func openSSLVerifies(_ signature: [UInt8], _ message: [UInt8], _ key: PrivateKey) throws -> Bool {
        try key.key.withContext(.rsaV15SHA256, signing: false, "verify") { context in
            EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
        }
    }

    /// The private key's raw RSA operation on `encoded` (no padding added): a "signature" whose
    /// e-th power is exactly `encoded`.
    static func rawSignature(of encoded: [UInt8], _ key: PrivateKey) throws -> [UInt8] {
        let context = try #require(EVP_PKEY_CTX_new_from_pkey(nil, key.key.pointer, nil))
        defer { EVP_PKEY_CTX_free(context) }
        #expect(EVP_PKEY_sign_init(context) == 1 && EVP_PKEY_CTX_set_rsa_padding(context, RSA_NO_PADDING) == 1)
        var output = [UInt8](repeating: 0, count: encoded.count), length = encoded.count
        #expect(EVP_PKEY_sign(context, &output, &length, encoded, encoded.count) == 1)
        return output
    }

    static let sha256DigestInfo: [UInt8] = [0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20]

    @Test(arguments: [2048, 3072, 4096])
    func agreesWithOpenSSLOnGoodAndDamagedSignatures(bits: Int) throws {
        let key = try PrivateKey.generate(.rsa(bits: bits))
        // The cached remote key's path: parsed from what the actor publishes.
        let publicKey = try PublicKey(pem: key.publicKey.pemSPKI())
        let signature = try key.sign(Self.message, algorithm: .rsaV15SHA256)
        #expect(signature.count == bits / 8)
        #expect(publicKey.verify(signature, for: Self.message, algorithm: .rsaV15SHA256))
        #expect(try Self.openSSLVerifies(signature, Self.message, key))
        var damaged: [[UInt8]] = [Array(signature.dropLast()), signature + [0], [0] + signature, [], Array(repeating: 0, count: signature.count)]
        for position in stride(from: 0, to: signature.count, by: 7) {
            var flipped = signature
            flipped[position] ^= 0x01
            damaged.append(flipped)
        }
        for candidate in damaged {
            #expect(!publicKey.verify(candidate, for: Self.message, algorithm: .rsaV15SHA256))
            #expect(try !Self.openSSLVerifies(candidate, Self.message, key))
        }
        #expect(!publicKey.verify(signature, for: Self.message + [0], algorithm: .rsaV15SHA256))
        // A refusal leaves no stale reason behind for the next OpenSSL call to report.
        #expect(ERR_peek_error() == 0)
        // Checks after refusals (the same contexts, copied again) still accept a good signature.
        #expect(publicKey.verify(signature, for: Self.message, algorithm: .rsaV15SHA256))
    }

    /// RSAVP1 step 1: a representative not below the modulus is refused, even one that
    /// reduces to a valid signature (s + n ≡ s mod n).
    @Test func refusesSignaturesNotBelowTheModulus() throws {
        var tried = 0
        for _ in 0..<5 {
            let key = try PrivateKey.generate(.rsa(bits: 2048))
            let publicKey = key.publicKey
            var modulus: OpaquePointer?
            #expect(EVP_PKEY_get_bn_param(key.key.pointer, "n", &modulus) == 1)
            defer { BN_free(modulus) }
            var modulusBytes = [UInt8](repeating: 0, count: 256)
            #expect(BN_bn2binpad(modulus, &modulusBytes, 256) == 256)
            #expect(!publicKey.verify(modulusBytes, for: Self.message, algorithm: .rsaV15SHA256))
            #expect(!publicKey.verify(Array(repeating: 0xff, count: 256), for: Self.message, algorithm: .rsaV15SHA256))
            // s + n fits in 256 bytes only when s < 2^2048 - n: look for a message whose signature does.
            for index in 0..<200 {
                let message = Self.message + Array("\(index)".utf8)
                let signature = try key.sign(message, algorithm: .rsaV15SHA256)
                let sum = BN_new(), s = BN_bin2bn(signature, Int32(signature.count), nil)
                defer { BN_free(sum); BN_free(s) }
                #expect(BN_add(sum, s, modulus) == 1)
                var wrapped = [UInt8](repeating: 0, count: 256)
                guard BN_bn2binpad(sum, &wrapped, 256) == 256 else { continue }
                #expect(publicKey.verify(signature, for: message, algorithm: .rsaV15SHA256))
                #expect(!publicKey.verify(wrapped, for: message, algorithm: .rsaV15SHA256), "s + n must not pass for s")
                tried += 1
                if tried == 3 { return }
            }
        }
        Issue.record("no signature below 2^2048 - n in 1,000 tries")
    }

    /// Encodings that carry the right hash in the wrong frame: garbage after the hash (the 2006
    /// forgery shape), a short padding, block type 2, another hash's DigestInfo, no DigestInfo.
    @Test func refusesEveryEncodingButTheOneTheRFCDefines() throws {
        let key = try PrivateKey.generate(.rsa(bits: 2048))
        let publicKey = key.publicKey
        let hash = Digest.sha256(Self.message), size = 256
        func encoding(type: UInt8 = 1, info: [UInt8] = Self.sha256DigestInfo, hash: [UInt8] = hash, trailer: [UInt8] = []) -> [UInt8] {
            let tail = [0] + info + hash + trailer
            return [0, type] + Array(repeating: 0xff, count: size - 2 - tail.count) + tail
        }
        let good = try Self.rawSignature(of: encoding(), key)
        #expect(publicKey.verify(good, for: Self.message, algorithm: .rsaV15SHA256), "the raw operation itself is right")
        let sha512Info: [UInt8] = [0x30, 0x51, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03, 0x05, 0x00, 0x04, 0x40]
        let forged: [[UInt8]] = [
            encoding(trailer: Array(repeating: 0x41, count: 100)),  // hash, then garbage
            encoding(type: 2),
            encoding(info: []),
            encoding(info: sha512Info, hash: Digest.sha512(Self.message)),
            encoding(info: sha512Info),
            Array(encoding().dropFirst(1)) + [0],  // shifted by a byte
        ]
        for encoded in forged {
            let signature = try Self.rawSignature(of: encoded, key)
            #expect(!publicKey.verify(signature, for: Self.message, algorithm: .rsaV15SHA256))
            #expect(try !Self.openSSLVerifies(signature, Self.message, key))
        }
    }

    /// Public exponents other than 65537 that a key may have (3 to 64 bits): signatures made with
    /// such keys (e = 3, 17, 2^32 + 1) verify, and only with their own key.
    @Test(arguments: [3, 17, 4_294_967_297] as [UInt64])
    func keysWithOtherExponentsVerify(exponent: UInt64) throws {
        let key = try Self.generate(bits: 2048, exponent: exponent)
        let publicKey = try PublicKey(pem: key.publicKey.pemSPKI())
        #expect(publicKey.rsaExponentBits == 64 - exponent.leadingZeroBitCount)
        let signature = try key.sign(Self.message, algorithm: .rsaV15SHA256)
        #expect(publicKey.verify(signature, for: Self.message, algorithm: .rsaV15SHA256))
        #expect(!publicKey.verify(signature, for: Self.message + [0], algorithm: .rsaV15SHA256))
        #expect(!(try PrivateKey.generate(.rsa(bits: 2048))).publicKey.verify(signature, for: Self.message, algorithm: .rsaV15SHA256))
    }

    /// A key restricted to PSS (`rsassaPss`) is an RSA key, verifies PSS signatures, and refuses
    /// PKCS#1 v1.5 ones (its padding is OpenSSL's choice).
    @Test func aPSSRestrictedKeyChecksOnlyPSS() throws {
        let context = try #require(EVP_PKEY_CTX_new_from_name(nil, "RSA-PSS", nil))
        defer { EVP_PKEY_CTX_free(context) }
        var generated: OpaquePointer?
        #expect(EVP_PKEY_keygen_init(context) == 1 && EVP_PKEY_CTX_set_rsa_keygen_bits(context, 2048) == 1)
        #expect(EVP_PKEY_generate(context, &generated) == 1)
        let pss = PrivateKey(key: EVPKey(try #require(generated)))
        #expect(pss.type == .rsa(bits: 2048) && pss.key.rsaProblem == nil)
        let signature = try pss.sign(Self.message, algorithm: .rsaPSSSHA512)
        #expect(pss.publicKey.verify(signature, for: Self.message, algorithm: .rsaPSSSHA512))
        #expect(!pss.publicKey.verify(signature, for: Self.message + [0], algorithm: .rsaPSSSHA512))
        let plain = try PrivateKey.generate(.rsa(bits: 2048)).sign(Self.message, algorithm: .rsaV15SHA256)
        #expect(!pss.publicKey.verify(plain, for: Self.message, algorithm: .rsaV15SHA256))
    }

    /// A new RSA key pair with public exponent `exponent`.
    static func generate(bits: Int32, exponent: UInt64) throws -> PrivateKey {
        let context = try #require(EVP_PKEY_CTX_new_from_name(nil, "RSA", nil))
        defer { EVP_PKEY_CTX_free(context) }
        let e = try #require(BN_new())
        defer { BN_free(e) }
        #expect(BN_set_word(e, UInt(exponent)) == 1)
        #expect(EVP_PKEY_keygen_init(context) == 1 && EVP_PKEY_CTX_set_rsa_keygen_bits(context, bits) == 1)
        #expect(EVP_PKEY_CTX_set1_rsa_keygen_pubexp(context, e) == 1)
        var generated: OpaquePointer?
        #expect(EVP_PKEY_generate(context, &generated) == 1)
        return PrivateKey(key: EVPKey(try #require(generated)))
    }

    /// A PKCS#1 `RSA PUBLIC KEY` PEM with these numbers (big-endian bytes).
    static func pem(modulus: [UInt8], exponent: [UInt8]) -> String {
        func length(_ count: Int) -> [UInt8] {
            count < 128 ? [UInt8(count)] : count < 256 ? [0x81, UInt8(count)] : [0x82, UInt8(count >> 8), UInt8(count & 0xff)]
        }
        func integer(_ bytes: [UInt8]) -> [UInt8] {
            let body = bytes.first.map { $0 >= 0x80 } == true ? [0] + bytes : bytes
            return [0x02] + length(body.count) + body
        }
        let content = integer(modulus) + integer(exponent)
        let der = [0x30] + length(content.count) + content
        let base64 = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN RSA PUBLIC KEY-----\n\(base64)\n-----END RSA PUBLIC KEY-----\n"
    }

    static func randomOddModulus(bytes count: Int) -> [UInt8] {
        var modulus = SecureRandom.bytes(count)
        modulus[0] |= 0x80
        modulus[count - 1] |= 1
        return modulus
    }

    /// A remote key is the sender's choice: one whose exponent is as long as its modulus, or
    /// whose modulus is huge, would make every check of every request it signs cost
    /// milliseconds to seconds. OpenSSL bounds the exponent only above 3,072 bits.
    @Test func refusesKeysThatMakeEveryCheckExpensive() throws {
        let modulus = Self.randomOddModulus(bytes: 256)
        let normal = try PublicKey(pem: Self.pem(modulus: modulus, exponent: [0x01, 0x00, 0x01]))
        #expect(normal.type == .rsa(bits: 2048), "the PEM builder is right")
        var almostModulus = modulus
        almostModulus[255] -= 2  // n - 2: odd, below n, 2,048 bits
        let refused: [(String, [UInt8], [UInt8])] = [
            ("exponent as long as the modulus", modulus, almostModulus),
            ("65-bit exponent", modulus, [0x01] + Array(repeating: 0, count: 7) + [0x01]),
            ("even exponent", modulus, [0x01, 0x00, 0x00]),
            ("exponent 1", modulus, [0x01]),
            ("8,200-bit modulus", Self.randomOddModulus(bytes: 1025), [0x01, 0x00, 0x01]),
        ]
        for (name, n, e) in refused {
            #expect(throws: CryptoError.self, "\(name)") { try PublicKey(pem: Self.pem(modulus: n, exponent: e)) }
            do { _ = try PublicKey(pem: Self.pem(modulus: n, exponent: e)) } catch let error as CryptoError {
                #expect(error.reason.hasPrefix("refused"), "\(name): \(error)")
            }
        }
        #expect(throws: Never.self) { try PublicKey(pem: Self.pem(modulus: Self.randomOddModulus(bytes: 1024), exponent: [0x01, 0x00, 0x01])) }
        // 2^64 - 1, the longest exponent accepted at all.
        #expect(throws: Never.self) { try PublicKey(pem: Self.pem(modulus: modulus, exponent: Array(repeating: 0xff, count: 8))) }
    }
}
