#ifndef GYMCARD_CZINT_SHIM_H
#define GYMCARD_CZINT_SHIM_H
// libzint, loaded with dlopen for the first card in a symbology other than Codabar
// (Sources/Symbols/ZintLibrary.swift): its functions are listed once, here; the table's members take
// their types from zint.h (docs/ARCHITECTURE.md §17).
#include <zint.h>
#include "../DynamicLoading/include/FunctionTable.h"

#define GYMCARD_ZINT_FUNCTIONS(X) \
    X(ZBarcode_Create) X(ZBarcode_Delete) X(ZBarcode_Encode)

GYMCARD_FUNCTION_TABLE(zint, GYMCARD_ZINT_FUNCTIONS)

#endif
