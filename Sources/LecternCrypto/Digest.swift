import COpenSSL

/// Message digests through OpenSSL's EVP interface.
public enum Digest {
    public static func sha256<Bytes: Collection>(_ data: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        hash(data, EVP_sha256(), length: 32)
    }

    public static func sha512<Bytes: Collection>(_ data: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        hash(data, EVP_sha512(), length: 64)
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

/// Cryptographically secure random bytes (OpenSSL's CSPRNG).
public enum SecureRandom {
    public static func bytes(_ count: Int) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: count)
        precondition(RAND_bytes(&output, Int32(count)) == 1, "RAND_bytes failed")
        return output
    }
}
