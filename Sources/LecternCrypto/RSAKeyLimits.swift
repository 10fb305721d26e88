import CCrypto

/// An RSA key's public numbers against the limits a remote actor's key must keep. The key is
/// the sender's choice: OpenSSL bounds the public exponent only above 3,072 bits, so a key whose
/// exponent is as long as its modulus would make every check of every request it signs a
/// full-length exponentiation (milliseconds to seconds), and a modulus of thousands of words
/// would do the same. Fediverse keys are 2,048 to 4,096 bits with e = 65537 (`RemoteKeyProvider`
/// holds remote actors' keys to that; these are the limits of any key parsed at all).
struct RSAKeyLimits {
    /// Half OpenSSL's own limit (16,384): a check costs the square of the length, so an
    /// 8,192-bit key already costs sixteen 2,048-bit checks.
    static let maximumModulusBits: Int32 = 8192
    static let maximumExponentBits: Int32 = 64  // OpenSSL's OPENSSL_RSA_MAX_PUBEXP_BITS, for every size

    /// The public exponent's size in bits (17 for 65537).
    let exponentBits: Int
    /// Why these numbers are refused, or nil.
    let problem: String?

    /// nil for a key that is not RSA (or whose numbers OpenSSL does not hand out).
    init?(key: OpaquePointer) {
        var modulus: OpaquePointer?, exponent: OpaquePointer?
        defer { BN_free(modulus); BN_free(exponent) }  // each accepts nil
        // "n" and "e": OSSL_PKEY_PARAM_RSA_N and OSSL_PKEY_PARAM_RSA_E.
        guard EVP_PKEY_get_bn_param(key, "n", &modulus) == 1, let modulus,
              EVP_PKEY_get_bn_param(key, "e", &exponent) == 1, let exponent else {
            ERR_clear_error()
            return nil
        }
        let bits = BN_num_bits(modulus), exponentBits = BN_num_bits(exponent)
        self.exponentBits = Int(exponentBits)
        if bits > Self.maximumModulusBits {
            problem = "an RSA modulus of \(bits) bits (at most \(Self.maximumModulusBits))"
        } else if BN_is_odd(exponent) != 1 || exponentBits < 2 || exponentBits > Self.maximumExponentBits
                    || BN_ucmp(exponent, modulus) >= 0 {
            problem = "an RSA public exponent that is not odd, from 3 to 64 bits and below the modulus"
        } else {
            problem = nil
        }
    }
}
