#ifndef GYMCARD_CSQLITE_SHIM_H
#define GYMCARD_CSQLITE_SHIM_H
#include <sqlite3.h>

// libsqlite3 is opened with dlopen (Sources/History/SQLiteLibrary.swift): only sqlite3.h's types and
// constants are used at build time, and nothing here calls SQLite itself.

// SQLITE_TRANSIENT is a function-like macro cast ((sqlite3_destructor_type)-1), which Swift cannot
// import: text bound with it is copied by SQLite before the call returns.
static inline sqlite3_destructor_type gymcard_sqlite3_transient(void) { return SQLITE_TRANSIENT; }

// sqlite3_db_config is variadic, which Swift cannot call: `db_config` is its address from dlsym. A process
// that records one sample and exits would otherwise checkpoint the WAL into the database (two fsyncs) on
// every close: leave that to the automatic checkpoint of a later write, every thousand pages.
static inline int gymcard_sqlite3_keep_wal_on_close(void *db_config, sqlite3 *database) {
    int (*config)(sqlite3 *, int, ...) = (int (*)(sqlite3 *, int, ...))db_config;
    return config(database, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}
#endif
