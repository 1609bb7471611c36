#!/usr/bin/env bash
# Would Debian's zxing-cpp 1.4.0 (libzxing-dev) earn its place as a second decoder behind gymcard's cascade?
# Over the seeded corpus: what it reads alone, what it misreads, and what it reads that gymcard misses
# (the only reads a second engine would add); plus the library's size.
#   Benchmarks/second-engine.sh [PER_CATEGORY] [SEED]        (defaults: 20, 2026)
set -euo pipefail
cd "$(dirname "$0")/.."
per_category=${1:-20}
seed=${2:-2026}
scripts/install-system-packages
dpkg-query -W -f='${Status}' libzxing-dev 2>/dev/null | grep -q "install ok installed" || {
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends libzxing-dev >/dev/null
}
work=$(mktemp -d "${TMPDIR:-/tmp}/gymcard-engine.XXXXXX")
trap 'rm -rf "$work"' EXIT
g++ -O2 -std=c++17 Benchmarks/zxing14_read.cpp -o "$work/zxing14-read" \
  $(pkg-config --cflags --libs zxing libturbojpeg libpng)
bin=$(scripts/build-release)
swift build -c release --product generate-corpus >/dev/null
"$(swift build -c release --show-bin-path)/generate-corpus" "$work/corpus" "$per_category" "$seed" >/dev/null
files=$(tail -n +2 "$work/corpus/manifest.tsv" | cut -f1)
(cd "$work/corpus" && "$work/zxing14-read" $files) > "$work/zxing.tsv"
for file in $files; do
  printf '%s\t%s\n' "$file" "$("$bin/gymcard" scan "$work/corpus/$file" 2>/dev/null | head -1)"
done > "$work/gymcard.tsv"
library=$(readlink -f "$(pkg-config --variable=libdir zxing)/libZXing.so")
python3 - "$work" "$library" <<'PY'
import csv, os, sys
work, library = sys.argv[1], sys.argv[2]
rows = list(csv.DictReader(open(work + "/corpus/manifest.tsv"), delimiter="\t"))
def load(name):
    return {line.split("\t")[0]: (line.rstrip("\n").split("\t") + [""])[1] for line in open(f"{work}/{name}.tsv")}
zxing, gymcard = load("zxing"), load("gymcard")
barcodes = [r for r in rows if r["expected"] != "-"]
def outcome(got, expected):
    if expected == "-": return "false positive" if got else "none"
    return "read" if got == expected else ("missed" if not got else "misread")
zx = [outcome(zxing[r["file"]], r["expected"]) for r in rows]
gy = {r["file"]: outcome(gymcard[r["file"]], r["expected"]) for r in rows}
added = [r["file"] for r in barcodes if gy[r["file"]] != "read" and zxing[r["file"]] == r["expected"]]
print(f"zxing-cpp 1.4.0 alone: reads {zx.count('read')} of {len(barcodes)}, misreads {zx.count('misread')}, "
      f"false positives {zx.count('false positive')}")
print(f"gymcard: reads {sum(1 for r in barcodes if gy[r['file']] == 'read')} of {len(barcodes)}")
print(f"read by zxing-cpp 1.4.0 and missed by gymcard (what a second engine adds): {len(added)}"
      + (": " + ", ".join(added) if added else ""))
print(f"{os.path.basename(library)}: {os.path.getsize(library) / 1e6:.1f} MB (plus a C++ shim: 1.4.0 has no C API)")
PY
