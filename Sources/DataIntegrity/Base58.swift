/// Bitcoin's base58 (the alphabet without 0, O, I and l), as multibase's `z` prefix names it
/// (`base58btc`). Our own code, like `CanonicalJSON`: no library in the package mirror has it.
/// The conversion is the schoolbook one, quadratic in the length, so decoding refuses long
/// input: what Lectern reads is a key (34 bytes) or a signature (64 bytes).
public enum Base58 {
    static let alphabet = Array("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz".utf8)
    static let values: [Int8] = {
        var table = [Int8](repeating: -1, count: 256)
        for (value, symbol) in alphabet.enumerated() { table[Int(symbol)] = Int8(value) }
        return table
    }()
    /// Longest text `decode` reads: 200 characters are 146 bytes.
    public static let maximumDecodedLength = 200

    public static func encode(_ bytes: [UInt8]) -> String {
        let zeros = bytes.prefix { $0 == 0 }.count
        // Base 256 → base 58, most significant digit last while building.
        var digits: [UInt8] = []
        for byte in bytes.dropFirst(zeros) {
            var carry = Int(byte)
            for position in digits.indices {
                carry += Int(digits[position]) << 8
                digits[position] = UInt8(carry % 58)
                carry /= 58
            }
            while carry > 0 {
                digits.append(UInt8(carry % 58))
                carry /= 58
            }
        }
        return String(decoding: [UInt8](repeating: alphabet[0], count: zeros) + digits.reversed().map { alphabet[Int($0)] },
                      as: UTF8.self)
    }

    /// nil for a character outside the alphabet or text longer than `maximumDecodedLength`.
    public static func decode(_ text: String) -> [UInt8]? {
        let symbols = Array(text.utf8)
        guard symbols.count <= maximumDecodedLength else { return nil }
        let ones = symbols.prefix { $0 == alphabet[0] }.count
        var bytes: [UInt8] = []  // least significant first while building
        for symbol in symbols.dropFirst(ones) {
            let value = values[Int(symbol)]
            guard value >= 0 else { return nil }
            var carry = Int(value)
            for position in bytes.indices {
                carry += Int(bytes[position]) * 58
                bytes[position] = UInt8(carry & 0xFF)
                carry >>= 8
            }
            while carry > 0 {
                bytes.append(UInt8(carry & 0xFF))
                carry >>= 8
            }
        }
        return [UInt8](repeating: 0, count: ones) + bytes.reversed()
    }
}

/// Multibase text (`z` + base58btc only: what FEP-521a and the Data Integrity specifications
/// use) and Multikey values: a multicodec prefix, then the key.
public enum Multibase {
    public static func encode(_ bytes: [UInt8]) -> String { "z" + Base58.encode(bytes) }

    /// nil unless `text` is `z` followed by base58btc.
    public static func decode(_ text: String) -> [UInt8]? {
        guard text.first == "z" else { return nil }
        return Base58.decode(String(text.dropFirst()))
    }
}

public enum Multikey {
    /// `ed25519-pub` (0xed) as an unsigned varint.
    static let ed25519Public: [UInt8] = [0xED, 0x01]
    /// `ed25519-priv` (0x1300) as an unsigned varint.
    static let ed25519Private: [UInt8] = [0x80, 0x26]

    /// `publicKeyMultibase` of an Ed25519 public key's 32 bytes: `z6Mk…`.
    public static func ed25519(publicKey raw: [UInt8]) -> String { Multibase.encode(ed25519Public + raw) }

    /// The 32 bytes of an Ed25519 public key's `publicKeyMultibase`; nil for anything else.
    public static func ed25519PublicKey(_ text: String) -> [UInt8]? {
        guard let bytes = Multibase.decode(text), bytes.count == 34, Array(bytes.prefix(2)) == ed25519Public else { return nil }
        return Array(bytes.dropFirst(2))
    }

    /// The 32-byte seed of an Ed25519 `secretKeyMultibase` (test vectors give keys so).
    public static func ed25519PrivateKey(_ text: String) -> [UInt8]? {
        guard let bytes = Multibase.decode(text), bytes.count == 34, Array(bytes.prefix(2)) == ed25519Private else { return nil }
        return Array(bytes.dropFirst(2))
    }
}
