import Federation
import Foundation
import LecternCrypto
import Logging
import Store
import Synchronization

/// The blog actor's signing key as the store says now: `lectern keys rotate` in another process
/// switches what this one signs with within a second, before the server has even reloaded its
/// settings (so an `Update` announcing the new key is never signed with the old one).
final class CurrentActorKey: Sendable {
    private let store: Store
    private let keys: KeyStore
    private let urls: FederationURLs
    private let logger: Logger
    private let state: Mutex<(keyID: String, key: PrivateKey, checked: ContinuousClock.Instant)>
    /// How often the store is asked (one small read of a setting), at most: every time. A
    /// signature costs a thousand times more, and an Update announcing a new key that went out
    /// signed with the old one (inside any caching window) would fail verification for good.
    static let recheck = Duration.zero

    init(site: ActivityPubSite, keys: KeyStore, logger: Logger) {
        (store, self.keys, urls, self.logger) = (site.store, keys, site.urls, logger)
        state = Mutex((site.actorKeyID, site.actorKey, ContinuousClock.now))
    }

    func current() -> (keyID: String, key: PrivateKey) {
        let now = ContinuousClock.now
        let (keyID, key, checked) = state.withLock { $0 }
        guard now - checked >= Self.recheck || Self.recheck == .zero else { return (keyID, key) }
        do {
            let keyring = try ActorKeyring.load(from: store)
            let currentID = keyring.keyID(urls)
            let fresh = currentID == keyID ? key : try keys.key(named: keyring.keyName)
            if currentID != keyID { logger.info("signing with the rotated key \(currentID)") }
            state.withLock { $0 = (currentID, fresh, now) }
            return (currentID, fresh)
        } catch {
            logger.error("could not read the current key (still signing with \(keyID)): \(error)")
            state.withLock { $0.checked = now }
            return (keyID, key)
        }
    }
}
