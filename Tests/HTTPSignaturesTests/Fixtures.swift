import Foundation
@testable import HTTPSignatures
import LecternCrypto

/// Test vectors from `Vectors/*.json` (transcribed from the specifications).
enum Vectors {
    static func load(_ name: String) throws -> [String: Any] {
        let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Vectors")!
        return try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
    }

    static func request(_ json: [String: Any], url: String? = nil) -> HTTPRequestParts {
        let headers = (json["headers"] as! [[String]]).map { (name: $0[0], value: $0[1]) }
        return HTTPRequestParts(method: json["method"] as! String,
                                url: url ?? (json["url"] as? String ?? "https://example.com" + (json["target"] as! String)),
                                headers: headers, body: Array((json["body"] as! String).utf8))
    }
}

/// Keys by id, counting how often each was asked for (to check refresh-on-failure).
final class StaticKeys: SignatureKeyProvider, @unchecked Sendable {
    private let lock = NSLock()
    private var keys: [String: PublicKey]
    private var fresh: [String: PublicKey]
    private(set) var lookups: [(String, Bool)] = []

    init(_ keys: [String: PublicKey], afterRefresh fresh: [String: PublicKey] = [:]) {
        self.keys = keys
        self.fresh = fresh
    }

    func publicKey(for keyId: String, refresh: Bool) async throws -> PublicKey {
        try lock.withLock {
            lookups.append((keyId, refresh))
            if refresh, let key = fresh[keyId] { return key }
            guard let key = keys[keyId] else { throw SignatureError.keyUnavailable("unknown key \(keyId)") }
            return key
        }
    }
}

extension HTTPRequestParts {
    /// A typical ActivityPub delivery.
    static func delivery(body: String = #"{"type":"Create","actor":"https://a.example/users/alice"}"#) -> HTTPRequestParts {
        HTTPRequestParts(method: "POST", url: "https://blog.example/inbox",
                         headers: [("Content-Type", "application/activity+json")], body: Array(body.utf8))
    }
}
