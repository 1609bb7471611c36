#ifndef GYMCARD_CDMTX_SHIM_H
#define GYMCARD_CDMTX_SHIM_H
// libdmtx 0.7, the Data Matrix decoder, loaded with dlopen on the first photo that reaches its stage
// (Sources/Scanner/DataMatrixReader.swift). Its functions are listed once, here; the table's members take
// their types from dmtx.h itself (docs/ARCHITECTURE.md §17).
#include <dmtx.h>
#include "../DynamicLoading/include/FunctionTable.h"

#define GYMCARD_DMTX_FUNCTIONS(X) \
    X(dmtxTimeNow) X(dmtxImageCreate) X(dmtxImageDestroy) X(dmtxDecodeCreate) X(dmtxDecodeDestroy) \
    X(dmtxRegionFindNext) X(dmtxRegionDestroy) X(dmtxDecodeMatrixRegion) X(dmtxMessageDestroy) \
    X(dmtxGetSymbolAttribute)

/// libdmtx's functions gymcard calls, filled by DynamicLibrary.bind.
GYMCARD_FUNCTION_TABLE(dmtx, GYMCARD_DMTX_FUNCTIONS)

#endif
