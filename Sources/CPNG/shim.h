#ifndef GYMCARD_CPNG_SHIM_H
#define GYMCARD_CPNG_SHIM_H
// libpng's simplified API (png_image_*): it reports errors through return values and never
// longjmps into Swift. Function-like macros do not import into Swift; re-expose the ones we use.
#include <png.h>

static inline png_uint_32 gymcard_png_image_version(void) { return PNG_IMAGE_VERSION; }
static inline png_uint_32 gymcard_png_format_gray(void) { return PNG_FORMAT_GRAY; }
static inline png_uint_32 gymcard_png_format_rgb(void) { return PNG_FORMAT_RGB; }
static inline png_uint_32 gymcard_png_format_rgb_colormap(void) { return PNG_FORMAT_RGB_COLORMAP; }
static inline size_t gymcard_png_image_size(png_image *image) { return PNG_IMAGE_SIZE(*image); }
static inline int gymcard_png_image_failed(png_image *image) { return PNG_IMAGE_FAILED(*image); }

#endif
