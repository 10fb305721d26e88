#if canImport(Glibc)
import Glibc
#endif

/// Prefixes and suffixes of paths, compared as bytes: `hasPrefix` and `hasSuffix` compare by
/// Unicode canonical equivalence (about 350 instructions a call for a short path), and so does
/// stepping through `utf8` generically (700), where the bytes are at hand in one buffer.
extension String {
    package func hasBytePrefix(_ prefix: String) -> Bool {
        bytesMatch(prefix, atEnd: false)
    }

    package func hasByteSuffix(_ suffix: String) -> Bool {
        bytesMatch(suffix, atEnd: true)
    }

    private func bytesMatch(_ part: String, atEnd: Bool) -> Bool {
        var (whole, part) = (self, part)  // `withUTF8` on a native string copies nothing
        return whole.withUTF8 { whole in
            part.withUTF8 { part in
                guard part.count <= whole.count else { return false }
                guard !part.isEmpty else { return true }
                return memcmp(whole.baseAddress! + (atEnd ? whole.count - part.count : 0), part.baseAddress!, part.count) == 0
            }
        }
    }
}
