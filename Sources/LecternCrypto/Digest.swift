import CCrypto

/// Message digests through OpenSSL's EVP interface.
public enum Digest {
    public static func sha256<Bytes: Collection>(_ data: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        hash(data, FetchedDigest.sha256, length: 32)
    }

    public static func sha512<Bytes: Collection>(_ data: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        hash(data, FetchedDigest.sha512, length: 64)
    }

    /// Whether `expected` is the SHA-256 of `data`, without an array for the hash (a body digest
    /// is checked on every signed request).
    public static func sha256(of data: [UInt8], is expected: [UInt8]) -> Bool {
        withSHA256(data) { $0.elementsEqual(expected) }
    }

    /// SHA-256 of `data` in a stack buffer, for callers that only pass it on (a signature check
    /// per request: no array to allocate).
    static func withSHA256<R>(_ data: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { output in
            hash(data, FetchedDigest.sha256, length: 32, into: output)
            return body(UnsafeBufferPointer(output))
        }
    }

    private static func hash<Bytes: Collection>(_ data: Bytes, _ type: OpaquePointer?, length: Int) -> [UInt8]
    where Bytes.Element == UInt8 {
        [UInt8](unsafeUninitializedCapacity: length) { output, count in
            hash(data, type, length: length, into: output)
            count = length
        }
    }

    private static func hash<Bytes: Collection>(_ data: Bytes, _ type: OpaquePointer?, length: Int,
                                                into output: UnsafeMutableBufferPointer<UInt8>) where Bytes.Element == UInt8 {
        var size: UInt32 = 0
        let ok = data.withContiguousStorageIfAvailable { input in
            EVP_Digest(input.baseAddress, input.count, output.baseAddress, &size, type, nil)
        } ?? Array(data).withUnsafeBufferPointer { input in
            EVP_Digest(input.baseAddress, input.count, output.baseAddress, &size, type, nil)
        }
        // EVP_Digest fails only on allocation failure; a digest is not optional for callers.
        precondition(ok == 1 && Int(size) == length, "EVP_Digest failed")
    }
}

/// Digest implementations fetched from OpenSSL's provider once. `EVP_sha256()` makes OpenSSL 3
/// fetch the implementation again on every use, which costs a noticeable share of a signature
/// verification. Fetched objects are immutable and safe to share between threads.
enum FetchedDigest {
    nonisolated(unsafe) static let sha256: OpaquePointer? = EVP_MD_fetch(nil, "SHA256", nil)
    nonisolated(unsafe) static let sha512: OpaquePointer? = EVP_MD_fetch(nil, "SHA512", nil)
}

/// HMAC-SHA256 through OpenSSL 3's one-shot `EVP_Q_mac`.
public enum HMACSHA256 {
    public static func mac(key: [UInt8], data: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        var length = 0
        let done = EVP_Q_mac(nil, "HMAC", nil, "SHA256", nil, key, key.count, data, data.count, &output, output.count, &length)
        precondition(done != nil && length == 32, "EVP_Q_mac failed")
        return output
    }
}

/// Cryptographically secure random bytes (OpenSSL's CSPRNG).
public enum SecureRandom {
    public static func bytes(_ count: Int) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: count)
        precondition(RAND_bytes(&output, Int32(count)) == 1, "RAND_bytes failed")
        return output
    }
}
