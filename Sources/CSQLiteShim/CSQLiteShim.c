#include <sqlite3.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include "CSQLiteShim.h"

int lectern_sqlite_system_errno(void *db) {
    return sqlite3_system_errno((sqlite3 *)db);
}

long long lectern_sqlite_memory_used(void) {
    return sqlite3_memory_used();
}

int lectern_sqlite_no_checkpoint_on_close(void *db) {
    return sqlite3_db_config((sqlite3 *)db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}

struct lectern_wal_wake {
    int pages, limit;
    void (*wake)(void *);
    void *context;
};

/// SQLite calls this after every commit, with the number of pages in the log.
static int lectern_wal_hook(void *argument, sqlite3 *db, const char *name, int pages) {
    struct lectern_wal_wake *wake = argument;
    if (pages >= wake->limit) {
        // The checkpointing thread fell behind: this connection copies the log itself, as
        // SQLite's automatic checkpoint would, so the log cannot grow without end.
        sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, 0, 0);
    } else if (pages >= wake->pages) {
        wake->wake(wake->context);
    }
    return SQLITE_OK;
}

int lectern_sqlite_wal_wake(void *db, int pages, int limit, void (*wake)(void *), void *context) {
    struct lectern_wal_wake *argument = malloc(sizeof *argument);
    if (!argument) return SQLITE_NOMEM;
    argument->pages = pages;
    argument->limit = limit;
    argument->wake = wake;
    argument->context = context;
    // Replaces the automatic checkpoint (itself a WAL hook). The argument lives as long as the
    // process: one per writer connection.
    sqlite3_wal_hook((sqlite3 *)db, lectern_wal_hook, argument);
    return SQLITE_OK;
}

static long long lectern_thread_cpu_nanoseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

/// Non-zero (interrupt) once the thread's CPU clock passes the deadline carried in the context
/// pointer itself: nothing to allocate or free.
static int lectern_past_cpu_deadline(void *deadline) {
    return lectern_thread_cpu_nanoseconds() >= (long long)(intptr_t)deadline;
}

void lectern_sqlite_limit_cpu_time(void *db, long long nanoseconds, int steps) {
    if (nanoseconds <= 0) {
        sqlite3_progress_handler((sqlite3 *)db, 0, 0, 0);
        return;
    }
    intptr_t deadline = (intptr_t)(lectern_thread_cpu_nanoseconds() + nanoseconds);
    sqlite3_progress_handler((sqlite3 *)db, steps, lectern_past_cpu_deadline, (void *)deadline);
}
