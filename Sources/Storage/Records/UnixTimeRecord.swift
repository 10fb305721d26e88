import Foundation
import GRDB

/// Rows whose times are Unix seconds (`REAL`), as every table but `posts` keeps them (see
/// `migrations/0001_initial.sql`); GRDB's default would write text.
public protocol UnixTimeRecord: FetchableRecord, PersistableRecord {}

extension UnixTimeRecord {
    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .timeIntervalSince1970 }
    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSince1970 }
}
