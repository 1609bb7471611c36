#ifndef GYMCARD_CHEIF_SHIM_H
#define GYMCARD_CHEIF_SHIM_H
// libheif, loaded with dlopen on the first HEIC or AVIF photo (Sources/Imaging/HEIFLibrary.swift): its
// functions are listed once, here; the table's members take their types from heif.h
// (docs/ARCHITECTURE.md §17).
#include <libheif/heif.h>
#include "../DynamicLoading/include/FunctionTable.h"

#define GYMCARD_HEIF_FUNCTIONS(X) \
    X(heif_init) X(heif_context_alloc) X(heif_context_free) X(heif_context_read_from_memory_without_copy) \
    X(heif_context_get_primary_image_handle) X(heif_image_handle_release) X(heif_image_handle_get_width) \
    X(heif_image_handle_get_height) X(heif_decode_image) X(heif_image_get_width) X(heif_image_get_height) \
    X(heif_image_get_plane_readonly) X(heif_image_get_bits_per_pixel_range) X(heif_image_has_channel) \
    X(heif_image_release)

GYMCARD_FUNCTION_TABLE(heif, GYMCARD_HEIF_FUNCTIONS)

#endif
