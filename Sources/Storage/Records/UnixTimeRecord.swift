import Foundation
import GRDB

/// Rows read with Unix-second times (`REAL`), as every table but `posts` keeps them (see
/// `migrations/0001_initial.sql`); GRDB's default would read text.
public protocol UnixTimeRow: FetchableRecord {}

extension UnixTimeRow {
    /// Seconds, or a time written as GRDB's text (by a build before 0017_unix_seconds.sql, still
    /// running while this one starts): GRDB's `.timeIntervalSince1970` would read such text as a
    /// number of seconds in 1970.
    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { unixSeconds }
}

private let unixSeconds = DatabaseDateDecodingStrategy.custom { value in
    switch value.storage {
    case .double(let seconds): Date(timeIntervalSince1970: seconds)
    case .int64(let seconds): Date(timeIntervalSince1970: Double(seconds))
    default: Date.fromDatabaseValue(value)
    }
}

/// Rows read and written with Unix-second times; GRDB's default would write text.
public protocol UnixTimeRecord: UnixTimeRow, PersistableRecord {}

extension UnixTimeRecord {
    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .timeIntervalSince1970 }
}
