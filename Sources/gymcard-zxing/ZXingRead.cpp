// The read itself: Debian's zxing-cpp 1.4.0 (libzxing-dev) has only a C++ API, so this file calls it and
// fills the C structs of include/gymcard_zxing.h. It runs in gymcard-zxing, the helper process that
// Scanner starts (main.cpp; docs/ARCHITECTURE.md §14, "zxing-cpp in a process of its own").
//
// No C++ exception leaves this file: the entry point catches everything.
#define ZX_USE_UTF8 1

#include "gymcard_zxing.h"

#include <ZXing/ReadBarcode.h>
#include <ZXing/ZXVersion.h>

#include <algorithm>
#include <cstring>
#include <string>

namespace {

constexpr int32_t largestSide = 65535;

bool isValidImage(const uint8_t *luma, size_t lumaCount, int32_t width, int32_t height, int32_t rowStride) {
    if (luma == nullptr || width < 1 || height < 1 || width > largestSide || height > largestSide) return false;
    if (rowStride < width || rowStride > largestSide * 4) return false;
    // The last row needs only `width` bytes; the sides are bounded above, so this cannot overflow.
    size_t needed = static_cast<size_t>(rowStride) * static_cast<size_t>(height - 1) + static_cast<size_t>(width);
    return needed <= lumaCount;
}

/// The shim's format bits and zxing-cpp's formats, one for one.
constexpr struct {
    int32_t bit;
    ZXing::BarcodeFormat format;
} formatTable[] = {
    {GYMCARD_ZXING_CODABAR, ZXing::BarcodeFormat::Codabar},
    {GYMCARD_ZXING_QR_CODE, ZXing::BarcodeFormat::QRCode},
    {GYMCARD_ZXING_CODE39, ZXing::BarcodeFormat::Code39},
    {GYMCARD_ZXING_CODE93, ZXing::BarcodeFormat::Code93},
    {GYMCARD_ZXING_CODE128, ZXing::BarcodeFormat::Code128},
    {GYMCARD_ZXING_ITF, ZXing::BarcodeFormat::ITF},
    {GYMCARD_ZXING_EAN8, ZXing::BarcodeFormat::EAN8},
    {GYMCARD_ZXING_EAN13, ZXing::BarcodeFormat::EAN13},
    {GYMCARD_ZXING_UPCA, ZXing::BarcodeFormat::UPCA},
    {GYMCARD_ZXING_UPCE, ZXing::BarcodeFormat::UPCE},
    {GYMCARD_ZXING_PDF417, ZXing::BarcodeFormat::PDF417},
    {GYMCARD_ZXING_DATA_MATRIX, ZXing::BarcodeFormat::DataMatrix},
    {GYMCARD_ZXING_AZTEC, ZXing::BarcodeFormat::Aztec},
};

ZXing::BarcodeFormats zxingFormats(int32_t formats) {
    ZXing::BarcodeFormats chosen;
    for (const auto &entry : formatTable)
        if (formats & entry.bit) chosen |= entry.format;
    return chosen;
}

/// The formats whose content is bytes in a character set (an ECI may name it), not text.
constexpr int32_t twoDimensional =
    GYMCARD_ZXING_QR_CODE | GYMCARD_ZXING_PDF417 | GYMCARD_ZXING_DATA_MATRIX | GYMCARD_ZXING_AZTEC;

int32_t gymcardFormat(ZXing::BarcodeFormat format) {
    for (const auto &entry : formatTable)
        if (entry.format == format) return entry.bit;
    return 0;
}

}  // namespace

extern "C" int32_t gymcard_zxing_read_here(
    const uint8_t *luma, size_t lumaCount, int32_t width, int32_t height, int32_t rowStride, int32_t formats,
    int32_t tryHarder, gymcard_zxing_result *results, int32_t capacity) {
    if (!isValidImage(luma, lumaCount, width, height, rowStride)) return GYMCARD_ZXING_BAD_IMAGE;
    if (results == nullptr || capacity < 1 || (formats & GYMCARD_ZXING_ALL_FORMATS) == 0)
        return GYMCARD_ZXING_BAD_ARGUMENTS;
    try {
        ZXing::DecodeHints hints;
        hints.setFormats(zxingFormats(formats));
        // Codabar's start and stop letters are part of a member ID; zxing-cpp drops them by default.
        hints.setReturnCodabarStartEnd(true);
        hints.setTryHarder(tryHarder != 0);
        // Byte segments without an ECI are ISO-8859-1 in the text (their bytes go back too, and Scanner
        // decides): zxing-cpp's own guess took Latin-1 for Shift JIS. A QR code's Kanji segments stay Shift JIS.
        hints.setCharacterSet("ISO-8859-1");
        // Debian's zxing-cpp 1.4.0 is built with assertions on, and comparing two linear results that each
        // have several lines aborts the process (`assert(lineCount() == 1)` in Result::operator==): it
        // happens when ReadBarcodes merges the results of its downscaled copies (seen on a 900 px image,
        // which is over its 500 px threshold), and can when it merges the turned pass. So neither: the
        // scanner hands zxing-cpp images already turned so that the bars stand upright.
        hints.setTryDownscale(false);
        hints.setTryRotate(false);
        ZXing::ImageView image(luma, width, height, ZXing::ImageFormat::Lum, rowStride);
        int32_t written = 0;
        for (const auto &result : ZXing::ReadBarcodes(image, hints)) {
            if (written == capacity) break;
            int32_t format = gymcardFormat(result.format());
            bool isBytes = (format & twoDimensional) != 0;
            std::string text = result.text();
            std::string raw;
            if (isBytes && result.hasECI()) {
                // bytesECI() begins with the symbology identifier ("]Q2"), then the ECI protocol's bytes.
                const ZXing::ByteArray &protocol = result.bytesECI();
                raw.assign(protocol.begin(), protocol.end());
                if (raw.size() >= 3 && raw[0] == ']') raw.erase(0, 3);
            } else if (isBytes) {
                const ZXing::ByteArray &bytes = result.bytes();
                raw.assign(bytes.begin(), bytes.end());
            }
            // A text that does not fit is left out rather than cut: a cut text would be a wrong one.
            if (!result.isValid() || format == 0 || (isBytes ? raw.empty() : text.empty())
                || text.size() >= GYMCARD_ZXING_TEXT_CAPACITY || raw.size() >= GYMCARD_ZXING_TEXT_CAPACITY
                || text.find('\0') != std::string::npos)
                continue;
            gymcard_zxing_result &out = results[written++];
            out.format = format;
            out.isBytes = isBytes ? 1 : 0;
            out.hasECI = result.hasECI() ? 1 : 0;
            out.byteCount = static_cast<int32_t>(text.size());
            out.rawCount = static_cast<int32_t>(raw.size());
            std::memcpy(out.raw, raw.data(), raw.size());
            out.lineCount = result.lineCount();
            out.sequenceIndex = result.sequenceIndex();
            out.sequenceSize = result.sequenceSize();
            const auto &position = result.position();
            for (int corner = 0; corner < 4; ++corner) {
                out.corners[2 * corner] = position[corner].x;
                out.corners[2 * corner + 1] = position[corner].y;
            }
            std::memcpy(out.text, text.data(), text.size());
            out.text[text.size()] = '\0';
        }
        return written;
    } catch (...) {
        return GYMCARD_ZXING_FAILED;
    }
}

extern "C" const char *gymcard_zxing_version(void) {
#define GYMCARD_STRING(x) #x
#define GYMCARD_VERSION(major, minor, patch) GYMCARD_STRING(major) "." GYMCARD_STRING(minor) "." GYMCARD_STRING(patch)
    return GYMCARD_VERSION(ZXING_VERSION_MAJOR, ZXING_VERSION_MINOR, ZXING_VERSION_PATCH);
}
