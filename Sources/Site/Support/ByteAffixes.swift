#if canImport(Glibc)
import Glibc
#endif

/// Prefixes and suffixes of paths, compared as bytes: `hasPrefix` and `hasSuffix` compare by
/// Unicode canonical equivalence (about 350 instructions a call for a short path), and so does
/// stepping through `utf8` generically (700), where the bytes are at hand in one buffer.
extension String {
    func hasBytePrefix(_ prefix: String) -> Bool {
        bytesMatch(prefix, atEnd: false)
    }

    func hasByteSuffix(_ suffix: String) -> Bool {
        bytesMatch(suffix, atEnd: true)
    }

    private func bytesMatch(_ part: String, atEnd: Bool) -> Bool {
        let matched = utf8.withContiguousStorageIfAvailable { whole in
            part.utf8.withContiguousStorageIfAvailable { part in
                guard part.count <= whole.count else { return false }
                guard let wholeStart = whole.baseAddress, let partStart = part.baseAddress else { return true }  // part empty
                return memcmp(wholeStart + (atEnd ? whole.count - part.count : 0), partStart, part.count) == 0
            }
        }
        // Bridged or lazily decoded strings (none on Linux) take the generic path.
        return (matched ?? nil) ?? (atEnd ? utf8.reversed().starts(with: part.utf8.reversed()) : utf8.starts(with: part.utf8))
    }
}
