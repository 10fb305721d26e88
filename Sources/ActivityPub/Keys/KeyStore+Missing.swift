import Foundation
import LecternCrypto
import Parallel

extension KeyStore {
    /// Makes whichever of `keys` do not exist yet, each on a core of its own: a new blog's two
    /// RSA-2048 keys take ~120 ms of one core each, which a new site's first `lectern build`
    /// waited for one after the other before it could start.
    package func createMissing(_ keys: [(name: String, type: KeyType)]) throws {
        let missing = keys.filter { !FileManager.default.fileExists(atPath: url(named: $0.name).path) }
        _ = try ParallelMap.map(missing) { try create(named: $0.name, type: $0.type) }
    }
}
