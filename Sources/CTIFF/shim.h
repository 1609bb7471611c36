#ifndef GYMCARD_CTIFF_SHIM_H
#define GYMCARD_CTIFF_SHIM_H
// libtiff, loaded with dlopen on the first TIFF file (Sources/Imaging/TIFFCodec.swift): its functions are
// listed once, here; the table's members take their types from tiffio.h (docs/ARCHITECTURE.md §17). What
// Swift cannot do itself is here too: call the variadic TIFFGetFieldDefaulted, and give libtiff a file in
// memory and an error handler that keeps the message instead of printing it.
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <tiffio.h>
#include "../DynamicLoading/include/FunctionTable.h"

#define GYMCARD_TIFF_FUNCTIONS(X) \
    X(TIFFClientOpenExt) X(TIFFOpenOptionsAlloc) X(TIFFOpenOptionsFree) \
    X(TIFFOpenOptionsSetErrorHandlerExtR) X(TIFFOpenOptionsSetWarningHandlerExtR) X(TIFFGetFieldDefaulted) \
    X(TIFFClose) X(TIFFNumberOfDirectories) X(TIFFSetDirectory) X(TIFFIsTiled) X(TIFFStripSize64) \
    X(TIFFTileSize64) X(TIFFRGBAImageBegin) X(TIFFRGBAImageGet) X(TIFFRGBAImageEnd)

GYMCARD_FUNCTION_TABLE(tiff, GYMCARD_TIFF_FUNCTIONS)

/// A TIFF file in memory, and the first error libtiff reported about it.
typedef struct {
    const uint8_t *data;
    uint64_t size;
    uint64_t offset;
    char message[256];
} gymcard_tiff_source;

static inline tmsize_t gymcard_tiff_read(thandle_t handle, void *buffer, tmsize_t count) {
    gymcard_tiff_source *source = (gymcard_tiff_source *)handle;
    if (count < 0 || source->offset >= source->size) return 0;
    uint64_t available = source->size - source->offset;
    uint64_t length = (uint64_t)count < available ? (uint64_t)count : available;
    memcpy(buffer, source->data + source->offset, length);
    source->offset += length;
    return (tmsize_t)length;
}

static inline tmsize_t gymcard_tiff_write(thandle_t handle, void *buffer, tmsize_t count) {
    (void)handle; (void)buffer; (void)count;
    return 0;
}

static inline toff_t gymcard_tiff_seek(thandle_t handle, toff_t offset, int whence) {
    gymcard_tiff_source *source = (gymcard_tiff_source *)handle;
    uint64_t base = whence == SEEK_CUR ? source->offset : whence == SEEK_END ? source->size : 0;
    source->offset = base + offset;
    return source->offset;
}

static inline int gymcard_tiff_close(thandle_t handle) {
    (void)handle;
    return 0;
}

static inline toff_t gymcard_tiff_size(thandle_t handle) { return ((gymcard_tiff_source *)handle)->size; }

// The bytes are already in memory: libtiff reads strips from them in place, as from a mapped file.
static inline int gymcard_tiff_map(thandle_t handle, void **base, toff_t *size) {
    gymcard_tiff_source *source = (gymcard_tiff_source *)handle;
    *base = (void *)source->data;
    *size = source->size;
    return 1;
}

static inline void gymcard_tiff_unmap(thandle_t handle, void *base, toff_t size) {
    (void)handle; (void)base; (void)size;
}

static inline int gymcard_tiff_error(TIFF *tiff, void *user, const char *module, const char *format,
                                     va_list arguments) {
    (void)tiff; (void)module;
    gymcard_tiff_source *source = (gymcard_tiff_source *)user;
    if (source->message[0] == 0) vsnprintf(source->message, sizeof source->message, format, arguments);
    return 1;
}

/// Warnings are dropped, but for one: libtiff warns "IO error during reading of <tag>; tag ignored" when a
/// tag's data lies past the end of the file (a file cut short in a page's colour map or description) and
/// reads on as if the tag were absent, which decodes a palette page wrong without an error. That one is
/// kept as an error.
static inline int gymcard_tiff_warning(TIFF *tiff, void *user, const char *module, const char *format,
                                       va_list arguments) {
    if (strstr(format, "IO error") == NULL) return 1;
    gymcard_tiff_error(tiff, user, module, format, arguments);
    char *ignored = strstr(((gymcard_tiff_source *)user)->message, "; tag ignored");
    if (ignored != NULL) *ignored = 0;
    return 1;
}

/// Opens the file in memory read-only, with libtiff's errors kept in `source->message` and its warnings
/// dropped but for a tag's data past the end (by default it prints both on stderr). NULL when it is no
/// TIFF libtiff can open.
static inline TIFF *gymcard_tiff_open(const gymcard_tiff_functions *tiff, gymcard_tiff_source *source) {
    TIFFOpenOptions *options = tiff->TIFFOpenOptionsAlloc();
    if (options == NULL) return NULL;
    tiff->TIFFOpenOptionsSetErrorHandlerExtR(options, gymcard_tiff_error, source);
    tiff->TIFFOpenOptionsSetWarningHandlerExtR(options, gymcard_tiff_warning, source);
    TIFF *opened = tiff->TIFFClientOpenExt("TIFF", "r", (thandle_t)source, gymcard_tiff_read,
                                           gymcard_tiff_write, gymcard_tiff_seek, gymcard_tiff_close,
                                           gymcard_tiff_size, gymcard_tiff_map, gymcard_tiff_unmap, options);
    tiff->TIFFOpenOptionsFree(options);
    return opened;
}

/// TIFFGetFieldDefaulted for a tag with one uint32 value; 0 when it has none.
static inline uint32_t gymcard_tiff_uint32(const gymcard_tiff_functions *tiff, TIFF *file, uint32_t tag) {
    uint32_t value = 0;
    return tiff->TIFFGetFieldDefaulted(file, tag, &value) ? value : 0;
}

/// Grey from a row of TIFFRGBAImage's packed ABGR pixels (alpha already multiplied in, so a transparent
/// pixel lies on white): in C, as it sees every pixel of images up to 200 MP, in debug builds too.
static inline void gymcard_tiff_grey_row(const uint32_t *pixels, uint8_t *grey, uint32_t count) {
    for (uint32_t x = 0; x < count; x++) {
        uint32_t pixel = pixels[x];
        uint32_t luma = (299 * (pixel & 0xFF) + 587 * (pixel >> 8 & 0xFF) + 114 * (pixel >> 16 & 0xFF) + 500) / 1000;
        uint32_t level = luma + 255 - (pixel >> 24);
        grey[x] = (uint8_t)(level > 255 ? 255 : level);
    }
}

#endif
