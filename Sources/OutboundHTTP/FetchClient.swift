import CCurl
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One HTTP request to another server.
public struct OutgoingRequest: Sendable {
    public var method: String
    public var url: String
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(method: String = "GET", url: String, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

public struct IncomingResponse: Sendable {
    public var status: Int
    /// Names lower-cased, in order.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.last { $0.name == lower }?.value
    }
}

public enum HTTPClientError: Error, Equatable, CustomStringConvertible {
    case badURL(String)
    /// Plain http (or another scheme) while private addresses are not allowed.
    case insecureScheme(String)
    /// The name resolved to a private, loopback or link-local address.
    case blockedAddress(String)
    case tooLarge(limit: Int)
    case timedOut
    /// Too many requests in flight (overall or to that host): refused at once, try later.
    case busy(String)
    case transport(String)
    /// libcurl could not start here (`curl_global_init`, `curl_multi_init` failed): no request
    /// was sent anywhere.
    case unavailable(String)

    public var description: String {
        switch self {
        case .badURL(let url): return "not a valid URL: \(url)"
        case .insecureScheme(let url): return "refusing a non-https URL: \(url)"
        case .blockedAddress(let address): return "refusing to connect to a non-public address \(address)"
        case .tooLarge(let limit): return "response body over \(limit) bytes"
        case .timedOut: return "timed out"
        case .busy(let why): return "too busy: \(why)"
        case .transport(let reason): return reason
        case .unavailable(let reason): return reason
        }
    }
}

/// HTTP over the system libcurl, hardened for talking to arbitrary servers: https only, no
/// private/loopback/link-local destinations (checked on the socket address libcurl is about to
/// connect to), 5 s to connect, 10 s in all, 1 MiB of body at most, no automatic redirects
/// (callers follow them, signing and checking each hop).
///
/// `allowPrivateAddresses` lifts the address and scheme rules, for local testing only.
public struct FetchClient: Sendable {
    public var allowPrivateAddresses: Bool
    public var connectTimeout: Duration = .seconds(5)
    public var totalTimeout: Duration = .seconds(10)
    public var maximumBodySize = 1 << 20
    public var userAgent = "Lectern/0.1"

    public init(allowPrivateAddresses: Bool = false) {
        self.allowPrivateAddresses = allowPrivateAddresses
    }

    /// libcurl initialized (`curl_global_init`, once); when not, every request fails with
    /// `failure`. (libcurl is linked: without it the loader does not start `lectern` at all.)
    static let initialized: Bool = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK }()
    static let failure = "curl_global_init failed"

    /// libcurl's version and the libraries it uses (`libcurl/7.88.1 OpenSSL/3.0.15 zlib/1.2.13 …`),
    /// without initializing it: what `lectern version` prints.
    public static var version: String { String(cString: curl_version()) }

    /// libcurl's version once initialized, or why it cannot be used: what `lectern doctor` reports.
    public static func library() -> Result<String, HTTPClientError> {
        initialized ? .success(version) : .failure(.unavailable(failure))
    }

    /// Performs the request on `TransferLoop.shared`, the network thread: the caller suspends,
    /// no thread blocks. Throws `.busy` at once when too many requests are in flight.
    public func perform(_ request: OutgoingRequest, on loop: TransferLoop = .shared) async throws -> IncomingResponse {
        try await loop.perform(request, client: self)
    }

    /// Whether an error says "the peer is slow or we are saturated; the same request may work
    /// later" (a caller answers 503 with Retry-After) rather than "this will not work".
    public static func isTemporary(_ error: HTTPClientError) -> Bool {
        switch error {
        case .timedOut, .busy, .unavailable: return true
        default: return false
        }
    }
}

