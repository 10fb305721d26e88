import CCryptoShim

/// OpenSSL's functions, from libcrypto opened on first use (`CCryptoShim`): every call in this
/// module goes through this table, so a command that neither signs nor verifies never loads it.
let crypto: lectern_crypto = {
    // A broken install (Debian's libssl3 missing): `lectern doctor` and `version` say so first.
    guard let table = lectern_crypto_load() else { fatalError(String(cString: lectern_crypto_load_error())) }
    return table.pointee
}()

public enum OpenSSLLibrary {
    /// libcrypto's version (`3.0.15`), loading it, or why it cannot be loaded: what `lectern
    /// version` and `lectern doctor` report, and what must succeed before any key is used.
    public static func library() -> Result<String, CryptoError> {
        guard let table = lectern_crypto_load() else {
            return .failure(CryptoError("load libcrypto", reason: String(cString: lectern_crypto_load_error())))
        }
        return .success(table.pointee.OpenSSL_version(OPENSSL_VERSION_STRING).map { String(cString: $0) } ?? "unknown")
    }

    /// Throws why libcrypto cannot be loaded: the first step of making or reading a key, so a
    /// broken install fails there with the reason instead of stopping the process later.
    static func require() throws {
        if case .failure(let error) = library() { throw error }
    }
}
