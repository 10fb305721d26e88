import Foundation

/// The site's private keys, one PEM file per name in a folder (`data/keys/actor.pem`,
/// `data/keys/instance-actor.pem`), each created on first use with mode 0600.
///
/// ```swift
/// let store = KeyStore(folder: site.appendingPathComponent("data/keys"))
/// let actorKey = try store.key(named: "actor")
/// ```
public struct KeyStore: Sendable {
    public static let actor = "actor"
    public static let instanceActor = "instance-actor"

    public let folder: URL

    public init(folder: URL) {
        self.folder = folder
    }

    public func url(named name: String) -> URL { folder.appendingPathComponent("\(name).pem") }

    /// The key called `name`, generated (RSA-2048 unless told otherwise) if it does not exist yet.
    public func key(named name: String, type: KeyType = .rsa(bits: 2048)) throws -> PrivateKey {
        try KeyFile.loadOrCreate(at: url(named: name), type: type)
    }

    /// Generates the key called `name` if it does not exist yet; an existing one is not read.
    public func create(named name: String, type: KeyType = .rsa(bits: 2048)) throws {
        try KeyFile.createIfMissing(at: url(named: name), type: type)
    }
}
