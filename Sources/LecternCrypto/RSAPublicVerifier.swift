import CCryptoShim
import Synchronization

/// RSASSA-PKCS1-v1_5 / SHA-256 verification with one RSA public key, done the way RFC 8017
/// §8.2.2 states it: the signature raised to the public exponent modulo n (RSAVP1, with
/// OpenSSL's Montgomery arithmetic), compared byte for byte with the encoding of the message's
/// hash (EMSA-PKCS1-v1_5). Comparing whole encodings leaves no padding to parse, so none of the
/// classic padding-parsing forgeries apply.
///
/// Why not `EVP_PKEY_verify`: around the same exponentiation it allocates a bignum context,
/// reads the Montgomery context under a lock, checks the padding in constant time (only
/// decryption needs that) and encodes the DigestInfo into a fresh buffer, every time. Measured
/// in C on this machine, 19.5 µs against 18.75 µs per check, out of a whole request check of
/// ~24 µs (bench/RESULTS.md, third round). Remote actors' keys check every request they send.
///
/// The key's numbers and Montgomery context are read-only after `init` and shared by every
/// thread; each check takes a scratch context of its own from a small pool.
final class RSAPublicVerifier: @unchecked Sendable {
    /// `k`, the modulus's length in bytes: a signature is exactly this long.
    let size: Int
    private let numbers: RSAPublicNumbers
    private let montgomery: OpaquePointer
    private let spare = Mutex<[Scratch]>([])
    /// More spare scratch contexts than threads that verify at once would only hold memory.
    private static let maximumSpare = 8

    /// The DER prefix of a SHA-256 DigestInfo (RFC 8017 §9.2, note 1).
    private static let sha256DigestInfo: [UInt8] = [
        0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20,
    ]

    private struct Scratch: @unchecked Sendable {
        let context: OpaquePointer, signature: OpaquePointer, result: OpaquePointer
    }

    /// nil for numbers `RSAPublicNumbers` refuses, or a modulus too short for a SHA-256
    /// encoding (62 bytes, §9.2 step 3): the caller keeps OpenSSL's own path.
    init?(numbers: RSAPublicNumbers) {
        guard numbers.problem == nil else { return nil }
        let size = Int((crypto.BN_num_bits(numbers.modulus) + 7) / 8)
        guard size >= 19 + 32 + 11, crypto.BN_is_odd(numbers.modulus) == 1 else { return nil }
        guard let context = crypto.BN_CTX_new() else { return nil }  // BN_MONT_CTX_set does not take nil
        defer { crypto.BN_CTX_free(context) }
        guard let montgomery = crypto.BN_MONT_CTX_new() else { return nil }
        guard crypto.BN_MONT_CTX_set(montgomery, numbers.modulus, context) == 1 else {
            crypto.BN_MONT_CTX_free(montgomery)
            crypto.ERR_clear_error()
            return nil
        }
        self.size = size
        self.numbers = numbers
        self.montgomery = montgomery
    }

    deinit {
        spare.withLock { $0.forEach(Self.free) }
        crypto.BN_MONT_CTX_free(montgomery)
    }

    /// Whether `signature` is a PKCS#1 v1.5 signature of `message`'s SHA-256; false for any
    /// signature of the wrong length or not below the modulus (RSAVP1 step 1).
    func verify(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        guard signature.count == size, let scratch = take() else { return false }
        defer { giveBack(scratch) }
        guard crypto.BN_bin2bn(signature, Int32(size), scratch.signature) != nil,
              crypto.BN_ucmp(scratch.signature, numbers.modulus) < 0,
              crypto.BN_mod_exp_mont(scratch.result, scratch.signature, numbers.exponent, numbers.modulus, scratch.context, montgomery) == 1 else {
            crypto.ERR_clear_error()  // an allocation failure queues a reason no caller asked for
            return false
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * size) { buffer in
            let recovered = UnsafeMutableBufferPointer(rebasing: buffer[..<size])
            let expected = UnsafeMutableBufferPointer(rebasing: buffer[size...])
            guard crypto.BN_bn2binpad(scratch.result, recovered.baseAddress, Int32(size)) == Int32(size) else { return false }
            // EM = 0x00 0x01 0xff…0xff 0x00 DigestInfo H (§9.2 step 5).
            let hashStart = size - 32, infoStart = hashStart - Self.sha256DigestInfo.count
            expected[0] = 0x00
            expected[1] = 0x01
            expected[2..<(infoStart - 1)].update(repeating: 0xff)
            expected[infoStart - 1] = 0x00
            _ = UnsafeMutableBufferPointer(rebasing: expected[infoStart..<hashStart]).initialize(from: Self.sha256DigestInfo)
            Digest.withSHA256(message) { hash in
                _ = UnsafeMutableBufferPointer(rebasing: expected[hashStart...]).initialize(from: hash)
            }
            return memcmp(buffer.baseAddress!, buffer.baseAddress! + size, size) == 0  // capacity > 0: never nil
        }
    }

    private func take() -> Scratch? {
        if let scratch = spare.withLock({ $0.popLast() }) { return scratch }
        let context = crypto.BN_CTX_new(), signature = crypto.BN_new(), result = crypto.BN_new()
        guard let context, let signature, let result else {
            crypto.BN_CTX_free(context); crypto.BN_free(signature); crypto.BN_free(result)  // each accepts nil
            return nil
        }
        return Scratch(context: context, signature: signature, result: result)
    }

    private func giveBack(_ scratch: Scratch) {
        let kept = spare.withLock { spare in
            guard spare.count < Self.maximumSpare else { return false }
            spare.append(scratch)
            return true
        }
        if !kept { Self.free(scratch) }
    }

    private static func free(_ scratch: Scratch) {
        crypto.BN_CTX_free(scratch.context)
        crypto.BN_free(scratch.signature)
        crypto.BN_free(scratch.result)
    }
}

/// An RSA key's public numbers, and the limits a remote actor's key must keep. The key is the
/// sender's choice: OpenSSL bounds the public exponent only above 3072 bits, so a key whose
/// exponent is as long as its modulus would make every check of every request it signs a
/// full-length exponentiation (milliseconds to seconds), and a modulus of thousands of words
/// would do the same. Fediverse keys are 2048 to 4096 bits with e = 65537.
final class RSAPublicNumbers: @unchecked Sendable {
    /// Half OpenSSL's own limit (16,384): a check costs the square of the length, so an
    /// 8,192-bit key already costs sixteen 2,048-bit checks.
    static let maximumModulusBits: Int32 = 8192
    static let maximumExponentBits: Int32 = 64  // OpenSSL's OPENSSL_RSA_MAX_PUBEXP_BITS, for every size
    let modulus: OpaquePointer
    let exponent: OpaquePointer

    /// nil for a key that is not RSA (or whose numbers OpenSSL does not hand out).
    init?(key: OpaquePointer) {
        var modulus: OpaquePointer?, exponent: OpaquePointer?
        // "n" and "e": OSSL_PKEY_PARAM_RSA_N and OSSL_PKEY_PARAM_RSA_E.
        guard crypto.EVP_PKEY_get_bn_param(key, "n", &modulus) == 1, let modulus,
              crypto.EVP_PKEY_get_bn_param(key, "e", &exponent) == 1, let exponent else {
            crypto.BN_free(modulus)
            crypto.ERR_clear_error()
            return nil
        }
        self.modulus = modulus
        self.exponent = exponent
    }

    deinit {
        crypto.BN_free(modulus)
        crypto.BN_free(exponent)
    }

    /// Why these numbers are refused, or nil.
    var problem: String? {
        let bits = crypto.BN_num_bits(modulus)
        if bits > Self.maximumModulusBits { return "an RSA modulus of \(bits) bits (at most \(Self.maximumModulusBits))" }
        let exponentBits = crypto.BN_num_bits(exponent)
        guard crypto.BN_is_odd(exponent) == 1, exponentBits >= 2, exponentBits <= Self.maximumExponentBits,
              crypto.BN_ucmp(exponent, modulus) < 0 else {
            return "an RSA public exponent that is not odd, from 3 to 64 bits and below the modulus"
        }
        return nil
    }
}
