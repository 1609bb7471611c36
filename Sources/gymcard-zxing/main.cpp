// gymcard-zxing: zxing-cpp in a process of its own, started by Scanner (Sources/Scanner/ZXingHelper.swift)
// when a photo needs the second engine. docs/ARCHITECTURE.md §14 ("zxing-cpp in a process of its own") says
// why: Debian's zxing-cpp 1.4.0 is built with assertions on, and one fires on some photos (an abort takes
// its process down); and a forked child of gymcard's threaded process may call only async-signal-safe
// functions, which zxing-cpp's C++ is not. So the reads run here, in a process started with exec: it
// says hello (gymcard_zxing_hello), then answers each request on standard input (gymcard_zxing_request and
// its samples) on standard output, until its input ends. Standard error is /dev/null (Scanner's doing):
// an assertion's message is not the user's business; the read is then one that found nothing.
#include "gymcard_zxing.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <sys/resource.h>
#include <unistd.h>

namespace {

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

}  // namespace

int main() {
    // Ctrl-C at the terminal is gymcard's to handle: the helper ends when gymcard closes its input (or
    // dies). An abort leaves no core file.
    signal(SIGINT, SIG_IGN);
    signal(SIGQUIT, SIG_IGN);
    struct rlimit noCore = {0, 0};
    setrlimit(RLIMIT_CORE, &noCore);

    gymcard_zxing_hello hello = {};
    hello.magic = GYMCARD_ZXING_MAGIC;
    hello.protocol = GYMCARD_ZXING_PROTOCOL;
    hello.requestSize = sizeof(gymcard_zxing_request);
    hello.resultSize = sizeof(gymcard_zxing_result);
    std::strncpy(hello.version, gymcard_zxing_version(), sizeof hello.version - 1);
    if (!writeAll(STDOUT_FILENO, &hello, sizeof hello)) return 1;

    std::vector<uint8_t> luma;
    std::vector<gymcard_zxing_result> results(GYMCARD_ZXING_MOST_RESULTS);
    gymcard_zxing_request request;
    while (readAll(STDIN_FILENO, &request, sizeof request)) {
        // A request larger than the largest image a read takes (65535 px a side) is no request of Scanner's.
        if (request.lumaCount > uint64_t(65535) * 65535 * 4) return 1;
        luma.resize(request.lumaCount);
        if (!readAll(STDIN_FILENO, luma.data(), luma.size())) return 1;
        int32_t capacity = request.capacity < 1 ? 0 : std::min(request.capacity, GYMCARD_ZXING_MOST_RESULTS);
        int32_t count = gymcard_zxing_read_here(
            luma.data(), luma.size(), request.width, request.height, request.rowStride, request.formats,
            request.tryHarder, capacity > 0 ? results.data() : nullptr, capacity);
        if (!writeAll(STDOUT_FILENO, &count, sizeof count)) return 1;
        if (count > 0 && !writeAll(STDOUT_FILENO, results.data(), sizeof(gymcard_zxing_result) * count)) return 1;
    }
    return 0;
}
