#ifndef GYMCARD_CSQLITE_SHIM_H
#define GYMCARD_CSQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT is a function-like macro cast ((sqlite3_destructor_type)-1), which Swift cannot
// import: bind text through this instead, so SQLite copies the bytes before the call returns.
static inline int gymcard_sqlite3_bind_text_transient(sqlite3_stmt *statement, int index, const char *text,
                                                      int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}

// sqlite3_db_config is variadic, which Swift cannot call. A process that records one sample and exits
// would otherwise checkpoint the WAL into the database (two fsyncs) on every close: leave that to the
// automatic checkpoint of a later write, every thousand pages.
static inline int gymcard_sqlite3_keep_wal_on_close(sqlite3 *database) {
    return sqlite3_db_config(database, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}
#endif
