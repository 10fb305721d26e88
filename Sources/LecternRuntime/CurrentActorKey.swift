import ActivityPub
import Foundation
import Interactions
import LecternCrypto
import Logging
import Storage
import Synchronization

/// The blog actor's signing key as the store says now, asked for each delivery: after
/// `lectern keys rotate` in another process, the very next request is signed with the new key,
/// before the server has even reloaded its settings (so the `Update` announcing the new key is
/// never signed with the old one). The price is one read of one setting per delivery, next to an
/// RSA signature; the key file is read only when the key id changes.
final class CurrentActorKey: Sendable {
    private let site: BlogActor
    private let keys: KeyStore
    private let logger: Logger
    /// The key signed with last; none until the first delivery (the site reads its key then).
    private let cached = Mutex<(keyID: String, key: PrivateKey)?>(nil)

    init(site: BlogActor, keys: KeyStore, logger: Logger) {
        (self.site, self.keys, self.logger) = (site, keys, logger)
    }

    func current() throws -> (keyID: String, key: PrivateKey) {
        let (keyID, key) = try cached.withLock({ $0 }) ?? {
            let first = (keyID: site.actorKeyID, key: try site.actorKey)
            return cached.withLock { $0 = $0 ?? first; return $0! }
        }()
        do {
            let keyring = try ActorKeyring.load(from: site.store.values)
            let currentID = keyring.keyID(site.urls)
            guard currentID != keyID else { return (keyID, key) }
            // Written before the keyring named it (`KeyRotation`): read, never made here.
            let fresh = try KeyFile.load(at: keys.url(named: keyring.keyName))
            logger.info("signing with the rotated key \(currentID)")
            cached.withLock { $0 = (currentID, fresh) }
            return (currentID, fresh)
        } catch {
            logger.error("could not read the current key (still signing with \(keyID)): \(error)")
            return (keyID, key)
        }
    }
}
