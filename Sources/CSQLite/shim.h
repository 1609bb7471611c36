#ifndef GYMCARD_CSQLITE_SHIM_H
#define GYMCARD_CSQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT is a function-like macro cast ((sqlite3_destructor_type)-1), which Swift cannot
// import: bind text through this instead, so SQLite copies the bytes before the call returns.
static inline int gymcard_sqlite3_bind_text_transient(sqlite3_stmt *statement, int index, const char *text,
                                                      int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}
#endif
