#!/usr/bin/env bash
# Fuzzes the JPEG and PNG loaders with libFuzzer and AddressSanitizer.
#   Fuzz/run.sh [RUNS]          (default 1000000 executions; not part of CI)
# Crashes are written to .build-fuzz/crashes/; the corpus grows in .build-fuzz/corpus/.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-1000000}
scripts/install-system-packages
mkdir -p .build-fuzz/corpus .build-fuzz/crashes
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name FuzzImaging \
  -I Sources/CPNG -I Sources/CTurboJPEG \
  Sources/Imaging/*.swift Fuzz/ImageLoaderFuzzer.swift -o .build-fuzz/fuzz-image-loader
# Seeds: small valid PNGs (1-bit palette, 8-bit grey) and JPEGs (grey, colour, progressive).
if [ -z "$(ls -A .build-fuzz/corpus)" ]; then
  python3 - .build-fuzz/corpus <<'PY'
import struct, sys, zlib
def png(w, h, depth, color, rows):
    def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    raw = b"".join(b"\0" + r for r in rows)
    extra = chunk(b"PLTE", b"\0\0\0\xff\xff\xff") if color == 3 else b""
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, color, 0, 0, 0)) + extra + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
open(sys.argv[1] + "/palette.png", "wb").write(png(16, 4, 1, 3, [b"\xaa\x55"] * 4))
open(sys.argv[1] + "/grey.png", "wb").write(png(8, 8, 8, 0, [bytes(range(0, 256, 32))] * 8))
open(sys.argv[1] + "/rgba.png", "wb").write(png(4, 4, 8, 6, [b"\x10\x20\x30\x80" * 4] * 4))
PY
  if command -v convert >/dev/null; then
    convert -size 32x24 gradient: -quality 80 .build-fuzz/corpus/grey.jpg
    convert -size 32x24 plasma:fractal -quality 70 .build-fuzz/corpus/colour.jpg 2>/dev/null || true
    convert -size 40x30 gradient: -interlace Plane -quality 75 .build-fuzz/corpus/progressive.jpg
  fi
fi
.build-fuzz/fuzz-image-loader .build-fuzz/corpus -runs="$runs" -timeout=10 -rss_limit_mb=3072 \
  -artifact_prefix=.build-fuzz/crashes/ -print_final_stats=1
