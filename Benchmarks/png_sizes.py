#!/usr/bin/env python3
"""PNG sizes of gymcard's drawings against zint's for the same symbol at the same scale (issue 27).

For every symbology and a table of values (short, long, edge characters: the values of
Tests/SymbolsTests/SymbologyRoundTripTests.swift, and Codabar's), at gymcard scales 1, 2 and 3 (zint's
--scale 0.5, 1 and 1.5: zint draws 2 px a module at scale 1), bars 50 modules tall, no text, quiet zones
on both: draws the symbol with `gymcard show --symbology` and with `zint`, checks that both have the
same pixels (ImageMagick's `compare -metric AE`; a size comparison of different pictures says nothing;
zint's --guarddescent=0 keeps EAN/UPC guard bars as long as the others, as gymcard draws them without
text; Codabar is shown but not compared: zint draws its wide elements 2 modules wide, gymcard 3),
and prints each size, the difference and the ratio, then the worst case over the table.
  Benchmarks/png_sizes.py GYMCARD WORKDIR     (run by Benchmarks/render.sh)
Exits 1 when a drawing differs from zint's or gymcard's PNG is larger.
"""
import os
import subprocess
import sys

PRINTABLE = "".join(map(chr, range(0x20, 0x7F)))

# (gymcard name, zint name, [values as gymcard takes them, values as zint takes them]). gymcard trims the
# spaces around a typed ID, so zint is given the value trimmed too.
TABLE = [
    ("codabar", "CODABAR", [("A905123456B",) * 2, ("A1B",) * 2, ("C0123456789-$:/.+D",) * 2,
                            ("A" + "9" * 40 + "B",) * 2]),
    ("code39", "CODE39", [(v, v) for v in ["A", "GYM-0042", "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ -.$/+%",
                                          "Z9" * 30]]),
    ("code93", "CODE93", [(v, v) for v in ["a", "Gym 42!", PRINTABLE[:47], PRINTABLE[47:]]]),
    ("code128", "CODE128", [(v, v) for v in ["1", "1234567890", "Gym#42~ {x}", "AB12cd34\\", PRINTABLE[:60]]]),
    ("itf", "C25INTER", [(v, v) for v in ["12", "00012345678905", "123456789012345678901234567890"]]),
    ("ean8", "EANX_CHK", [(v, v) for v in ["96385074", "00000000", "99999995"]]),
    ("ean13", "EANX_CHK", [(v, v) for v in ["5901234123457", "4006381333931", "9999999999994", "1000000000009"]]),
    ("upca", "UPCA_CHK", [(v, v) for v in ["036000291452", "000000000000", "999999999993"]]),
    ("upce", "UPCE_CHK", [(v, v) for v in ["01234565", "16543214", "00000000", "09999992"]]),
    ("qr", "QRCODE", [(v, v) for v in ["1", "https://gym.example/m?id=42&x=1", "GYM0042-" * 40]]),
    ("pdf417", "PDF417", [(v, v) for v in ["1", "Gym member 0042", "Gym 0042 " * 30]]),
    ("datamatrix", "DATAMATRIX", [(v, v) for v in ["1", "Gym member 0042", "Gym 0042 " * 30]]),
    ("aztec", "AZTEC", [(v, v) for v in ["1", "Gym member 0042", "Gym 0042 " * 30]]),
]
# zint draws Codabar's wide elements 2 modules wide, gymcard 3 (its own encoder, the ratio the cards it
# reads are printed with): not the same picture, so its sizes are shown but left out of the verdict.
OTHER_RATIO = {"codabar"}
LINEAR = {"codabar", "code39", "code93", "code128", "itf", "ean8", "ean13", "upca", "upce"}
SCALES = [1, 2, 3]


def differing_pixels(first, second):
    # compare prints the count on stderr and exits 1 when the images differ, 2 on trouble.
    result = subprocess.run(["compare", "-metric", "AE", first, second, "null:"], capture_output=True, text=True)
    if result.returncode == 2:
        return f"compare failed: {result.stderr.strip()}"
    return int(float(result.stderr.split()[0]))


def main():
    gymcard, work = sys.argv[1], sys.argv[2]
    rows = []
    failures = 0
    print(f"{'symbology':<10} {'value':<14} {'scale':>5} {'size':>11} {'gymcard':>8} {'zint':>8} {'diff':>5} {'ratio':>6}")
    for name, zint_name, values in TABLE:
        for ours_value, zint_value in values:
            for scale in SCALES:
                ours = os.path.join(work, "size-ours.png")
                theirs = os.path.join(work, "size-zint.png")
                subprocess.run([gymcard, "show", "--id", ours_value, "--symbology", name, "--scale", str(scale),
                                "--png", ours], check=True)
                subprocess.run(["zint", "-b", zint_name, "--notext", "--quietzones", "--guarddescent=0", f"--scale={scale / 2}",
                                f"--data={zint_value.strip()}", "-o", theirs], check=True)
                differing = None if name in OTHER_RATIO else differing_pixels(ours, theirs)
                with open(ours, "rb") as f:
                    header = f.read(24)
                width, height = int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24], "big")
                ours_size, theirs_size = os.path.getsize(ours), os.path.getsize(theirs)
                label = ours_value if len(ours_value) <= 12 else ours_value[:9] + f"…{len(ours_value)}"
                note = ""
                if name in OTHER_RATIO:
                    note = "  (3:1, zint 2:1: not compared)"
                elif differing != 0:
                    note = f"  DIFFERENT PICTURE ({differing} px)"
                    failures += 1
                elif ours_size > theirs_size:
                    note = "  LARGER"
                    failures += 1
                print(f"{name:<10} {label:<14} {scale:>5} {width:>5}x{height:<5} {ours_size:>8} {theirs_size:>8} "
                      f"{ours_size - theirs_size:>5} {ours_size / theirs_size:>6.3f}{note}")
                if differing == 0 and name not in OTHER_RATIO:
                    rows.append((name, label, scale, ours_size, theirs_size))

    def summary(title, selected):
        if not selected:
            return
        worst_diff = max(selected, key=lambda r: r[3] - r[4])
        worst_ratio = max(selected, key=lambda r: r[3] / r[4])
        best_ratio = min(selected, key=lambda r: r[3] / r[4])
        total_ours, total_theirs = sum(r[3] for r in selected), sum(r[4] for r in selected)
        print(f"{title}: {len(selected)} drawings; worst gymcard - zint {worst_diff[3] - worst_diff[4]:+d} bytes "
              f"({worst_diff[0]} {worst_diff[1]} scale {worst_diff[2]}); worst ratio {worst_ratio[3] / worst_ratio[4]:.3f} "
              f"({worst_ratio[0]} {worst_ratio[1]} scale {worst_ratio[2]}); best ratio {best_ratio[3] / best_ratio[4]:.3f}; "
              f"total {total_ours} / {total_theirs} = {total_ours / total_theirs:.3f}")

    print()
    summary("1D symbologies (Codabar aside)", [r for r in rows if r[0] in LINEAR])
    summary("2D symbologies", [r for r in rows if r[0] not in LINEAR])
    if failures:
        print(f"{failures} drawings differ from zint's or are larger")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
