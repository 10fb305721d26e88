import Foundation

/// A real SMTP server on loopback for the newsletter's tests: Python's aiosmtpd, started and
/// stopped by the test (`smtp_sink.py`), writing what it received to a file this reads back.
final class SMTPSink: @unchecked Sendable {
    struct Received {
        let from: String
        let to: [String]
        let data: String

        /// A header's value (unfolded), the first of that name.
        func header(_ name: String) -> String? {
            let head = data.components(separatedBy: "\r\n\r\n").first ?? ""
            let unfolded = head.replacingOccurrences(of: "\r\n ", with: " ").replacingOccurrences(of: "\r\n\t", with: " ")
            for line in unfolded.components(separatedBy: "\r\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                if line[..<colon].lowercased() == name.lowercased() { return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces) }
            }
            return nil
        }

        /// The decoded text of each base64 part (`text/plain` first, then `text/html`).
        var parts: [String] {
            data.components(separatedBy: "Content-Transfer-Encoding: base64\r\n\r\n").dropFirst().map { chunk in
                let lines = chunk.components(separatedBy: "\r\n").prefix { !$0.isEmpty && !$0.hasPrefix("--") }
                return Data(base64Encoded: lines.joined()).map { String(decoding: $0, as: UTF8.self) } ?? ""
            }
        }
    }

    let port: Int
    private let process = Process()
    private let input = Pipe()
    private let output: URL

    init() throws {
        output = FileManager.default.temporaryDirectory.appendingPathComponent("smtp-\(UUID().uuidString).jsonl")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("smtp_sink.py").path
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, output.path]
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardInput = input
        try process.run()
        let line = String(decoding: stdout.fileHandleForReading.availableData, as: UTF8.self)
        guard line.hasPrefix("ready "), let port = Int(line.dropFirst(6).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw SinkError(message: "smtp_sink.py did not start (is aiosmtpd installed? make test installs it): \(line)")
        }
        self.port = port
    }

    struct SinkError: Error { let message: String }

    var received: [Received] {
        guard let text = try? String(contentsOf: output, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return Received(from: object["from"] as? String ?? "", to: object["to"] as? [String] ?? [], data: object["data"] as? String ?? "")
        }
    }

    func mails(to address: String) -> [Received] { received.filter { $0.to.contains(address) } }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: output)
    }
}
