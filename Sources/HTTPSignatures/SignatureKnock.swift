import Foundation
import LecternCrypto

/// Which standard signs a request.
public enum SignatureStandard: String, Sendable, Equatable {
    case rfc9421
    case cavage
}

/// `delivery.signatures` in `lectern.yml`: `auto` double-knocks, the others force one standard.
public enum SignaturePreference: String, Sendable, Equatable, CaseIterable {
    case auto
    case rfc9421
    case cavage
}

/// The double-knock (as Mastodon ≥ 4.5, WordPress and Fedify do it): sign with RFC 9421 first;
/// a host that answers 400 or 401 gets the same request signed with draft-cavage at once; a
/// host that took only draft-cavage is remembered for `memory` and gets it first from then on.
/// A host whose 401 carries `Accept-Signature` gets RFC 9421 as it asks, whatever was tried.
///
/// Only a success teaches anything: a 401 that both standards get (an unknown key, a clock
/// off by an hour) leaves the host's memory as it was.
public struct SignatureKnock: Sendable, Equatable {
    public var preference: SignaturePreference
    /// How long a host's answer is trusted before it is asked again (a server that upgrades to
    /// RFC 9421 gets it within this time).
    public var memory: TimeInterval

    public static let defaultMemory: TimeInterval = 7 * 86_400

    public init(preference: SignaturePreference = .auto, memory: TimeInterval = SignatureKnock.defaultMemory) {
        self.preference = preference
        self.memory = memory
    }

    /// The first standard for a host whose remembered answer is `remembered` (true: RFC 9421
    /// worked; false: only draft-cavage did; nil: unknown or expired).
    public func first(remembered: Bool?) -> SignatureStandard {
        switch preference {
        case .cavage: return .cavage
        case .rfc9421: return .rfc9421
        case .auto: return remembered == false ? .cavage : .rfc9421
        }
    }

    /// What to send next, at once, after `used` got `status` (with the response's
    /// `Accept-Signature`, if any); nil when the answer stands. Called once per attempt: the
    /// second knock's answer is final.
    public func second(after used: SignatureStandard, status: Int, acceptSignature: String?,
                       request: HTTPRequestParts) -> (standard: SignatureStandard, asked: AcceptSignature?)? {
        guard status == 400 || status == 401 else { return nil }
        if preference != .cavage, status == 401, let header = acceptSignature,
           let asked = AcceptSignature.first(in: header, for: request) {
            return (.rfc9421, asked)
        }
        if preference == .auto, used == .rfc9421 { return (.cavage, nil) }
        return nil
    }

    /// What a 2xx to `used` teaches about the host, only where it changes what is sent next:
    /// `false` when only draft-cavage worked, `true` when a host remembered as cavage-only took
    /// RFC 9421 (it is then forgotten: RFC 9421 first is the default). nil: nothing to keep,
    /// so a stranger's server that takes RFC 9421, like most, leaves no row behind.
    public func lesson(used: SignatureStandard, remembered: Bool?) -> Bool? {
        guard preference == .auto else { return nil }
        switch (used, remembered) {
        case (.cavage, nil), (.cavage, true?): return false
        case (.rfc9421, false?): return true
        default: return nil
        }
    }

    /// What the memory is keyed by: `scheme://host:port` (port always written), lower-cased.
    /// Two servers on one name but other ports are two servers.
    public static func origin(of url: String) -> String? {
        guard let parts = URLComponents(string: url), let scheme = parts.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = parts.host?.lowercased(), !host.isEmpty else { return nil }
        return "\(scheme)://\(host):\(parts.port ?? (scheme == "https" ? 443 : 80))"
    }

    /// Signs `request` with `standard` (honouring what the host asked for, if anything).
    public static func sign(_ request: inout HTTPRequestParts, with standard: SignatureStandard, asked: AcceptSignature? = nil,
                            keyId: String, key: PrivateKey, now: Date = Date()) throws {
        switch standard {
        case .cavage: try CavageSigner(keyId: keyId, key: key).sign(&request, now: now)
        case .rfc9421:
            var signer = RFC9421Signer(keyId: keyId, key: key)
            signer.asked = asked
            try signer.sign(&request, now: now)
        }
    }
}

/// Where the double-knock's answers are kept between requests, per origin (`origin(of:)`; the
/// store's `signature_memory` table).
public struct SignatureMemory: Sendable {
    /// true: RFC 9421 worked; false: only draft-cavage did; nil: unknown or too old.
    public let recall: @Sendable (_ origin: String) -> Bool?
    public let learn: @Sendable (_ origin: String, _ rfc9421: Bool) -> Void

    public init(recall: @escaping @Sendable (String) -> Bool?, learn: @escaping @Sendable (String, Bool) -> Void) {
        (self.recall, self.learn) = (recall, learn)
    }
}
