import BlogModel
import Interactions

/// The addresses of a subscriber export: Ghost's members CSV (`email`), Substack's (`Email`),
/// WriteFreely's, or any CSV with a column named email or email_address; without a header naming
/// one, the first column whose first row holds an address. Lines are split by the one CSV line
/// reader (`DomainBlocklist.csvFields`, RFC 4180 quoting).
public enum SubscriberCSV {
    public static func addresses(in text: String) -> (addresses: [MailAddress], skipped: [String]) {
        let lines = text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        guard let first = lines.first else { return ([], []) }
        let header = DomainBlocklist.csvFields(first).map { $0.lowercased() }
        var column = header.firstIndex { ["email", "email_address", "e-mail", "mail"].contains($0) }
        var rows = lines.dropFirst()
        if column == nil {
            column = DomainBlocklist.csvFields(first).firstIndex { MailAddress($0) != nil }
            rows = lines[...]
        }
        guard let column else { return ([], lines) }
        var addresses: [MailAddress] = [], skipped: [String] = [], seen = Set<String>()
        for line in rows {
            let fields = DomainBlocklist.csvFields(line)
            guard column < fields.count, let address = MailAddress(fields[column]) else { skipped.append(line); continue }
            if seen.insert(address.text).inserted { addresses.append(address) }
        }
        return (addresses, skipped)
    }
}
