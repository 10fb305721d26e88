import CCrypto

/// Moving bytes in and out of OpenSSL memory BIOs.
enum MemoryBIO {
    static func reading<R>(_ text: String, _ body: (OpaquePointer) throws -> R) throws -> R {
        var bytes = Array(text.utf8)
        return try bytes.withUnsafeMutableBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else {
                throw CryptoError.openSSL("read PEM")
            }
            defer { _ = BIO_free(bio) }
            return try body(bio)
        }
    }

    static func writing(_ operation: String, _ body: (OpaquePointer) -> Int32) throws -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { throw CryptoError.openSSL(operation) }
        defer { _ = BIO_free(bio) }
        guard body(bio) == 1 else { throw CryptoError.openSSL(operation) }
        let count = Int(BIO_ctrl_pending(bio))
        var output = [UInt8](repeating: 0, count: count)
        guard BIO_read(bio, &output, Int32(count)) == Int32(count) else { throw CryptoError.openSSL(operation) }
        return String(decoding: output, as: UTF8.self)
    }
}
