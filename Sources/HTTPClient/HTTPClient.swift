import CCurl
import CCurlShim
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
    case transport(String)

    public var description: String {
        switch self {
        case .badURL(let url): return "not a valid URL: \(url)"
        case .insecureScheme(let url): return "refusing a non-https URL: \(url)"
        case .blockedAddress(let address): return "refusing to connect to a non-public address \(address)"
        case .tooLarge(let limit): return "response body over \(limit) bytes"
        case .timedOut: return "timed out"
        case .transport(let reason): return reason
        }
    }
}

/// HTTP over the system libcurl, hardened for talking to arbitrary servers: https only, no
/// private/loopback/link-local destinations (checked on the socket address libcurl is about to
/// connect to), 5 s to connect, 10 s in all, 1 MiB of body at most, no automatic redirects
/// (callers follow them, signing and checking each hop).
///
/// `allowPrivateAddresses` lifts the address and scheme rules, for local testing only.
public struct HTTPClient: Sendable {
    public var allowPrivateAddresses: Bool
    public var connectTimeout: Duration = .seconds(5)
    public var totalTimeout: Duration = .seconds(10)
    public var maximumBodySize = 1 << 20
    public var userAgent = "Lectern/0.1"

    public init(allowPrivateAddresses: Bool = false) {
        self.allowPrivateAddresses = allowPrivateAddresses
    }

    private static let initialized: Bool = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK }()

    /// Performs the request on a background thread (libcurl's easy interface blocks).
    public func perform(_ request: OutgoingRequest) async throws -> IncomingResponse {
        guard let url = URLComponents(string: request.url), let scheme = url.scheme?.lowercased(), url.host != nil else {
            throw HTTPClientError.badURL(request.url)
        }
        guard scheme == "https" || (allowPrivateAddresses && scheme == "http") else {
            throw HTTPClientError.insecureScheme(request.url)
        }
        let client = self
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try client.performBlocking(request) }) }
        }
    }

    private func performBlocking(_ request: OutgoingRequest) throws -> IncomingResponse {
        precondition(Self.initialized, "curl_global_init failed")
        guard let handle = curl_easy_init() else { throw HTTPClientError.transport("curl_easy_init failed") }
        defer { curl_easy_cleanup(handle) }
        let transfer = Transfer(limit: maximumBodySize, allowPrivate: allowPrivateAddresses)
        let context = Unmanaged.passRetained(transfer)
        defer { context.release() }

        lectern_curl_setopt_string(handle, CURLOPT_URL, request.url)
        lectern_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, allowPrivateAddresses ? "http,https" : "https")
        lectern_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        lectern_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)
        lectern_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(connectTimeout.components.seconds * 1000))
        lectern_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, Int(totalTimeout.components.seconds * 1000))
        lectern_curl_setopt_offset(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(maximumBodySize))
        lectern_curl_setopt_string(handle, CURLOPT_USERAGENT, userAgent)
        lectern_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context.toOpaque())
        lectern_curl_setopt_write_function(handle, Transfer.write)
        lectern_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context.toOpaque())
        lectern_curl_setopt_header_function(handle, Transfer.header)
        lectern_curl_setopt_pointer(handle, CURLOPT_OPENSOCKETDATA, context.toOpaque())
        lectern_curl_setopt_opensocket_function(handle, Transfer.openSocket)

        var list: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(list) }
        for header in request.headers { list = curl_slist_append(list, "\(header.name): \(header.value)") }
        list = curl_slist_append(list, "Expect:")  // no 100-continue round trip
        lectern_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(list))

        var body = request.body
        let code: CURLcode = body.withUnsafeMutableBytes { bytes in
            if request.method == "GET" {
                lectern_curl_setopt_long(handle, CURLOPT_HTTPGET, 1)
            } else {
                lectern_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, request.method)
                lectern_curl_setopt_pointer(handle, CURLOPT_POSTFIELDS, bytes.baseAddress ?? Transfer.emptyBody)
                lectern_curl_setopt_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count))
            }
            return curl_easy_perform(handle)
        }
        if let blocked = transfer.blocked { throw HTTPClientError.blockedAddress(blocked) }
        if transfer.tooLarge || code == CURLE_FILESIZE_EXCEEDED { throw HTTPClientError.tooLarge(limit: maximumBodySize) }
        guard code == CURLE_OK else {
            if code == CURLE_OPERATION_TIMEDOUT { throw HTTPClientError.timedOut }
            throw HTTPClientError.transport(String(cString: curl_easy_strerror(code)))
        }
        var status = 0
        lectern_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return IncomingResponse(status: status, headers: transfer.headers, body: transfer.body)
    }
}

/// State shared with libcurl's callbacks for one transfer.
private final class Transfer {
    let limit: Int
    let allowPrivate: Bool
    var body: [UInt8] = []
    var headers: [(name: String, value: String)] = []
    var tooLarge = false
    var blocked: String?

    init(limit: Int, allowPrivate: Bool) {
        self.limit = limit
        self.allowPrivate = allowPrivate
    }

    /// libcurl wants a non-null body pointer even for an empty POST.
    nonisolated(unsafe) static let emptyBody = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)

    static func from(_ pointer: UnsafeMutableRawPointer?) -> Transfer {
        Unmanaged<Transfer>.fromOpaque(pointer!).takeUnretainedValue()
    }

    static let write: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = { data, size, count, context in
        let transfer = Transfer.from(context)
        let length = size * count
        guard transfer.body.count + length <= transfer.limit else { transfer.tooLarge = true; return 0 }
        data?.withMemoryRebound(to: UInt8.self, capacity: length) { transfer.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: length)) }
        return length
    }

    static let header: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = { data, size, count, context in
        let transfer = Transfer.from(context)
        let length = size * count
        guard let data else { return length }
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
        if line.hasPrefix("HTTP/") { transfer.headers.removeAll() }  // a new response (after 100 Continue)
        if let colon = line.firstIndex(of: ":") {
            transfer.headers.append((line[..<colon].lowercased(),
                                     line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        return length
    }

    /// Called with the address libcurl is about to connect to: the one place to judge it.
    static let openSocket: @convention(c) (UnsafeMutableRawPointer?, curlsocktype, UnsafeMutablePointer<curl_sockaddr>?) -> curl_socket_t = { context, _, address in
        let transfer = Transfer.from(context)
        guard let address else { return -1 }
        let family = address.pointee.family
        if !transfer.allowPrivate {
            let (isPublic, text) = Transfer.judge(address)
            guard isPublic else { transfer.blocked = text; return -1 }
        }
        return socket(family, address.pointee.socktype, address.pointee.protocol)
    }

    static func judge(_ address: UnsafeMutablePointer<curl_sockaddr>) -> (Bool, String) {
        let raw = UnsafeMutableRawPointer(address).advanced(by: MemoryLayout<curl_sockaddr>.offset(of: \curl_sockaddr.addr)!)
        if address.pointee.family == AF_INET {
            let v4 = raw.assumingMemoryBound(to: sockaddr_in.self).pointee
            let bytes = withUnsafeBytes(of: v4.sin_addr) { Array($0) }
            return (AddressPolicy.isPublic(ipv4: bytes), bytes.map(String.init).joined(separator: "."))
        }
        if address.pointee.family == AF_INET6 {
            let v6 = raw.assumingMemoryBound(to: sockaddr_in6.self).pointee
            let bytes = withUnsafeBytes(of: v6.sin6_addr) { Array($0) }
            return (AddressPolicy.isPublic(ipv6: bytes), bytes.map { String(format: "%02x", $0) }.joined())
        }
        return (false, "address family \(address.pointee.family)")
    }
}
