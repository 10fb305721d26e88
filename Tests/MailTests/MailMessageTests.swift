import BlogModel
import Foundation
import LecternCrypto
import LecternRuntime
@testable import Mail
import Testing

/// The newsletter's mails as a mail client reads them (Python's `email` package, a reader we did
/// not write): whatever a title or a name holds — line breaks, header-like text, any script — it
/// comes back as written, in its own header, and adds no other.
@Suite struct MailMessageTests {
    static let reader = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("read_mail.py").path
    static let pieces = ["Café", "naïve", "日本語のタイトル", "👨‍👩‍👧", "\r\nBcc: victim@example.com", "\nX-Injected: 1", "=?UTF-8?B?QQ==?=",
                         "\"quoted\"", "<b>", "a,b", "   ", "Subject: twice", "x", "ünïcödé ", String(repeating: "long ", count: 30), "\t", ":"]

    func randomText(_ generator: inout some RandomNumberGenerator) -> String {
        (0..<Int.random(in: 1...6, using: &generator)).map { _ in Self.pieces.randomElement(using: &generator)! }.joined()
    }

    struct Read: Decodable {
        let fromName: String, fromAddress: String, to: String, subject: String, headers: [String], parts: [String], defects: [String]
    }

    @Test func aMailClientReadsBackExactlyWhatWasWritten() throws {
        var generator = SystemRandomNumberGenerator()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mail-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var expected: [(subject: String, name: String, text: String, html: String)] = []
        var files: [String] = []
        for index in 0..<200 {
            let subject = randomText(&generator), name = randomText(&generator).replacingOccurrences(of: "\"", with: "")
                .replacingOccurrences(of: "<", with: "").replacingOccurrences(of: ">", with: "")
            let text = randomText(&generator) + "\n.\nline after a lone dot\n", html = "<p>" + randomText(&generator) + "</p>"
            let from = try #require(NamedMailAddress("\(name) <blog@blog.example>") ?? NamedMailAddress("blog@blog.example"))
            let mail = MailMessage(from: from, to: MailAddress("reader@example.com")!, subject: subject, text: text, html: html,
                                   headers: [("List-Unsubscribe", "<https://blog.example/unsubscribe?token=abc>")])
            let file = folder.appendingPathComponent("\(index).eml")
            try Data(mail.encoded(date: Date(), messageID: "<\(index)@blog.example>").utf8).write(to: file)
            files.append(file.path)
            expected.append((subject, from.name ?? "", text, html))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.reader] + files
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == expected.count)
        for (line, want) in zip(lines, expected) {
            let read = try JSONDecoder().decode(Read.self, from: Data(line.utf8))
            // Controls are dropped from headers (a line break cannot start a header); the rest is kept.
            let cleanSubject = MailMessage.cleaned(want.subject)
            #expect(read.subject == cleanSubject, "\(want.subject.debugDescription)")
            // CPython's address parser puts a space between adjacent encoded words of a display
            // name, which RFC 2047 §6.2 says to drop: names are compared without white space.
            func squeezed(_ text: String) -> String {
                String(String.UnicodeScalarView(text.unicodeScalars.filter { !$0.properties.isWhitespace }))
            }
            #expect(squeezed(read.fromName) == squeezed(MailMessage.cleaned(want.name)), "\(want.name.debugDescription)")
            #expect(read.fromAddress == "blog@blog.example" && read.to == "reader@example.com")
            #expect(Set(read.headers) == ["From", "To", "Subject", "Date", "Message-ID", "MIME-Version", "List-Unsubscribe", "Content-Type"],
                    "no header but ours: \(read.headers)")
            #expect(read.parts == [want.text, want.html])
            #expect(read.defects.isEmpty, "\(read.defects)")
        }
    }

    @Test(arguments: ["a@b.example", "Ada.Lovelace+blog@Example.COM", "o'brien@example.ie", "x@sub.domain.example"])
    func addressesTaken(_ text: String) throws {
        let address = try #require(MailAddress(text))
        #expect(address.text == text.lowercased())
        #expect(!address.mailbox.contains("+"))
    }

    @Test(arguments: ["", "a", "a@b", "@b.example", "a@", "a@@b.example", "a b@c.example", "a@b.example\r\nBcc: x@y.z", "a\n@b.example",
                      "\"a\"@b.example", "a@[127.0.0.1]", "a@127.0.0.1", "café@b.example", "a@bücher.example", ".a@b.example",
                      "a..b@c.example", "a@b.example,c@d.example", "a@-b.example", String(repeating: "a", count: 65) + "@b.example"])
    func addressesRefused(_ text: String) {
        #expect(MailAddress(text) == nil)
    }

    /// RFC 4231, test case 2.
    @Test func hmacSHA256MatchesTheRFC() {
        let mac = HMACSHA256.mac(key: Array("Jefe".utf8), data: Array("what do ya want for nothing?".utf8))
        #expect(mac.map { String(format: "%02x", $0) }.joined() == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func subscriberExportsOfOtherPlatformsAreRead() {
        let ghost = "id,email,name,note,subscribed_to_emails\n1,ada@example.com,Ada,,true\n2,\"b@example.com\",\"B, the second\",,true\n3,not-an-address,,,\n"
        let (addresses, skipped) = SubscriberCSV.addresses(in: ghost)
        #expect(addresses.map(\.text) == ["ada@example.com", "b@example.com"] && skipped.count == 1)
        let substack = "Email,Created At,Subscription Type\nc@example.com,2024-01-01,free\nC@EXAMPLE.com,2024-01-02,free\n"
        #expect(SubscriberCSV.addresses(in: substack).addresses.map(\.text) == ["c@example.com"], "one address, whatever its case")
        let bare = "d@example.com\ne@example.com\n"
        #expect(SubscriberCSV.addresses(in: bare).addresses.map(\.text) == ["d@example.com", "e@example.com"])
    }
}
