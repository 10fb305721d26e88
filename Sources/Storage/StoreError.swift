/// Why the database could not be opened or used.
public enum StoreError: Error, CustomStringConvertible {
    /// A migration failed and was rolled back; the program must not go on with a half-made schema.
    case migrationFailed(file: String, reason: String)
    case cannotOpen(path: String, reason: String)
    case notFound(String)
    /// Another process holds the database longer than the busy timeout: try again later.
    case busy
    /// The change would break a rule of the data (two posts at one URL, say).
    case conflict(String)
    /// `PRAGMA integrity_check` found problems.
    case damaged(path: String, reason: String)
    /// The disk (or the owner's quota) has no room for the write: nothing of it was kept. It
    /// passes once room is made; see `StorageFull` and `FullDiskBackoff`.
    case full(String)

    /// Whether trying the same thing later may work (the sender is told 503, a loop waits).
    public var isTemporary: Bool {
        switch self {
        case .busy, .full: return true
        default: return false
        }
    }

    public var description: String {
        switch self {
        case let .migrationFailed(file, reason): return "migration \(file) failed and was rolled back: \(reason)"
        case let .cannotOpen(path, reason): return "cannot open the database \(path): \(reason)"
        case let .notFound(what): return "no \(what)"
        case let .conflict(why): return "conflict: \(why)"
        case .busy: return "the database is busy (another process holds a lock); try again"
        case let .damaged(path, reason): return "the database \(path) is damaged (integrity_check: \(reason))"
        case let .full(reason): return "the disk is full: \(reason)"
        }
    }
}
