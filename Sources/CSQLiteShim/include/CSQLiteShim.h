#ifndef LECTERN_CSQLITESHIM_H
#define LECTERN_CSQLITESHIM_H

/// Leaves a WAL database's log as it is when this connection closes (SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE).
/// `db` is a `sqlite3 *`; returns SQLite's result code. sqlite3_db_config is variadic, which Swift cannot call.
int lectern_sqlite_no_checkpoint_on_close(void *db);

#endif
