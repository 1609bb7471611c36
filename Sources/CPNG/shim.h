#ifndef GYMCARD_CPNG_SHIM_H
#define GYMCARD_CPNG_SHIM_H
// libpng's simplified API (png_image_*): it reports errors through return values and never
// longjmps into Swift. Function-like macros do not import into Swift; re-expose the ones we use.
#include <png.h>
#include <zlib.h>

static inline png_uint_32 gymcard_png_image_version(void) { return PNG_IMAGE_VERSION; }
static inline png_uint_32 gymcard_png_format_gray(void) { return PNG_FORMAT_GRAY; }
static inline png_uint_32 gymcard_png_format_rgb(void) { return PNG_FORMAT_RGB; }
static inline size_t gymcard_png_image_size(png_image *image) { return PNG_IMAGE_SIZE(*image); }
static inline int gymcard_png_image_failed(png_image *image) { return PNG_IMAGE_FAILED(*image); }

// Reading a large PNG row by row, averaging blocks of `factor`×`factor` pixels into 8-bit grey, so that
// memory stays the size of the reduced image (the simplified API needs the whole image at once).
// libpng's low-level API reports errors by longjmp: it happens here, in C, never across Swift frames.
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const unsigned char *data;
    size_t size;
    size_t offset;
    char message[200];
} gymcard_png_reader;

static void gymcard_png_read_bytes(png_structp png, png_bytep out, size_t length) {
    gymcard_png_reader *reader = (gymcard_png_reader *)png_get_io_ptr(png);
    if (reader->size - reader->offset < length) png_error(png, "the file is cut short");
    memcpy(out, reader->data + reader->offset, length);
    reader->offset += length;
}

static void gymcard_png_fail(png_structp png, png_const_charp message) {
    gymcard_png_reader *reader = (gymcard_png_reader *)png_get_error_ptr(png);
    strncpy(reader->message, message ? message : "libpng gave no reason", sizeof reader->message - 1);
    reader->message[sizeof reader->message - 1] = 0;
    png_longjmp(png, 1);
}

static void gymcard_png_ignore_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

/// Adds one decoded row to the block sums (grey, or grey + alpha composited onto white).
static inline void gymcard_png_accumulate(const unsigned char *row, size_t channels, png_uint_32 width,
                                          unsigned factor, unsigned long *sums) {
    png_uint_32 x = 0;
    for (size_t block = 0; x < width; block++) {
        png_uint_32 end = x + factor < width ? x + factor : width;
        unsigned long sum = 0;
        if (channels == 1) {
            for (; x < end; x++) sum += row[x];
        } else {
            for (; x < end; x++) {
                unsigned alpha = row[2 * x + 1];
                sum += (row[2 * x] * alpha + 255 * (255 - alpha) + 127) / 255;
            }
        }
        sums[block] += sum;
    }
}

/// Writes one row of reduced pixels from the block sums (`rows` source rows in the block; none: white)
/// and clears the sums.
static inline void gymcard_png_flush_blocks(unsigned long *sums, unsigned long rows, png_uint_32 width,
                                            unsigned factor, unsigned char *out, size_t out_width) {
    for (size_t x = 0; x < out_width; x++) {
        size_t columns = (x + 1) * factor <= width ? factor : width - x * factor;
        out[x] = rows ? (unsigned char)((sums[x] + rows * columns / 2) / (rows * columns)) : 255;
        sums[x] = 0;
    }
}

/// Decodes `data` reduced by `factor` (each output pixel the mean of a factor×factor block; the last
/// row and column of blocks may be partial) into `out`, which holds
/// ceil(width/factor) × ceil(height/factor) bytes. Colour becomes grey (Rec. 709 weights), 16 bits are
/// read by their high byte (no gamma is assumed; the simplified API takes 16-bit data for linear light:
/// both are monotonic, which is all bars need), alpha is composited onto white. An interlaced image is read from its last pass (every odd row at full
/// width), which needs no full-size buffer either. Returns 1, or 0 with `reader->message` set.
static inline int gymcard_png_read_gray_reduced(
    gymcard_png_reader *reader, unsigned factor, unsigned char *out, size_t out_width, size_t out_height) {
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, reader, gymcard_png_fail,
                                             gymcard_png_ignore_warning);
    if (!png) {
        strcpy(reader->message, "libpng did not start");
        return 0;
    }
    png_infop info = png_create_info_struct(png);
    unsigned char *volatile row = NULL;
    unsigned long *volatile sums = NULL;
    if (!info || setjmp(png_jmpbuf(png))) {
        free(row);
        free(sums);
        png_destroy_read_struct(&png, info ? &info : NULL, NULL);
        if (!reader->message[0]) strcpy(reader->message, "libpng did not start");
        return 0;
    }
    png_set_read_fn(png, reader, gymcard_png_read_bytes);
    // The chunks' CRCs still guard the data; zlib's Adler-32 over 200 MB of pixels is 5 % of the time.
    png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
    png_set_user_limits(png, 20000, 20000);
    png_read_info(png, info);
    png_uint_32 width = png_get_image_width(png, info);
    png_uint_32 height = png_get_image_height(png, info);
    int color = png_get_color_type(png, info);
    int interlaced = png_get_interlace_type(png, info) != PNG_INTERLACE_NONE;
    png_set_expand(png);
    png_set_strip_16(png);
    if (color & PNG_COLOR_MASK_COLOR) png_set_rgb_to_gray_fixed(png, 1, 21260, 71520);
    png_read_update_info(png, info);
    size_t channels = png_get_channels(png, info);  // 1 grey, 2 grey + alpha
    if (out_width != (width + factor - 1) / factor || out_height != (height + factor - 1) / factor) {
        png_error(png, "the reduced size does not match the image");
    }
    row = (unsigned char *)malloc(png_get_rowbytes(png, info));
    sums = (unsigned long *)calloc(out_width, sizeof(unsigned long));
    if (!row || !sums) png_error(png, "out of memory");
    // Interlace handling stays off: png_read_row then hands out each pass's own (narrower) rows in turn,
    // and only the last pass is kept.
    unsigned long rows_in_block = 0;
    size_t out_y = 0;
    png_uint_32 rows_total = height;
    if (interlaced) {
        // Read every pass's rows; keep pass 6 (odd rows, full width).
        for (int pass = 0; pass < 7; pass++) {
            png_uint_32 pass_rows = PNG_PASS_ROWS(height, pass);
            png_uint_32 pass_cols = PNG_PASS_COLS(width, pass);
            for (png_uint_32 y = 0; y < pass_rows; y++) {
                if (pass_cols == 0) continue;
                png_read_row(png, row, NULL);
                if (pass != 6) continue;
                png_uint_32 source_y = 2 * y + 1;
                size_t target = source_y / factor;
                while (out_y < target) {
                    // Finish the blocks before this row.
                    gymcard_png_flush_blocks(sums, rows_in_block, width, factor, out + out_y * out_width, out_width);
                    rows_in_block = 0;
                    out_y++;
                }
                gymcard_png_accumulate(row, channels, width, factor, sums);
                rows_in_block++;
            }
        }
        rows_total = 0;
    }
    for (png_uint_32 y = 0; y < rows_total; y++) {
        png_read_row(png, row, NULL);
        gymcard_png_accumulate(row, channels, width, factor, sums);
        rows_in_block++;
        if (rows_in_block == factor || y + 1 == height) {
            gymcard_png_flush_blocks(sums, rows_in_block, width, factor, out + out_y * out_width, out_width);
            rows_in_block = 0;
            out_y++;
        }
    }
    // The interlaced path's last blocks.
    while (out_y < out_height) {
        gymcard_png_flush_blocks(sums, rows_in_block, width, factor, out + out_y * out_width, out_width);
        rows_in_block = 0;
        out_y++;
    }
    free(row);
    free(sums);
    row = NULL;
    sums = NULL;
    png_destroy_read_struct(&png, &info, NULL);
    return 1;
}

// Writing a two-colour image with libpng's full API, which alone sets the filter and zlib's level and
// strategy (the simplified API writes at zlib's default level 6 and cannot be told otherwise).
typedef struct {
    unsigned char *data;
    size_t size;
    size_t capacity;
    char message[200];
} gymcard_png_writer;

static void gymcard_png_write_bytes(png_structp png, png_bytep bytes, size_t length) {
    gymcard_png_writer *writer = (gymcard_png_writer *)png_get_io_ptr(png);
    if (writer->capacity - writer->size < length) {
        size_t capacity = writer->capacity ? writer->capacity : 1024;
        while (capacity - writer->size < length) capacity *= 2;
        unsigned char *grown = (unsigned char *)realloc(writer->data, capacity);
        if (!grown) png_error(png, "out of memory");
        writer->data = grown;
        writer->capacity = capacity;
    }
    memcpy(writer->data + writer->size, bytes, length);
    writer->size += length;
}

static void gymcard_png_flush_nothing(png_structp png) { (void)png; }

static void gymcard_png_write_fail(png_structp png, png_const_charp message) {
    gymcard_png_writer *writer = (gymcard_png_writer *)png_get_error_ptr(png);
    strncpy(writer->message, message ? message : "libpng gave no reason", sizeof writer->message - 1);
    writer->message[sizeof writer->message - 1] = 0;
    png_longjmp(png, 1);
}

/// Frees what a writer holds.
static inline void gymcard_png_writer_free(gymcard_png_writer *writer) {
    free(writer->data);
    writer->data = NULL;
    writer->size = 0;
    writer->capacity = 0;
}

/// Packs a row of one-byte pixels (1 dark, 0 light) into 1-bit grey, most significant bit first, dark
/// as 0; the bits after the last pixel are 1, as libpng's own packing and inversion leave them.
static inline void gymcard_png_pack_row(const unsigned char *pixels, png_uint_32 width, unsigned char *packed) {
    for (png_uint_32 x = 0; x < width; x += 8) {
        unsigned bits = 0;
        for (png_uint_32 bit = 0; bit < 8; bit++) {
            bits = bits << 1 | (x + bit < width ? pixels[x + bit] : 0);
        }
        packed[x / 8] = (unsigned char)~bits;
    }
}

/// Writes `pixels` (one byte a pixel, 1 dark and 0 light, `width` bytes a row) into `writer->data` as a
/// 1-bit greyscale PNG, rows unfiltered, zlib at level 9 with the Z_FILTERED strategy. These are the
/// settings zint 2.11's PNG has (level 9, filter None, whose IDAT zlib's default strategy does not
/// reproduce but Z_FILTERED does, byte for byte), measured as the smallest of levels 6 and 9, the default,
/// filtered and RLE strategies, and filters None and Up, over every symbology (Benchmarks/render.sh);
/// grey instead of zint's two-entry palette drops the 18-byte PLTE chunk. No sRGB chunk: black and white
/// are the same in every colour space. A row is packed only when it differs from the one before: the
/// rows of a linear barcode are all the same, and libpng's packing, pixel by pixel, was half of
/// `render --batch`'s own time. Returns 1, or 0 with `writer->message` set (and nothing held).
static inline int gymcard_png_write_bilevel(
    gymcard_png_writer *writer, const unsigned char *pixels, png_uint_32 width, png_uint_32 height) {
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, writer, gymcard_png_write_fail,
                                              gymcard_png_ignore_warning);
    if (!png) {
        strcpy(writer->message, "libpng did not start");
        return 0;
    }
    png_infop info = png_create_info_struct(png);
    unsigned char *volatile packed = NULL;
    if (!info || setjmp(png_jmpbuf(png))) {
        free(packed);
        png_destroy_write_struct(&png, info ? &info : NULL);
        gymcard_png_writer_free(writer);
        if (!writer->message[0]) strcpy(writer->message, "libpng did not start");
        return 0;
    }
    size_t row_bytes = ((size_t)width + 7) / 8;
    packed = (unsigned char *)malloc(row_bytes);
    // A barcode is about a byte a row once compressed: start at a sixteenth of the packed size.
    size_t initial = (row_bytes + 1) * height / 16 + 256;
    writer->data = (unsigned char *)malloc(initial);
    if (!packed || !writer->data) png_error(png, "out of memory");
    writer->capacity = initial;
    png_set_write_fn(png, writer, gymcard_png_write_bytes, gymcard_png_flush_nothing);
    png_set_IHDR(png, info, width, height, 1, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    png_set_compression_level(png, Z_BEST_COMPRESSION);
    png_set_compression_strategy(png, Z_FILTERED);
    png_write_info(png, info);
    const unsigned char *previous = NULL;
    for (png_uint_32 y = 0; y < height; y++) {
        const unsigned char *row = pixels + (size_t)y * width;
        if (!previous || memcmp(row, previous, width) != 0) gymcard_png_pack_row(row, width, packed);
        previous = row;
        png_write_row(png, packed);
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    free(packed);
    return 1;
}

#endif
