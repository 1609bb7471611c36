#ifndef GYMCARD_CSQLITE_SHIM_H
#define GYMCARD_CSQLITE_SHIM_H
// libsqlite3, loaded with dlopen on the first history file (Sources/History/SQLiteLibrary.swift): its
// functions are listed once, here; the table's members take their types from sqlite3.h
// (docs/ARCHITECTURE.md §17). Nothing is linked.
#include <sqlite3.h>
#include "../DynamicLoading/include/FunctionTable.h"

#define GYMCARD_SQLITE_FUNCTIONS(X) \
    X(sqlite3_open_v2) X(sqlite3_close_v2) X(sqlite3_extended_result_codes) X(sqlite3_busy_timeout) \
    X(sqlite3_db_config) X(sqlite3_exec) X(sqlite3_free) X(sqlite3_prepare_v2) X(sqlite3_changes) \
    X(sqlite3_errmsg) X(sqlite3_errstr) X(sqlite3_finalize) X(sqlite3_reset) X(sqlite3_clear_bindings) \
    X(sqlite3_bind_int64) X(sqlite3_bind_text) X(sqlite3_bind_null) X(sqlite3_step) X(sqlite3_column_type) \
    X(sqlite3_column_int64) X(sqlite3_column_text) X(sqlite3_column_bytes)

GYMCARD_FUNCTION_TABLE(sqlite, GYMCARD_SQLITE_FUNCTIONS)

// SQLITE_TRANSIENT is a function-like macro cast ((sqlite3_destructor_type)-1), which Swift cannot
// import: text bound with it is copied by SQLite before the call returns.
static inline sqlite3_destructor_type gymcard_sqlite3_transient(void) { return SQLITE_TRANSIENT; }

// sqlite3_db_config is variadic, which Swift cannot call (its table member is only a slot to Swift). A
// process that records one sample and exits would otherwise checkpoint the WAL into the database (two
// fsyncs) on every close: leave that to the automatic checkpoint of a later write, every thousand pages.
static inline int gymcard_sqlite3_keep_wal_on_close(const gymcard_sqlite_functions *sqlite, sqlite3 *database) {
    return sqlite->sqlite3_db_config(database, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}
#endif
