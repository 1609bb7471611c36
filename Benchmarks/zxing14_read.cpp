// Benchmarks/second-engine.sh: reads Codabar/QR from JPEG/PNG files with Debian's zxing-cpp 1.4.0 (libzxing-dev),
// the engine issue 14 proposed as a second decoder; prints file<TAB>text<TAB>ms per file.
#define ZX_USE_UTF8 1
#include <ZXing/ReadBarcode.h>
#include <turbojpeg.h>
#include <png.h>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <vector>
static bool load(const char* path, std::vector<unsigned char>& px, int& w, int& h) {
    std::ifstream f(path, std::ios::binary);
    std::vector<unsigned char> data((std::istreambuf_iterator<char>(f)), {});
    if (data.size() > 3 && data[0] == 0xFF && data[1] == 0xD8) {
        tjhandle t = tjInitDecompress(); int sub, cs;
        if (tjDecompressHeader3(t, data.data(), data.size(), &w, &h, &sub, &cs)) return false;
        px.resize((size_t)w * h);
        bool ok = tjDecompress2(t, data.data(), data.size(), px.data(), w, 0, h, TJPF_GRAY, 0) == 0;
        tjDestroy(t); return ok;
    }
    png_image img; memset(&img, 0, sizeof img); img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&img, data.data(), data.size())) return false;
    img.format = PNG_FORMAT_GRAY; w = img.width; h = img.height; px.resize(PNG_IMAGE_SIZE(img));
    return png_image_finish_read(&img, nullptr, px.data(), 0, nullptr) != 0;
}
int main(int argc, char** argv) {
    for (int i = 1; i < argc; i++) {
        std::vector<unsigned char> px; int w = 0, h = 0;
        auto start = std::chrono::steady_clock::now();
        std::string text;
        if (load(argv[i], px, w, h)) {
            ZXing::DecodeHints hints;
            hints.setFormats(ZXing::BarcodeFormat::Codabar | ZXing::BarcodeFormat::QRCode);
            hints.setReturnCodabarStartEnd(true);
            hints.setTryHarder(true); hints.setTryRotate(true);
            auto r = ZXing::ReadBarcode({px.data(), w, h, ZXing::ImageFormat::Lum}, hints);
            if (r.isValid()) text = r.text();
        }
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        printf("%s\t%s\t%.1f\n", argv[i], text.c_str(), ms);
    }
}
