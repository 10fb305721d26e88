import BlogModel
import CCurl
import Foundation

/// Hands one mail to the operator's relay over SMTP, through libcurl (its SMTP client: EHLO,
/// STARTTLS, AUTH, MAIL FROM, RCPT TO, DATA, with libcurl's dot-stuffing). Blocking: call it on a
/// thread of its own, never on the cooperative pool.
///
/// `smtp://host[:port]` takes STARTTLS when the relay offers it (its certificate checked), and
/// insists on it when there are credentials (a password never crosses in clear); a relay on this
/// machine's loopback without credentials is spoken to in clear (a local Postfix offers STARTTLS
/// with a self-signed certificate, and nothing crosses a network). `smtps://` is TLS from the
/// first byte.
///
/// ```swift
/// let relay = SMTPRelay(url: "smtp://127.0.0.1:25")
/// relay.send(mail.encoded(date: Date(), messageID: id), from: sender, to: reader)   // .sent
/// ```
public struct SMTPRelay: Sendable {
    public var url: String
    public var username: String?
    public var password: String?
    public var connectTimeout = 10
    public var timeout = 60

    public init(url: String, username: String? = nil, password: String? = nil) {
        (self.url, self.username, self.password) = (url, username, password)
    }

    public enum Outcome: Sendable, Equatable {
        case sent
        /// Try again later: the relay was away, busy (4xx), or the connection failed.
        case temporary(String)
        /// The relay refused the recipient for good (5xx at RCPT TO): the address's fault.
        case recipientRefused(Int, String)
        /// The relay refused something else for good (5xx: the login, the sender, the message):
        /// the operator's to fix, never counted against the reader.
        case refused(Int, String)
    }

    /// The relay is this machine (127.0.0.0/8, ::1, localhost).
    var isLoopback: Bool {
        let host = URLComponents(string: url)?.host?.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]")) ?? ""
        return host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    static let initialized: Bool = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK }()

    /// Connects as a send would (EHLO, STARTTLS, AUTH) and asks `NOOP`: whether the relay would
    /// take mail from this host with these settings (`lectern doctor`).
    public func check() -> Outcome {
        guard Self.initialized, let handle = curl_easy_init() else { return .temporary("libcurl could not start") }
        defer { curl_easy_cleanup(handle) }
        lectern_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, "NOOP")
        lectern_curl_setopt_long(handle, CURLOPT_NOBODY, 1)
        return perform(handle, configure: { _ in })
    }

    public func send(_ message: String, from: MailAddress, to: MailAddress) -> Outcome {
        guard Self.initialized, let handle = curl_easy_init() else { return .temporary("libcurl could not start") }
        defer { curl_easy_cleanup(handle) }
        let body = UploadBody(Array(message.utf8))
        let recipients = curl_slist_append(nil, "<\(to.text)>")
        defer { curl_slist_free_all(recipients) }
        return withExtendedLifetime(body) {
            perform(handle) { handle in
                lectern_curl_setopt_string(handle, CURLOPT_MAIL_FROM, "<\(from.text)>")
                lectern_curl_setopt_pointer(handle, CURLOPT_MAIL_RCPT, UnsafeMutableRawPointer(recipients))
                lectern_curl_setopt_long(handle, CURLOPT_UPLOAD, 1)
                lectern_curl_setopt_read_function(handle, readBody)
                lectern_curl_setopt_pointer(handle, CURLOPT_READDATA, Unmanaged.passUnretained(body).toOpaque())
            }
        }
    }

    /// The connection settings every request shares, `configure`'s own, then the transfer.
    private func perform(_ handle: UnsafeMutableRawPointer, configure: (UnsafeMutableRawPointer) -> Void) -> Outcome {
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { errors in
            lectern_curl_setopt_string(handle, CURLOPT_URL, url)
            configure(handle)
            lectern_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
            lectern_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, connectTimeout)
            lectern_curl_setopt_long(handle, CURLOPT_TIMEOUT, timeout)
            lectern_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errors.baseAddress)
            if url.hasPrefix("smtp://") {
                let tls = username != nil ? CURLUSESSL_ALL : isLoopback ? CURLUSESSL_NONE : CURLUSESSL_TRY
                lectern_curl_setopt_long(handle, CURLOPT_USE_SSL, Int(tls.rawValue))
            }
            if let username { lectern_curl_setopt_string(handle, CURLOPT_USERNAME, username) }
            if let password { lectern_curl_setopt_string(handle, CURLOPT_PASSWORD, password) }
            let code = curl_easy_perform(handle)
            // libcurl may write errors until the handle is cleaned up (QUIT): not into this buffer.
            lectern_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, nil)
            return code
        }
        var response = 0
        lectern_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &response)
        if code == CURLE_OK { return .sent }
        let written = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let detail = written.isEmpty ? String(cString: curl_easy_strerror(code)) : written
        if (500...599).contains(response) {
            // libcurl says "RCPT failed: 550" when the recipient itself was refused.
            return detail.contains("RCPT") ? .recipientRefused(response, "\(response): \(detail)") : .refused(response, "\(response): \(detail)")
        }
        return .temporary(response > 0 ? "\(response): \(detail)" : detail)
    }
}

/// The message libcurl reads as it sends DATA.
private final class UploadBody {
    let bytes: [UInt8]
    var offset = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
}

private func readBody(_ buffer: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let buffer, let context else { return 0 }
    let body = Unmanaged<UploadBody>.fromOpaque(context).takeUnretainedValue()
    let length = min(size * count, body.bytes.count - body.offset)
    guard length > 0 else { return 0 }
    body.bytes.withUnsafeBufferPointer { source in
        UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress! + body.offset, byteCount: length)
    }
    body.offset += length
    return length
}
