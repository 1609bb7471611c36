#ifndef GYMCARD_CZIP_SHIM_H
#define GYMCARD_CZIP_SHIM_H
// libzip, loaded with dlopen for the first Catima zip (Sources/Catima/LibZip.swift): its functions are
// listed once, here; the table's members take their types from zip.h (docs/ARCHITECTURE.md §17).
#include <zip.h>
#include "../DynamicLoading/include/FunctionTable.h"

#define GYMCARD_ZIP_FUNCTIONS(X) \
    X(zip_source_buffer_create) X(zip_open_from_source) X(zip_source_keep) X(zip_source_free) \
    X(zip_source_open) X(zip_source_read) X(zip_source_close) X(zip_close) X(zip_discard) X(zip_file_add) \
    X(zip_file_set_encryption) X(zip_get_error) X(zip_file_get_error) X(zip_error_code_zip) \
    X(zip_error_init) X(zip_error_fini) X(zip_error_strerror) X(zip_get_num_entries) X(zip_stat_index) \
    X(zip_fopen_index_encrypted) X(zip_fread) X(zip_fclose)

GYMCARD_FUNCTION_TABLE(zip, GYMCARD_ZIP_FUNCTIONS)

#endif
