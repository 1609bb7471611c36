#ifndef GYMCARD_CZBAR_SHIM_H
#define GYMCARD_CZBAR_SHIM_H
// libzbar, loaded with dlopen for the first photo (Sources/Scanner/ZBarLibrary.swift): its functions are
// listed once, here; the table's members take their types from zbar.h (docs/ARCHITECTURE.md §17).
#include <zbar.h>
#include "../DynamicLoading/include/FunctionTable.h"

#define GYMCARD_ZBAR_FUNCTIONS(X) \
    X(zbar_image_scanner_create) X(zbar_image_scanner_destroy) X(zbar_image_scanner_set_config) \
    X(zbar_image_create) X(zbar_image_destroy) X(zbar_image_set_format) X(zbar_image_set_size) \
    X(zbar_image_set_data) X(zbar_scan_image) X(zbar_image_first_symbol) X(zbar_symbol_get_type) \
    X(zbar_symbol_get_data) X(zbar_symbol_get_data_length) X(zbar_symbol_get_quality) X(zbar_symbol_next) \
    X(zbar_symbol_get_loc_size) X(zbar_symbol_get_loc_x) X(zbar_symbol_get_loc_y)

GYMCARD_FUNCTION_TABLE(zbar, GYMCARD_ZBAR_FUNCTIONS)

// zbar_fourcc is a function-like macro; Y800 is 8-bit greyscale, the only format we hand to zbar.
static inline unsigned long gymcard_zbar_format_y800(void) { return zbar_fourcc('Y', '8', '0', '0'); }

#endif
