// The zxing-cpp shim: Debian's zxing-cpp 1.4.0 (libzxing-dev) has only a C++ API, so this file calls it and
// offers the few C functions of include/gymcard_zxing.h, which Scanner finds with dlsym.
//
// It is built as its own shared library (libGymcardZXing.so, beside the gymcard binaries) and not linked
// into gymcard: libZXing and the C++ runtime it needs would otherwise be loaded by every gymcard process,
// the status bars' included, although only a photo that libzbar cannot read needs them.
//
// No C++ exception may cross into Swift: every entry point catches everything.
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

int32_t gymcardFormat(ZXing::BarcodeFormat format) {
    for (const auto &entry : formatTable)
        if (entry.format == format) return entry.bit;
    return 0;
}

}  // namespace

extern "C" int32_t gymcard_zxing_read(
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
            std::string text = result.text();
            // A text that does not fit is left out rather than cut: a cut text would be a wrong one.
            if (!result.isValid() || format == 0 || text.empty() || text.size() >= GYMCARD_ZXING_TEXT_CAPACITY
                || text.find('\0') != std::string::npos)
                continue;
            gymcard_zxing_result &out = results[written++];
            out.format = format;
            out.lineCount = result.lineCount();
            const auto &position = result.position();
            for (int corner = 0; corner < 4; ++corner) {
                out.corners[2 * corner] = position[corner].x;
                out.corners[2 * corner + 1] = position[corner].y;
            }
            std::memcpy(out.text, text.c_str(), text.size() + 1);
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
