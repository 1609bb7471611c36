#ifndef GYMCARD_FUNCTION_TABLE_H
#define GYMCARD_FUNCTION_TABLE_H
// The C half of DynamicLoading (docs/ARCHITECTURE.md §17), included by each shim.h by a relative path.
// GYMCARD_FUNCTION_TABLE(zip, GYMCARD_ZIP_FUNCTIONS), from an X-macro list of zip.h's functions, declares
// `gymcard_zip_functions` (members `__typeof__(&f) _Nonnull f;`, so the header's own types) and
// `gymcard_zip_function_names()` (the names in member order, then a null), what DynamicLibrary.bind takes.

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
