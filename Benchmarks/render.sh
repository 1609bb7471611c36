#!/usr/bin/env bash
# Compares gymcard's rendering with zint and qrencode in one run (hyperfine, whole processes), prints the
# ratios against the goals of issue 2, the PNG sizes, and render --batch's peak memory at two sizes.
#   Benchmarks/render.sh            (installs hyperfine, zint and qrencode from Debian when missing)
set -euo pipefail
cd "$(dirname "$0")/.."
Benchmarks/install-tools hyperfine zint qrencode
scripts/install-system-packages
gymcard=$(scripts/build-release)/gymcard
work=$(mktemp -d "${TMPDIR:-/tmp}/gymcard-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

python3 - "$work" <<'PY'
import random, sys
random.seed(1000)
for name, count in (("ids1000.txt", 1000), ("ids20000.txt", 20000)):
    with open(f"{sys.argv[1]}/{name}", "w") as f:
        for _ in range(count):
            f.write("".join(random.choice("0123456789") for _ in range(9)) + "\n")
PY
# zint wants the start/stop letters itself.
sed 's/.*/A&B/' "$work/ids1000.txt" > "$work/zint1000.txt"

mean() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['results'][int(sys.argv[2])]['mean'])" "$@"; }
ratio() { python3 -c "import sys; print(f'{float(sys.argv[1])/float(sys.argv[2]):.2f}')" "$1" "$2"; }

echo "== one barcode to PNG"
hyperfine -N --warmup 10 --runs 100 --export-json "$work/single.json" \
  "$gymcard show --id 905123456 --png $work/g.png" \
  "zint -b CODABAR -d A905123456B -o $work/z.png" >/dev/null
single=$(ratio "$(mean "$work/single.json" 0)" "$(mean "$work/single.json" 1)")

echo "== 1000 IDs, batch"
mkdir -p "$work/gout" "$work/zout"
hyperfine --warmup 2 --runs 10 --export-json "$work/batch.json" \
  --prepare "rm -rf $work/gout $work/zout; mkdir -p $work/gout $work/zout" \
  "$gymcard render --batch $work/ids1000.txt --out $work/gout" \
  "zint -b CODABAR --batch --mirror -i $work/zint1000.txt --output=$work/zout/x.png" >/dev/null
batch=$(ratio "$(mean "$work/batch.json" 0)" "$(mean "$work/batch.json" 1)")

echo "== QR to PNG"
hyperfine -N --warmup 10 --runs 100 --export-json "$work/qr.json" \
  "$gymcard show --id 905123456 --qr $work/q.png" \
  "qrencode -o $work/qq.png A905123456B" >/dev/null
qr=$(ratio "$(mean "$work/qr.json" 0)" "$(mean "$work/qr.json" 1)")

"$gymcard" show --id 905123456 --png "$work/g.png"
"$gymcard" show --id 905123456 --png "$work/gt.png" --text
zint -b CODABAR -d A905123456B --notext -o "$work/z.png"
zint -b CODABAR -d A905123456B -o "$work/zt.png"
size() { python3 -c "import struct,sys,os; d=open(sys.argv[1],'rb').read(); w,h=struct.unpack('>II',d[16:24]); print(f'{w}x{h} {os.path.getsize(sys.argv[1])} bytes ({os.path.getsize(sys.argv[1])*1000/(w*h):.2f} bytes per 1000 px)')" "$1"; }

peak() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }
rm -rf "$work/gout"; mem1k=$(peak "$gymcard" render --batch "$work/ids1000.txt" --out "$work/gout")
rm -rf "$work/gout"; mem20k=$(peak "$gymcard" render --batch "$work/ids20000.txt" --out "$work/gout")

cat <<REPORT

gymcard vs zint / qrencode (mean wall time ratio; lower is better for gymcard)
  show --png  / zint            : ${single}x   (goal <= 4x)
  render --batch 1000 / zint    : ${batch}x   (goal < 1x)
  show --qr   / qrencode        : ${qr}x   (goal <= 4x)
PNG sizes
  gymcard          : $(size "$work/g.png")
  zint --notext    : $(size "$work/z.png")
  gymcard --text   : $(size "$work/gt.png")
  zint (text)      : $(size "$work/zt.png")
render --batch peak RSS: 1000 IDs ${mem1k} KiB, 20000 IDs ${mem20k} KiB (flat means about equal)
REPORT
