#ifndef GYMCARD_ZXING_H
#define GYMCARD_ZXING_H
// The C face of gymcard-zxing, the helper process that reads with zxing-cpp (Debian's 1.4.0 has only a C++
// API, which Swift cannot call): its protocol, and the read it runs. Scanner starts the helper and speaks
// this protocol with it (Sources/Scanner/ZXingHelper.swift); nothing of gymcard links libZXing.
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Formats, as bits of `formats`.
enum {
    GYMCARD_ZXING_CODABAR = 1,
    GYMCARD_ZXING_QR_CODE = 2,
    GYMCARD_ZXING_CODE39 = 1 << 2,
    GYMCARD_ZXING_CODE93 = 1 << 3,
    GYMCARD_ZXING_CODE128 = 1 << 4,
    GYMCARD_ZXING_ITF = 1 << 5,
    GYMCARD_ZXING_EAN8 = 1 << 6,
    GYMCARD_ZXING_EAN13 = 1 << 7,
    GYMCARD_ZXING_UPCA = 1 << 8,
    GYMCARD_ZXING_UPCE = 1 << 9,
    GYMCARD_ZXING_PDF417 = 1 << 10,
    GYMCARD_ZXING_DATA_MATRIX = 1 << 11,
    GYMCARD_ZXING_AZTEC = 1 << 12,
    /// Every format above.
    GYMCARD_ZXING_ALL_FORMATS = (1 << 13) - 1,
};

/// What a read answers when it read nothing at all.
enum {
    /// The arguments describe no valid image: a null pointer, a side under 1 or over 65535, a row stride
    /// under the width, or fewer bytes than the rows need.
    GYMCARD_ZXING_BAD_IMAGE = -1,
    /// Bad `results`/`capacity`, or no format asked for.
    GYMCARD_ZXING_BAD_ARGUMENTS = -2,
    /// zxing-cpp threw (out of memory, or a bug); the exception was caught in the helper. Or no helper
    /// could be started for the read.
    GYMCARD_ZXING_FAILED = -3,
    /// The helper died during the read: zxing-cpp aborted on one of its assertions (Debian builds it with
    /// them on). gymcard carries on as if it had read nothing, with a new helper for the next read.
    GYMCARD_ZXING_ABORTED = -4,
};

/// Longest text one result holds, its terminating NUL included; a longer text is not returned. A 2D symbol of
/// 500 characters (the most gymcard draws) takes up to 2000 bytes in UTF-8, and the ECI protocol doubles
/// backslashes.
#define GYMCARD_ZXING_TEXT_CAPACITY 2048

/// One symbol zxing-cpp found.
typedef struct {
    /// One GYMCARD_ZXING_* format bit.
    int32_t format;
    /// Scan lines that agreed on it (1D symbols; 0 for QR, which carries its own error correction).
    int32_t lineCount;
    /// For a symbol that is one of several holding one message (Structured Append: QR, Data Matrix, Aztec,
    /// Macro PDF417), its 0-based place and how many there are; -1 and -1 for a symbol on its own.
    int32_t sequenceIndex;
    int32_t sequenceSize;
    /// Corners in image pixels: top-left, top-right, bottom-right, bottom-left, as x, y pairs.
    int32_t corners[8];
    /// 1 for a 2D symbol (QR, PDF417, Data Matrix, Aztec), whose content is bytes in a character set: then
    /// `raw` holds them, as stored when `hasECI` is 0, else in the ECI protocol (`\NNNNNN` before each
    /// character set's bytes, a backslash doubled), and the caller decodes them. zxing-cpp 1.4 lacks some
    /// ECIs' tables (it gives U+FFFD), cuts a text at bytes that are not valid UTF-8 under ECI 26, and
    /// guesses Shift JIS for Latin-1 bytes without an ECI.
    int32_t isBytes;
    /// 1 when the symbol carries an ECI.
    int32_t hasECI;
    /// The bytes of `text` before its terminating NUL.
    int32_t byteCount;
    /// The bytes of `raw` (a 2D symbol's bytes may hold a NUL).
    int32_t rawCount;
    /// The text as UTF-8, NUL-terminated, Codabar with its start and stop letters; for a 2D symbol without
    /// an ECI, zxing-cpp's text with ISO-8859-1 for its byte segments (a QR code's Kanji segments are Shift
    /// JIS, which only this text shows).
    char text[GYMCARD_ZXING_TEXT_CAPACITY];
    /// A 2D symbol's bytes (see `isBytes`).
    char raw[GYMCARD_ZXING_TEXT_CAPACITY];
} gymcard_zxing_result;

/// Most results one read answers.
#define GYMCARD_ZXING_MOST_RESULTS 64

/// What the helper writes first, once, when it starts: Scanner uses a helper only when all of it is as
/// Scanner was built with (a helper of another build, left in ../lib/gymcard, is not asked).
typedef struct {
    /// GYMCARD_ZXING_MAGIC.
    uint32_t magic;
    /// GYMCARD_ZXING_PROTOCOL.
    uint32_t protocol;
    /// sizeof(gymcard_zxing_request) and sizeof(gymcard_zxing_result) as the helper was built.
    uint32_t requestSize;
    uint32_t resultSize;
    /// The zxing-cpp version the helper was built against, e.g. "1.4.0", NUL-terminated.
    char version[16];
} gymcard_zxing_hello;

#define GYMCARD_ZXING_MAGIC 0x5a58474du  // "MGXZ" read as little-endian bytes
#define GYMCARD_ZXING_PROTOCOL 1u

/// One read asked of the helper on its standard input, followed by `lumaCount` bytes of 8-bit grey samples
/// whose rows start `rowStride` bytes apart. The helper answers an int32_t: how many results follow (0: none
/// found), or a negative GYMCARD_ZXING_* code; then that many gymcard_zxing_result. It reads every symbol of
/// `formats`; with `tryHarder`, zxing-cpp scans more rows. It reads only bars that stand upright (rows cross
/// them): turn the image first. At the end of its input the helper exits.
typedef struct {
    uint64_t lumaCount;
    int32_t width;
    int32_t height;
    int32_t rowStride;
    int32_t formats;
    int32_t tryHarder;
    /// Most results to answer, 1 to GYMCARD_ZXING_MOST_RESULTS.
    int32_t capacity;
} gymcard_zxing_request;

/// The read, in the calling process (the helper's): writes at most `capacity` results and returns how many
/// it wrote, or a negative GYMCARD_ZXING_* code. Never throws; an assertion of zxing-cpp's aborts the caller.
int32_t gymcard_zxing_read_here(
    const uint8_t *luma, size_t lumaCount, int32_t width, int32_t height, int32_t rowStride, int32_t formats,
    int32_t tryHarder, gymcard_zxing_result *results, int32_t capacity);

/// The version of zxing-cpp the helper was built against, e.g. "1.4.0".
const char *gymcard_zxing_version(void);

#ifdef __cplusplus
}
#endif
#endif
