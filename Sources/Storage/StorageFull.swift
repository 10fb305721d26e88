import CSQLiteShim
import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#endif

/// The one notion of "the disk is full" the server acts on, whatever reported it: SQLite
/// (`SQLITE_FULL`, or an I/O error whose `errno` was `ENOSPC`/`EDQUOT`: its Unix layer reports
/// most full disks as `SQLITE_FULL`, a few — growing the shared-memory file, say — as I/O
/// errors), or a file write of the site build (`ENOSPC`, `EDQUOT`). Each loop that meets it
/// waits (`FullDiskBackoff`) instead of trying again at once, and the inbox answers 503.
public enum StorageFull {
    /// Whether `error`, or an error it wraps, says the disk or quota has no room.
    public static func recognizes(_ error: any Error) -> Bool {
        if case StoreError.full = error { return true }
        if let error = error as? DatabaseError { return error.resultCode == .SQLITE_FULL }
        if let error = error as? POSIXError { return isNoRoom(error.code.rawValue) }
        if let error = error as? CocoaError, error.code == .fileWriteOutOfSpace { return true }
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain, isNoRoom(Int32(error.code)) { return true }
        if error.domain == NSCocoaErrorDomain, error.code == CocoaError.fileWriteOutOfSpace.rawValue { return true }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? any Error { return recognizes(underlying) }
        // The site build reports a failed file write with `strerror`'s words (`SiteError.io`,
        // which this module cannot see), having no other use for the number.
        let text = String(describing: error)
        return [ENOSPC, EDQUOT].contains { text.hasSuffix(String(cString: strerror($0))) }
    }

    /// `errno` values that mean no room: the disk is full, or the owner's quota is spent.
    public static func isNoRoom(_ code: Int32) -> Bool { code == ENOSPC || code == EDQUOT }

    /// A failed SQLite call on `db` as `StoreError.full` when it was for lack of room; any other
    /// error as it was. The `errno` is SQLite's, of the connection's last system call.
    static func translate(_ error: any Error, on db: Database) -> any Error {
        guard let error = error as? DatabaseError else { return error }
        if error.resultCode == .SQLITE_FULL { return StoreError.full(error.message ?? "\(error)") }
        if error.resultCode == .SQLITE_IOERR, isNoRoom(lectern_sqlite_system_errno(UnsafeMutableRawPointer(db.sqliteConnection))) {
            return StoreError.full("\(error)")
        }
        return error
    }
}
