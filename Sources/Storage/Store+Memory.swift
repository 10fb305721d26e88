import CSQLiteShim

extension Store {
    /// Bytes of heap SQLite holds in this process, for every store it has open: page caches (up
    /// to each connection's `cache_size`), schemas and prepared statements.
    public static var sqliteMemoryBytes: Int { Int(lectern_sqlite_memory_used()) }
}
