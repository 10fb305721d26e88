import CCryptoShim
import Synchronization

/// RSASSA-PKCS1-v1_5 / SHA-256 verification with one RSA public key, done the way RFC 8017
/// §8.2.2 states it: the signature raised to the public exponent modulo n (RSAVP1, with
/// OpenSSL's Montgomery products), compared byte for byte with the encoding of the message's
/// hash (EMSA-PKCS1-v1_5). Comparing whole encodings leaves no padding to parse, so none of the
/// classic padding-parsing forgeries apply.
///
/// The power is a square-and-multiply chain of Montgomery products (each a·b·R⁻¹ mod n) that
/// starts from s itself rather than from s·R: the chain then ends at s^e·R⁻ᵇ for a b that only
/// the exponent decides, and one product by R^(b+1), computed once per key, turns that into
/// s^e. `BN_mod_exp_mont` spends a product entering Montgomery form and a reduction (OpenSSL's
/// generic C) leaving it: 19 steps for e = 65537 against these 18, all in OpenSSL's assembly
/// product; 17.7 µs against 15.3 µs per power, measured in C on this machine (bench/RESULTS.md,
/// signatures, fourteenth round).
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
    /// The exponent's bits below its top one, most significant first: after each squaring,
    /// whether the chain multiplies by s.
    private let multiplies: [Bool]
    /// R^(b+1) mod n, where the chain leaves s^e·R⁻ᵇ.
    private let correction: OpaquePointer
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
        let (multiplies, b) = Self.chain(for: crypto.BN_get_word(numbers.exponent), bits: Int(crypto.BN_num_bits(numbers.exponent)))
        guard crypto.BN_MONT_CTX_set(montgomery, numbers.modulus, context) == 1,
              let correction = Self.power(ofR: b + 1, montgomery, numbers.modulus, context) else {
            crypto.BN_MONT_CTX_free(montgomery)
            crypto.ERR_clear_error()
            return nil
        }
        self.size = size
        self.numbers = numbers
        self.montgomery = montgomery
        self.multiplies = multiplies
        self.correction = correction
    }

    deinit {
        spare.withLock { $0.forEach(Self.free) }
        crypto.BN_MONT_CTX_free(montgomery)
        crypto.BN_free(correction)
    }

    /// The chain for exponent `e` (at most 64 bits, `RSAPublicNumbers.problem`), and the b it
    /// leaves: from x = s·R⁰, squaring takes s^a·R⁻ᵇ to s^2a·R^-(2b+1), multiplying by s to
    /// s^(a+1)·R^-(b+1). b stays below 2^64 (it is 2^64 − 2 for e = 2^64 − 1); a `UInt128` keeps
    /// b + 1 and every step clear of overflow.
    private static func chain(for e: UInt, bits: Int) -> (multiplies: [Bool], b: UInt128) {
        var multiplies: [Bool] = [], b: UInt128 = 0
        for bit in stride(from: bits - 2, through: 0, by: -1) {
            let multiply = (e >> bit) & 1 == 1
            multiplies.append(multiply)
            b = 2 * b + 1 + (multiply ? 1 : 0)
        }
        return (multiplies, b)
    }

    /// R^k mod n, as (R mod n)^k: R mod n is 1 in Montgomery form.
    private static func power(ofR k: UInt128, _ montgomery: OpaquePointer, _ modulus: OpaquePointer,
                              _ context: OpaquePointer) -> OpaquePointer? {
        let bytes = (0..<16).reversed().map { UInt8(truncatingIfNeeded: k >> ($0 * 8)) }
        let exponent = crypto.BN_bin2bn(bytes, 16, nil), base = crypto.BN_new(), result = crypto.BN_new()
        defer { crypto.BN_free(exponent); crypto.BN_free(base) }
        guard let exponent, let base, let result, crypto.BN_set_word(base, 1) == 1,
              crypto.BN_to_montgomery(base, base, montgomery, context) == 1,
              crypto.BN_mod_exp_mont(result, base, exponent, modulus, context, montgomery) == 1 else {
            crypto.BN_free(result)
            return nil
        }
        return result
    }

    /// Whether `signature` is a PKCS#1 v1.5 signature of `message`'s SHA-256; false for any
    /// signature of the wrong length or not below the modulus (RSAVP1 step 1).
    func verify(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        representative(of: signature) { recovered in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: size) { expected in
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
                return memcmp(recovered.baseAddress!, expected.baseAddress!, size) == 0  // size > 0: never nil
            }
        } ?? false
    }

    /// RSAVP1 (§5.2.2): the signature's e-th power mod n, as `size` bytes, handed to `body`;
    /// nil for a signature of the wrong length or not below the modulus (step 1).
    func representative<Result>(of signature: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        guard signature.count == size, let scratch = take() else { return nil }
        defer { giveBack(scratch) }
        guard crypto.BN_bin2bn(signature, Int32(size), scratch.signature) != nil,
              crypto.BN_ucmp(scratch.signature, numbers.modulus) < 0,
              raise(scratch) else {
            crypto.ERR_clear_error()  // an allocation failure queues a reason no caller asked for
            return nil
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: size) { buffer in
            guard crypto.BN_bn2binpad(scratch.result, buffer.baseAddress, Int32(size)) == Int32(size) else { return nil }
            return body(UnsafeBufferPointer(buffer))
        }
    }

    /// RSAVP1 (§5.2.2): scratch.result = scratch.signature^e mod n, fully reduced.
    private func raise(_ scratch: Scratch) -> Bool {
        let x = scratch.result, s = scratch.signature, context = scratch.context
        guard crypto.BN_copy(x, s) != nil else { return false }
        for multiply in multiplies {
            guard crypto.BN_mod_mul_montgomery(x, x, x, montgomery, context) == 1 else { return false }
            if multiply { guard crypto.BN_mod_mul_montgomery(x, x, s, montgomery, context) == 1 else { return false } }
        }
        return crypto.BN_mod_mul_montgomery(x, x, correction, montgomery, context) == 1
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
