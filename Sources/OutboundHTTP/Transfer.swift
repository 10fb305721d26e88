import CCurl
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One request on a libcurl easy handle, configured with the client's hardening (https only
/// unless private addresses are allowed, the SSRF guard on every connection, timeouts, body
/// limit), and the state libcurl's callbacks fill in. Used alone (`FetchClient.perform`) or
/// many at once on a multi handle (`ConcurrentTransfers`).
final class Transfer {
    let handle: UnsafeMutableRawPointer
    let limit: Int
    let allowPrivate: Bool
    var body: [UInt8] = []
    var headers: [(name: String, value: String)] = []
    var tooLarge = false
    var blocked: String?
    /// The request body, in memory libcurl may read until deinit.
    private let requestBody: UnsafeMutableRawBufferPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?

    init(request: OutgoingRequest, client: FetchClient) throws {
        guard let url = URLComponents(string: request.url), let scheme = url.scheme?.lowercased(), url.host != nil else {
            throw HTTPClientError.badURL(request.url)
        }
        guard scheme == "https" || (client.allowPrivateAddresses && scheme == "http") else {
            throw HTTPClientError.insecureScheme(request.url)
        }
        // Where libcurl could not initialize, every request fails, saying why; nothing crashes.
        guard FetchClient.initialized else { throw HTTPClientError.unavailable(FetchClient.failure) }
        guard let handle = curl_easy_init() else { throw HTTPClientError.transport("curl_easy_init failed") }
        self.handle = handle
        limit = client.maximumBodySize
        allowPrivate = client.allowPrivateAddresses
        requestBody = .allocate(byteCount: max(1, request.body.count), alignment: 1)
        requestBody.copyBytes(from: request.body)
        let context = Unmanaged.passUnretained(self).toOpaque()  // the handle never outlives self
        lectern_curl_setopt_string(handle, CURLOPT_URL, request.url)
        lectern_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, allowPrivate ? "http,https" : "https")
        lectern_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        lectern_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)
        lectern_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(client.connectTimeout.components.seconds * 1000))
        lectern_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, Int(client.totalTimeout.components.seconds * 1000))
        lectern_curl_setopt_offset(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limit))
        lectern_curl_setopt_string(handle, CURLOPT_USERAGENT, client.userAgent)
        lectern_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
        lectern_curl_setopt_write_function(handle, Transfer.write)
        lectern_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
        lectern_curl_setopt_header_function(handle, Transfer.header)
        lectern_curl_setopt_pointer(handle, CURLOPT_OPENSOCKETDATA, context)
        lectern_curl_setopt_opensocket_function(handle, Transfer.openSocket)
        for header in request.headers { headerList = curl_slist_append(headerList, "\(header.name): \(header.value)") }
        headerList = curl_slist_append(headerList, "Expect:")  // no 100-continue round trip
        lectern_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headerList))
        if request.method == "GET" {
            lectern_curl_setopt_long(handle, CURLOPT_HTTPGET, 1)
        } else {
            lectern_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, request.method)
            lectern_curl_setopt_pointer(handle, CURLOPT_POSTFIELDS, requestBody.baseAddress)
            lectern_curl_setopt_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count))
        }
    }

    deinit {
        curl_easy_cleanup(handle)
        curl_slist_free_all(headerList)
        requestBody.deallocate()
    }

    /// The response, or why there is none, once libcurl is done with the handle.
    func finish(code: CURLcode) throws -> IncomingResponse {
        if let blocked { throw HTTPClientError.blockedAddress(blocked) }
        if tooLarge || code == CURLE_FILESIZE_EXCEEDED { throw HTTPClientError.tooLarge(limit: limit) }
        guard code == CURLE_OK else {
            if code == CURLE_OPERATION_TIMEDOUT { throw HTTPClientError.timedOut }
            throw HTTPClientError.transport(String(cString: curl_easy_strerror(code)))
        }
        var status = 0
        lectern_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return IncomingResponse(status: status, headers: headers, body: body)
    }

    /// Drives a multi handle once and returns the easy handles that finished, removed from it,
    /// with libcurl's result for each (shared by `TransferLoop` and `ConcurrentTransfers`).
    static func performAndCollect(_ multi: UnsafeMutableRawPointer) -> [(handle: UnsafeMutableRawPointer, code: CURLcode)] {
        var running: Int32 = 0
        curl_multi_perform(multi, &running)
        var done: [(UnsafeMutableRawPointer, CURLcode)] = []
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle else { continue }
            done.append((handle, message.pointee.data.result))
        }
        for (handle, _) in done { curl_multi_remove_handle(multi, handle) }
        return done
    }

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
