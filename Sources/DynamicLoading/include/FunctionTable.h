#ifndef GYMCARD_FUNCTION_TABLE_H
#define GYMCARD_FUNCTION_TABLE_H
// The C half of DynamicLoading (docs/ARCHITECTURE.md §17), included by each shim.h of a library gymcard
// loads with dlopen. A shim lists the library's functions once, as an X-macro, and declares the table:
//
//     #define GYMCARD_ZIP_FUNCTIONS(X) X(zip_open_from_source) X(zip_close)
//     GYMCARD_FUNCTION_TABLE(zip, GYMCARD_ZIP_FUNCTIONS)
//
// which gives `gymcard_zip_functions`, a struct of members `__typeof__(&f) _Nonnull f;` (each member's type
// is the header's own declaration, so the compiler checks it), and `gymcard_zip_function_names()`, the
// names in member order, then a null: what DynamicLibrary.bind takes. The header is included by a relative
// path: a `.systemLibrary` target can depend on no other target, and SwiftPM tracks neither this file nor a
// shim.h (after editing one, touch the Swift files that import the shim).

#define GYMCARD_FUNCTION_MEMBER(name) __typeof__(&name) _Nonnull name;
#define GYMCARD_FUNCTION_NAME(name) #name,

#define GYMCARD_FUNCTION_TABLE(library, LIST)                                          \
    typedef struct gymcard_##library##_functions {                                     \
        LIST(GYMCARD_FUNCTION_MEMBER)                                                  \
    } gymcard_##library##_functions;                                                   \
    static inline const char *const *gymcard_##library##_function_names(void) {       \
        static const char *const names[] = {LIST(GYMCARD_FUNCTION_NAME) 0};            \
        return names;                                                                  \
    }

#endif
