import BlogModel
import Foundation
import Glibc
import OutboundHTTP

/// A blog others cannot reach: its `baseURL` is not https, or names this machine or a private
/// network (`http://127.0.0.1:8080`, `https://blog.local`, `https://10.0.0.5`), as while a writer
/// tries it out. Such a blog sends nothing anywhere — no activity to followers, no webmention to
/// the sites its posts link to (they could not fetch the page it names) — unless
/// `federation.allowPrivateAddresses` says it federates with servers on this machine (testing).
public enum LocalSite {
    /// Why `config`'s blog sends nothing, or nil when it sends.
    public static func quietReason(_ config: SiteConfig) -> String? {
        config.federation.allowPrivateAddresses ? nil : unreachable(baseURL: config.baseURL)
    }

    /// Why others cannot reach a blog at `baseURL`, or nil when they can.
    public static func unreachable(baseURL: String) -> String? {
        guard let parts = URLComponents(string: baseURL), let host = parts.host?.lowercased(), !host.isEmpty else {
            return "baseURL \(baseURL) is not an address others can reach"
        }
        if parts.scheme?.lowercased() != "https" { return "baseURL \(baseURL) is not https" }
        if isLocal(host: host) { return "baseURL \(baseURL) names this machine or a private network" }
        return nil
    }

    /// Names only this machine or a local network answers to, and addresses no one else routes to.
    static func isLocal(host: String) -> Bool {
        let name = host.hasSuffix(".") ? String(host.dropLast()) : host
        if name == "localhost" { return true }
        for suffix in [".localhost", ".local", ".internal", ".lan", ".home.arpa", ".test", ".invalid"] where name.hasSuffix(suffix) {
            return true
        }
        let literal = name.hasPrefix("[") && name.hasSuffix("]") ? String(name.dropFirst().dropLast()) : name
        var v4 = in_addr()
        if inet_pton(AF_INET, literal, &v4) == 1 {
            return !AddressPolicy.isPublic(ipv4: withUnsafeBytes(of: &v4) { Array($0) })
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, literal, &v6) == 1 {
            return !AddressPolicy.isPublic(ipv6: withUnsafeBytes(of: &v6) { Array($0) })
        }
        return false
    }
}
