#ifndef LECTERN_CSQLITESHIM_H
#define LECTERN_CSQLITESHIM_H

/// Leaves a WAL database's log as it is when this connection closes (SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE).
/// `db` is a `sqlite3 *`; returns SQLite's result code. sqlite3_db_config is variadic, which Swift cannot call.
int lectern_sqlite_no_checkpoint_on_close(void *db);

/// Instead of checkpointing on this connection when a commit leaves 1,000 pages in the log,
/// calls `wake(context)` once it holds `pages` or more (another thread checkpoints), and
/// checkpoints here only past `limit`. `db` is a `sqlite3 *`; returns SQLite's result code.
int lectern_sqlite_wal_wake(void *db, int pages, int limit, void (*wake)(void *), void *context);

/// Makes every statement this connection runs fail with SQLITE_INTERRUPT once the calling thread
/// has spent `nanoseconds` more of CPU time, checked every `steps` virtual-machine instructions
/// (SQLite's progress handler); `nanoseconds` 0 removes the limit. CPU time of the thread, not
/// the wall clock: the limit bounds the work, whatever else the machine is busy with. `db` is a
/// `sqlite3 *`; call it, and run the statements, on one thread.
void lectern_sqlite_limit_cpu_time(void *db, long long nanoseconds, int steps);

/// The `errno` of the connection's last failed system call (`sqlite3_system_errno`): tells a full
/// disk (`ENOSPC`) from another I/O error. Swift does not see SQLite's own header here.
int lectern_sqlite_system_errno(void *db);

/// Bytes of heap SQLite holds in this process (`sqlite3_memory_used`): page caches, schemas,
/// prepared statements of every connection.
long long lectern_sqlite_memory_used(void);

#endif
