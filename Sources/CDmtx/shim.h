#ifndef GYMCARD_CDMTX_SHIM_H
#define GYMCARD_CDMTX_SHIM_H
// libdmtx 0.7 (Debian's libdmtx0b), the Data Matrix decoder, loaded with dlopen on the first photo that
// reaches its stage (Sources/Scanner/DataMatrixReader.swift). Its functions are listed once, here; the
// table's members take their types from dmtx.h itself (docs/ARCHITECTURE.md §17).
#include <dmtx.h>

#define GYMCARD_DMTX_FUNCTIONS(X) \
    X(dmtxTimeNow) \
    X(dmtxImageCreate) \
    X(dmtxImageDestroy) \
    X(dmtxDecodeCreate) \
    X(dmtxDecodeDestroy) \
    X(dmtxRegionFindNext) \
    X(dmtxRegionDestroy) \
    X(dmtxDecodeMatrixRegion) \
    X(dmtxMessageDestroy) \
    X(dmtxGetSymbolAttribute)

#define GYMCARD_FUNCTION_MEMBER(name) __typeof__(&name) _Nonnull name;
#define GYMCARD_FUNCTION_NAME(name) #name,

/// libdmtx's functions gymcard calls, filled by DynamicLibrary.bind.
typedef struct gymcard_dmtx_functions {
    GYMCARD_DMTX_FUNCTIONS(GYMCARD_FUNCTION_MEMBER)
} gymcard_dmtx_functions;

/// The names of the table's members, in order, then a null.
static inline const char *const *gymcard_dmtx_function_names(void) {
    static const char *const names[] = {GYMCARD_DMTX_FUNCTIONS(GYMCARD_FUNCTION_NAME) 0};
    return names;
}

#endif
