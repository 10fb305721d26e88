import COpenSSL

/// Message digests through OpenSSL's EVP interface.
public enum Digest {
    public static func sha256<Bytes: Collection>(_ data: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        hash(data, FetchedDigest.sha256, length: 32)
    }

    public static func sha512<Bytes: Collection>(_ data: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        hash(data, FetchedDigest.sha512, length: 64)
    }

    private static func hash<Bytes: Collection>(_ data: Bytes, _ type: OpaquePointer?, length: Int) -> [UInt8]
    where Bytes.Element == UInt8 {
        var output = [UInt8](repeating: 0, count: length)
        var size: UInt32 = 0
        let ok = data.withContiguousStorageIfAvailable { input in
            EVP_Digest(input.baseAddress, input.count, &output, &size, type, nil)
        } ?? Array(data).withUnsafeBufferPointer { input in
            EVP_Digest(input.baseAddress, input.count, &output, &size, type, nil)
        }
        // EVP_Digest fails only on allocation failure; a digest is not optional for callers.
        precondition(ok == 1 && Int(size) == length, "EVP_Digest failed")
        return output
    }
}

/// Digest implementations fetched from OpenSSL's provider once. `EVP_sha256()` makes OpenSSL 3
/// fetch the implementation again on every use, which costs a noticeable share of a signature
/// verification. Fetched objects are immutable and safe to share between threads.
enum FetchedDigest {
    nonisolated(unsafe) static let sha256: OpaquePointer? = EVP_MD_fetch(nil, "SHA256", nil)
    nonisolated(unsafe) static let sha512: OpaquePointer? = EVP_MD_fetch(nil, "SHA512", nil)
}

/// Cryptographically secure random bytes (OpenSSL's CSPRNG).
public enum SecureRandom {
    public static func bytes(_ count: Int) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: count)
        precondition(RAND_bytes(&output, Int32(count)) == 1, "RAND_bytes failed")
        return output
    }
}
