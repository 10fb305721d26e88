import Federation
import Foundation
import LecternCrypto
import Logging
import Store
import Synchronization

/// The blog actor's signing key as the store says now, asked for each delivery: after
/// `lectern keys rotate` in another process, the very next request is signed with the new key,
/// before the server has even reloaded its settings (so the `Update` announcing the new key is
/// never signed with the old one). The price is one read of one setting per delivery, next to an
/// RSA signature; the key file is read only when the key id changes.
final class CurrentActorKey: Sendable {
    private let store: Store
    private let keys: KeyStore
    private let urls: FederationURLs
    private let logger: Logger
    private let site: ActivityPubSite
    /// The key signed with last; none until the first delivery (the site reads its key then).
    private let cached = Mutex<(keyID: String, key: PrivateKey)?>(nil)

    init(site: ActivityPubSite, keys: KeyStore, logger: Logger) {
        (self.site, store, self.keys, urls, self.logger) = (site, site.store, keys, site.urls, logger)
    }

    func current() throws -> (keyID: String, key: PrivateKey) {
        guard let last = cached.withLock({ $0 }) else {
            let first = (keyID: site.actorKeyID, key: try site.actorKey)
            cached.withLock { $0 = $0 ?? first }
            return try current()
        }
        let (keyID, key) = last
        do {
            let keyring = try ActorKeyring.load(from: store)
            let currentID = keyring.keyID(urls)
            guard currentID != keyID else { return (keyID, key) }
            let fresh = try keys.key(named: keyring.keyName)
            logger.info("signing with the rotated key \(currentID)")
            cached.withLock { $0 = (currentID, fresh) }
            return (currentID, fresh)
        } catch {
            logger.error("could not read the current key (still signing with \(keyID)): \(error)")
            return (keyID, key)
        }
    }
}
