import BlogModel
import Foundation

/// One mail as the relay gets it (RFC 5322, CRLF line ends): the headers, then a
/// `multipart/alternative` of plain text and HTML, each base64-encoded (no line over 76
/// characters, nothing a relay could take for the end of the data). Every header value is made
/// safe here: CR, LF and other controls are dropped, non-ASCII text is an RFC 2047 encoded word,
/// and the addresses are `MailAddress`es, which cannot hold anything else. So no field a reader or
/// a post's title supplies can add a header.
///
/// ```swift
/// let mail = MailMessage(from: NamedMailAddress("Blog <b@blog.example>")!, to: MailAddress("r@x.example")!,
///                        subject: "Café", text: "Hello", html: "<p>Hello</p>")
/// mail.encoded(date: Date(), messageID: "<1@blog.example>")   // "From: Blog <b@blog.example>\r\n…"
/// ```
public struct MailMessage: Sendable {
    public var from: NamedMailAddress
    public var to: MailAddress
    public var replyTo: NamedMailAddress?
    public var subject: String
    public var text: String
    public var html: String?
    /// Further headers (`List-Unsubscribe`…), in order; their values are cleaned like the rest.
    public var headers: [(name: String, value: String)] = []

    public init(from: NamedMailAddress, to: MailAddress, replyTo: NamedMailAddress? = nil, subject: String, text: String,
                html: String? = nil, headers: [(name: String, value: String)] = []) {
        (self.from, self.to, self.replyTo, self.subject, self.text, self.html, self.headers) =
            (from, to, replyTo, subject, text, html, headers)
    }

    public func encoded(date: Date, messageID: String, boundary: String = "lectern-" + UUID().uuidString) -> String {
        var lines = [
            "From: " + Self.mailbox(from), "To: " + to.text,
            "Subject: " + Self.headerText(subject), "Date: " + Self.dateFormatter().string(from: date),
            "Message-ID: " + Self.headerText(messageID), "MIME-Version: 1.0",
        ]
        if let replyTo { lines.append("Reply-To: " + Self.mailbox(replyTo)) }
        for (name, value) in headers where name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f && $0 != 0x3a }) {
            lines.append(name + ": " + Self.headerText(value))
        }
        func part(_ type: String, _ body: String) -> [String] {
            ["--" + boundary, "Content-Type: \(type); charset=utf-8", "Content-Transfer-Encoding: base64", ""]
                + Self.base64Lines(Data(body.utf8))
        }
        if let html {
            lines.append("Content-Type: multipart/alternative; boundary=\"\(boundary)\"")
            lines.append("")
            lines += part("text/plain", text) + part("text/html", html) + ["--" + boundary + "--"]
        } else {
            lines += ["Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: base64", ""]
            lines += Self.base64Lines(Data(text.utf8))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// `Name <address>`, the name quoted or encoded; the address alone without one.
    static func mailbox(_ named: NamedMailAddress) -> String {
        guard let name = named.name else { return named.address.text }
        let clean = cleaned(name)
        let plain = clean.unicodeScalars.allSatisfy { $0.isASCII } && !clean.contains("\\") && !clean.contains("=?")
        return (plain ? "\"\(clean)\"" : encodedWords(clean)) + " <\(named.address.text)>"
    }

    /// A header's text: controls dropped, RFC 2047 encoded words when not plain ASCII (or when
    /// it holds `=?`, which a reader would take for the start of one).
    static func headerText(_ value: String) -> String {
        let clean = cleaned(value)
        let plain = clean.unicodeScalars.allSatisfy({ $0.isASCII }) && clean.utf8.count <= 900 && !clean.contains("=?")
        return plain ? clean : encodedWords(clean)
    }

    /// Controls (CR and LF above all) dropped, and the white space around trimmed (a reader
    /// drops it anyway).
    static func cleaned(_ value: String) -> String {
        String(String.UnicodeScalarView(value.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7f }))
            .trimmingCharacters(in: .whitespaces)
    }

    /// `=?UTF-8?B?…?=` words of at most 45 bytes of text each (72 characters), never splitting a
    /// character, folded onto lines of their own (RFC 2047 §2, RFC 5322 §2.2.3).
    static func encodedWords(_ text: String) -> String {
        var words: [String] = [], chunk = Data()
        for scalar in text.unicodeScalars {
            let bytes = Data(String(scalar).utf8)
            if chunk.count + bytes.count > 45 { words.append(chunk.base64EncodedString()); chunk = Data() }
            chunk += bytes
        }
        if !chunk.isEmpty || words.isEmpty { words.append(chunk.base64EncodedString()) }
        return words.map { "=?UTF-8?B?\($0)?=" }.joined(separator: "\r\n ")
    }

    static func base64Lines(_ data: Data) -> [String] {
        data.base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
            .components(separatedBy: "\r\n")
    }

    static func dateFormatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss +0000"
        return formatter
    }
}
