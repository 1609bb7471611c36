"""Writes the large images that gymcard's size limits are tried on, into the folder given:
blank.png (14000x14000, white) and noisy.png (20000x10000, light grey noise), and with --pgm also
noisy.pgm (the same noise as a PGM). Used by ScanCommandTests and Benchmarks/scan-limits.sh."""
import random, struct, sys, zlib


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(path, width, height, row):
    packer = zlib.compressobj(1)
    parts = [packer.compress(row(y)) for y in range(height)] + [packer.flush()]
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", b"".join(parts)) + chunk(b"IEND", b""))


folder = sys.argv[1]
blank = b"\x00" + b"\xff" * 14000
png(folder + "/blank.png", 14000, 14000, lambda y: blank)
rows = [b"\x00" + bytes(200 + (b & 15) for b in random.Random(k).randbytes(20000)) for k in range(16)]
png(folder + "/noisy.png", 20000, 10000, lambda y: rows[y % 16])
if "--pgm" in sys.argv[2:]:
    with open(folder + "/noisy.pgm", "wb") as f:
        f.write(b"P5\n20000 10000\n255\n")
        for y in range(10000):
            f.write(rows[y % 16][1:])
