"""Damaged photos: copies of each JPEG with 1-6 bytes of its entropy-coded data changed (what a bad SD card,
a cut download or a broken transfer does: the decoder loses step and the lower part of the picture comes out
shifted sideways or smeared), read by gymcard scan, zbarimg and zxing-cpp. Prints reads and misreads per
photo and reader, and every misread; a misread is a wrong ID printed with exit status 0.

    damaged.py GYMCARD COPIES SEED[,SEED...] PHOTO=EXPECTED...

Run under Benchmarks/.venv's python (zxing-cpp and Pillow) through Benchmarks/damaged.sh; without zxingcpp
its column is left out. The copies are written to a temporary folder and removed. With SPLITMIX=1 in the
environment the copies are made as Tests/ScannerTests/DamagedPhotoTests.swift makes them (SplitMix64 from
the seed alone), so that a seed found here can be tested there.
"""
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

try:
    import PIL.Image
    import PIL.ImageFile
    import zxingcpp

    PIL.ImageFile.LOAD_TRUNCATED_IMAGES = True
except ImportError:
    zxingcpp = None


def scan_data_start(data):
    """The offset of the first byte after the first start-of-scan header (the entropy-coded data)."""
    index = 2
    while index + 4 <= len(data):
        if data[index] != 0xFF:
            raise ValueError("not a JPEG marker at %d" % index)
        marker = data[index + 1]
        length = data[index + 2] << 8 | data[index + 3]
        if marker == 0xDA:
            return index + 2 + length
        index += 2 + length
    raise ValueError("no start of scan")


def damaged(data, generator):
    """A copy with 1-6 bytes past the headers (and before the end-of-image marker) set to other values."""
    copy = bytearray(data)
    start = scan_data_start(data)
    for _ in range(generator.randint(1, 6)):
        offset = generator.randrange(start, len(data) - 2)
        copy[offset] = (copy[offset] + generator.randint(1, 255)) % 256
    return bytes(copy)


class SplitMix:
    """SplitMix64, as Tests/TestSupport/SeededGenerator.swift."""

    def __init__(self, seed):
        self.state = seed & (2**64 - 1)

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & (2**64 - 1)
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & (2**64 - 1)
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & (2**64 - 1)
        return z ^ (z >> 31)


def damaged_splitmix(data, generator):
    """The test's copy: the number of bytes, then each byte's offset and the amount added to it."""
    copy = bytearray(data)
    start = scan_data_start(data)
    for _ in range(1 + generator.next() % 6):
        offset = start + generator.next() % (len(data) - 2 - start)
        copy[offset] = (copy[offset] + 1 + generator.next() % 255) % 256
    return bytes(copy)


def normalized(text):
    """gymcard prints the normalized ID; the peers print the symbol's text. Compare as gymcard would."""
    text = text.strip().upper()
    if not text:
        return ""
    if text[0] not in "ABCD":
        text = "A" + text
    if text[-1] not in "ABCD":
        text = text + "B"
    return text


def gymcard_reads(gymcard, files):
    """File -> ID printed (exit 0) by one `gymcard scan --json` over all the files."""
    run = subprocess.run([gymcard, "scan", "--json", *files], capture_output=True, text=True)
    found = {}
    for line in run.stdout.splitlines():
        record = json.loads(line)
        if "id" in record:
            found[record["file"]] = record["id"]
    return found


def zbarimg_read(path):
    run = subprocess.run(
        ["zbarimg", "-q", "--raw", "-Sdisable", "-Scodabar.enable", "-Sqrcode.enable", path],
        capture_output=True, text=True)
    return normalized(run.stdout.split("\n")[0]) if run.returncode == 0 else ""


def zxing_read(path):
    try:
        results = zxingcpp.read_barcodes(
            PIL.Image.open(path), formats=(zxingcpp.BarcodeFormat.Codabar, zxingcpp.BarcodeFormat.QRCode))
    except Exception:  # A copy Pillow cannot decode at all: nothing read.
        return ""
    return normalized(results[0].text) if results else ""


def main():
    gymcard, copies, seeds = sys.argv[1], int(sys.argv[2]), [int(s) for s in sys.argv[3].split(",")]
    photos = [argument.split("=", 1) for argument in sys.argv[4:]]
    readers = ["gymcard", "zbarimg"] + (["zxing-cpp"] if zxingcpp else [])
    work = tempfile.mkdtemp(prefix="gymcard-damaged.")
    keep = os.environ.get("KEEP_MISREADS")  # A folder to copy each misread file to, for study.
    totals = {reader: [0, 0] for reader in readers}
    misreads = []
    print(f"{copies} damaged copies per photo and seed, seeds {sys.argv[3]}; reads / misreads")
    print(f"{'photo':28}" + "".join(f"{reader:>18}" for reader in readers))
    try:
        for path, expected in photos:
            data = open(path, "rb").read()
            counts = {reader: [0, 0] for reader in readers}
            for seed in seeds:
                splitmix = os.environ.get("SPLITMIX") == "1"
                generator = SplitMix(seed) if splitmix else random.Random(f"{seed}:{os.path.basename(path)}")
                files = []
                for index in range(copies):
                    name = os.path.join(work, f"{seed}-{index}-{os.path.basename(path)}")
                    with open(name, "wb") as file:
                        file.write((damaged_splitmix if splitmix else damaged)(data, generator))
                    files.append(name)
                found = {"gymcard": gymcard_reads(gymcard, files)}
                found["zbarimg"] = {name: zbarimg_read(name) for name in files}
                if zxingcpp:
                    found["zxing-cpp"] = {name: zxing_read(name) for name in files}
                for reader in readers:
                    for name in files:
                        got = found[reader].get(name, "")
                        if not got:
                            continue
                        counts[reader][0 if got == expected else 1] += 1
                        if got != expected:
                            misreads.append(f"{reader}: {os.path.basename(name)} read {got}")
                            if keep:
                                shutil.copy(name, keep)
                for name in files:
                    os.remove(name)
            total = copies * len(seeds)
            print(f"{os.path.basename(path):28}"
                  + "".join(f"{f'{counts[r][0]}/{total} {counts[r][1]}':>18}" for r in readers))
            for reader in readers:
                totals[reader][0] += counts[reader][0]
                totals[reader][1] += counts[reader][1]
        print(f"{'all':28}" + "".join(f"{f'{totals[r][0]} {totals[r][1]}':>18}" for r in readers))
        for line in misreads:
            print("  misread by " + line)
        print(f"gymcard misreads: {totals['gymcard'][1]} (goal 0)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
