import Foundation
import GRDB

/// Rows read with Unix-second times (`REAL`), as every table but `posts` keeps them (see
/// `migrations/0001_initial.sql`); GRDB's default would read text.
public protocol UnixTimeRow: FetchableRecord {}

extension UnixTimeRow {
    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSince1970 }
}

/// Rows read and written with Unix-second times; GRDB's default would write text.
public protocol UnixTimeRecord: UnixTimeRow, PersistableRecord {}

extension UnixTimeRecord {
    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .timeIntervalSince1970 }
}
