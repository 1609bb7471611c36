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
#include <cerrno>
#include <csignal>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

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

/// The read itself, in the process that calls it.
int32_t readHere(
    const uint8_t *luma, int32_t width, int32_t height, int32_t rowStride, int32_t formats, int32_t tryHarder,
    gymcard_zxing_result *results, int32_t capacity) {
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

bool writeAll(int fd, const void *bytes, size_t count) {
    auto *next = static_cast<const char *>(bytes);
    while (count > 0) {
        ssize_t written = write(fd, next, count);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return false;
        next += written;
        count -= static_cast<size_t>(written);
    }
    return true;
}

bool readAll(int fd, void *bytes, size_t count) {
    auto *next = static_cast<char *>(bytes);
    while (count > 0) {
        ssize_t got = read(fd, next, count);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return false;
        next += got;
        count -= static_cast<size_t>(got);
    }
    return true;
}

}  // namespace

// Debian's zxing-cpp 1.4.0 is built with assertions on, and one of them fires on some photos:
// `assert(lineCount() == 1)` in Result::operator==, when it compares a linear result that several scan lines
// already merged with a new one (a pen-scribbled label turned 26 degrees; two cards side by side). An assertion
// aborts the whole process, so the read runs in a child process: fork, read there, hand the results back
// through a pipe. A child that aborts, or dies any other way, is a read that found nothing
// (GYMCARD_ZXING_ABORTED); its core dump is off and its standard error (the assertion's message) goes to
// /dev/null. A fork of the scanning process costs about a millisecond; zxing-cpp runs only where libzbar
// read nothing it trusts.
extern "C" int32_t gymcard_zxing_read(
    const uint8_t *luma, size_t lumaCount, int32_t width, int32_t height, int32_t rowStride, int32_t formats,
    int32_t tryHarder, gymcard_zxing_result *results, int32_t capacity) {
    if (!isValidImage(luma, lumaCount, width, height, rowStride)) return GYMCARD_ZXING_BAD_IMAGE;
    if (results == nullptr || capacity < 1 || (formats & GYMCARD_ZXING_ALL_FORMATS) == 0)
        return GYMCARD_ZXING_BAD_ARGUMENTS;
    int pipeEnds[2];
    if (pipe2(pipeEnds, O_CLOEXEC) != 0) return GYMCARD_ZXING_FAILED;
    pid_t child = fork();
    if (child < 0) {
        close(pipeEnds[0]);
        close(pipeEnds[1]);
        return GYMCARD_ZXING_FAILED;
    }
    if (child == 0) {
        // The child: gymcard's own signal handlers (Ctrl-C cleans up files) are not its to run; it dies with
        // its parent; it leaves no core file; nothing it says reaches the terminal. Only _exit: the parent's
        // buffered output must not be flushed twice.
        for (int number : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE}) signal(number, SIG_DFL);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        struct rlimit noCore = {0, 0};
        setrlimit(RLIMIT_CORE, &noCore);
        int devNull = open("/dev/null", O_WRONLY | O_CLOEXEC);
        if (devNull >= 0) dup2(devNull, STDERR_FILENO);
        close(pipeEnds[0]);
        int32_t count = readHere(luma, width, height, rowStride, formats, tryHarder, results, capacity);
        bool sent = writeAll(pipeEnds[1], &count, sizeof count)
            && (count <= 0 || writeAll(pipeEnds[1], results, sizeof(gymcard_zxing_result) * count));
        _exit(sent ? 0 : 1);
    }
    close(pipeEnds[1]);
    int32_t count = 0;
    bool received = readAll(pipeEnds[0], &count, sizeof count) && count <= capacity
        && (count <= 0 || readAll(pipeEnds[0], results, sizeof(gymcard_zxing_result) * count));
    close(pipeEnds[0]);
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    if (!received || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return GYMCARD_ZXING_ABORTED;
    return count;
}

extern "C" const char *gymcard_zxing_version(void) {
#define GYMCARD_STRING(x) #x
#define GYMCARD_VERSION(major, minor, patch) GYMCARD_STRING(major) "." GYMCARD_STRING(minor) "." GYMCARD_STRING(patch)
    return GYMCARD_VERSION(ZXING_VERSION_MAJOR, ZXING_VERSION_MINOR, ZXING_VERSION_PATCH);
}
