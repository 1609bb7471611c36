"""Reads every photo under WORK/<symbology>/ with gymcard, zbarimg and zxing-cpp and prints, per symbology,
right / wrong / median milliseconds per photo for each (Benchmarks/symbologies.sh).
    python symbologies_report.py WORK GYMCARD"""
import csv, json, os, statistics, subprocess, sys, time

import PIL.Image
import zxingcpp

# zbarimg's names for the symbologies libzbar reads (it reads no Data Matrix, Aztec or PDF417 here).
ZBAR = {"codabar": "codabar", "code39": "code39", "code93": "code93", "code128": "code128", "itf": "i25",
        "ean13": "ean13", "ean8": "ean8", "upca": "upca", "upce": "upce", "qr": "qrcode"}


def same(symbology, expected, text):
    """Whether a reader's text is the card's: zxing-cpp and libzbar write UPC-A as EAN-13 with a leading 0,
    and UPC-E expanded, where they do; those are the same card."""
    if text == expected:
        return True
    if symbology == "upca" and text == "0" + expected:
        return True
    if symbology == "upce" and len(text) in (12, 13):
        digits = expected
        body, last = digits[1:7], digits[6]
        expansions = {"0": body[:2] + "00000" + body[2:5], "1": body[:2] + "10000" + body[2:5],
                      "2": body[:2] + "20000" + body[2:5], "3": body[:3] + "00000" + body[3:5],
                      "4": body[:4] + "00000" + body[4], }
        middle = expansions.get(last, body[:5] + "0000" + last)
        upca = digits[0] + middle + digits[7]
        return text in (upca, "0" + upca)
    return False


def timed(run):
    start = time.perf_counter()
    value = run()
    return value, (time.perf_counter() - start) * 1000


def main():
    work, gymcard = sys.argv[1], sys.argv[2]
    rows = []
    for symbology in sorted(os.listdir(work)):
        manifest = os.path.join(work, symbology, "manifest.tsv")
        if not os.path.exists(manifest):
            continue
        entries = list(csv.DictReader(open(manifest), delimiter="\t"))
        tally = {reader: [0, 0, []] for reader in ("gymcard", "zbarimg", "zxing-cpp")}
        for entry in entries:
            path, expected = os.path.join(work, symbology, entry["file"]), entry["expected"]

            def gymcard_read():
                out = subprocess.run([gymcard, "scan", "--json", path], capture_output=True, text=True).stdout
                lines = [json.loads(line) for line in out.splitlines() if line.strip()]
                return [(line.get("symbology"), line.get("id")) for line in lines if "id" in line][:1]

            def zbar_read():
                if symbology not in ZBAR:
                    return None
                out = subprocess.run(["zbarimg", "-q", "--raw", "-Sdisable", f"-S{ZBAR[symbology]}.enable", path],
                                     capture_output=True, text=True, errors="replace").stdout
                return [(symbology, line) for line in out.splitlines()[:1]]

            def zxing_read():
                return [(symbology, r.text) for r in zxingcpp.read_barcodes(PIL.Image.open(path))][:1]

            for reader, run in (("gymcard", gymcard_read), ("zbarimg", zbar_read), ("zxing-cpp", zxing_read)):
                reads, ms = timed(run)
                if reads is None:
                    tally[reader] = None
                    continue
                tally[reader][2].append(ms)
                if reads:
                    kind, text = reads[0]
                    good = same(symbology, expected, text) and (reader != "gymcard" or kind == symbology)
                    tally[reader][0 if good else 1] += 1
        rows.append((symbology, len(entries), tally))

    print(f"{'symbology':<11} {'photos':>6}  " + "  ".join(f"{r:>22}" for r in ("gymcard", "zbarimg", "zxing-cpp 3.x")))
    print(f"{'':<11} {'':>6}  " + "  ".join(f"{'right wrong  ms':>22}" for _ in range(3)))
    totals = {r: [0, 0] for r in ("gymcard", "zbarimg", "zxing-cpp")}
    for symbology, count, tally in rows:
        cells = []
        for reader in ("gymcard", "zbarimg", "zxing-cpp"):
            t = tally[reader]
            if t is None:
                cells.append(f"{'-':>22}")
                continue
            totals[reader][0] += t[0]
            totals[reader][1] += t[1]
            cells.append(f"{t[0]:>10} {t[1]:>5} {statistics.median(t[2]):>5.0f}")
        print(f"{symbology:<11} {count:>6}  " + "  ".join(cells))
    print(f"{'all':<11} {sum(c for _, c, _ in rows):>6}  " + "  ".join(
        f"{totals[r][0]:>10} {totals[r][1]:>5} {'':>5}" for r in ("gymcard", "zbarimg", "zxing-cpp")))


if __name__ == "__main__":
    main()
