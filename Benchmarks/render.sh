#!/usr/bin/env bash
# Compares gymcard's rendering with zint and qrencode in one run (hyperfine, whole processes), prints the
# ratios against the goals of issue 2, the PNG sizes, and render --batch's peak memory at two sizes; then the
# other symbologies (issue 27) through show/render --symbology: PNG sizes against zint's for the same
# symbol over a table of values and scales (Benchmarks/png_sizes.py), 1000 Code 128 IDs against
# zint --batch, and that show of a Codabar card does not map libzint. Every file is written in a temporary
# directory (zint --batch --mirror names files after the data, in the current directory, whatever
# --output says, so it runs there). Exits 1 when a PNG is larger than zint's.
#   Benchmarks/render.sh            (installs hyperfine, zint and qrencode from Debian when missing)
set -euo pipefail
cd "$(dirname "$0")/.."
Benchmarks/install-tools hyperfine zint qrencode
scripts/install-system-packages
bin=$(scripts/build-release)
gymcard=$bin/gymcard
work=$(mktemp -d "${TMPDIR:-/tmp}/gymcard-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

python3 - "$work" <<'PY'
import random, sys
random.seed(1000)
for name, count in (("ids1000.txt", 1000), ("ids20000.txt", 20000)):
    with open(f"{sys.argv[1]}/{name}", "w") as f:
        for _ in range(count):
            f.write("".join(random.choice("0123456789") for _ in range(9)) + "\n")
# Code 128 member IDs as commercial gyms print them: letters and digits, 8 to 14 characters.
with open(f"{sys.argv[1]}/code128-1000.txt", "w") as f:
    for _ in range(1000):
        f.write("GYM" + "".join(random.choice("0123456789ABCDEFGHJKLMNPQRSTUVWXYZ") for _ in range(random.randint(5, 11))) + "\n")
PY
# zint wants the start/stop letters itself.
sed 's/.*/A&B/' "$work/ids1000.txt" > "$work/zint1000.txt"

# The ratio of the first command's time to the second's, by mean and by median (the median moves less when
# other work on the machine stalls a few runs), and the load average when it ended.
ratios() {
  python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results']
print(f\"{r[0]['mean']/r[1]['mean']:.2f}x by mean, {r[0]['median']/r[1]['median']:.2f}x by median\")" "$1"
}
load() { cut -d' ' -f1-3 /proc/loadavg; }

echo "== one barcode to PNG"
hyperfine -N --warmup 20 --runs 300 --export-json "$work/single.json" \
  "$gymcard show --id 905123456 --png $work/g.png" \
  "zint -b CODABAR -d A905123456B -o $work/z.png" >/dev/null
single="$(ratios "$work/single.json") (load $(load))"

echo "== 1000 IDs, batch"
mkdir -p "$work/gout" "$work/zout"
hyperfine --warmup 3 --runs 30 --export-json "$work/batch.json" \
  --prepare "rm -rf $work/gout $work/zout; mkdir -p $work/gout $work/zout" \
  "$gymcard render --batch $work/ids1000.txt --out $work/gout" \
  "cd $work/zout && zint -b CODABAR --batch --mirror -i $work/zint1000.txt" >/dev/null
batch="$(ratios "$work/batch.json") (load $(load))"

echo "== QR to PNG"
hyperfine -N --warmup 20 --runs 300 --export-json "$work/qr.json" \
  "$gymcard show --id 905123456 --qr $work/q.png" \
  "qrencode -o $work/qq.png A905123456B" >/dev/null
qr="$(ratios "$work/qr.json") (load $(load))"

"$gymcard" show --id 905123456 --png "$work/g.png"
"$gymcard" show --id 905123456 --png "$work/gt.png" --text
zint -b CODABAR -d A905123456B --notext -o "$work/z.png"
zint -b CODABAR -d A905123456B -o "$work/zt.png"
size() { python3 -c "import struct,sys,os; d=open(sys.argv[1],'rb').read(); w,h=struct.unpack('>II',d[16:24]); print(f'{w}x{h} {os.path.getsize(sys.argv[1])} bytes ({os.path.getsize(sys.argv[1])*1000/(w*h):.2f} bytes per 1000 px)')" "$1"; }

peak() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }
rm -rf "$work/gout"; mem1k=$(peak "$gymcard" render --batch "$work/ids1000.txt" --out "$work/gout")
rm -rf "$work/gout"; mem20k=$(peak "$gymcard" render --batch "$work/ids20000.txt" --out "$work/gout")

echo "== PNG sizes against zint for every symbology, a table of values, scales 1 to 3"
# The same pixels on both sides (checked), bars 50 modules tall, no text, quiet zones on both.
size_status=0
Benchmarks/png_sizes.py "$gymcard" "$work" > "$work/sizes.txt" || size_status=$?
cat "$work/sizes.txt"

echo "== 1000 Code 128 IDs, render --batch --symbology code128 against zint --batch"
hyperfine --warmup 3 --runs 30 --export-json "$work/code128.json" \
  --prepare "rm -rf $work/sout $work/zout; mkdir -p $work/sout $work/zout" \
  "$gymcard render --symbology code128 --batch $work/code128-1000.txt --out $work/sout" \
  "cd $work/zout && zint -b CODE128 --notext --quietzones --scale=1 --batch --mirror -i $work/code128-1000.txt" \
  >/dev/null
code128="$(ratios "$work/code128.json") (load $(load))"

echo "== libzint stays unmapped for Codabar"
# strace records every file the process opens; the dynamic loader opens each library it maps.
codabar_opens=$(strace -f -e trace=openat "$gymcard" show --id 905123456 --png "$work/c.png" 2>&1 | grep -c libzint || true)
code128_opens=$(strace -f -e trace=openat "$gymcard" show --id GYM0042A7 --symbology code128 --png "$work/c128.png" 2>&1 | grep -c 'libzint.*= [0-9]' || true)
linked=$(ldd "$gymcard" | grep -c zint || true)

cat <<REPORT

gymcard vs zint / qrencode (wall time ratio; lower is better for gymcard)
  show --png  / zint            : ${single}   (goal <= 4x)
  render --batch 1000 / zint    : ${batch}   (goal < 1x)
  show --qr   / qrencode        : ${qr}   (goal <= 4x)
PNG sizes
  gymcard          : $(size "$work/g.png")
  zint --notext    : $(size "$work/z.png")
  gymcard --text   : $(size "$work/gt.png")
  zint (text)      : $(size "$work/zt.png")
render --batch peak RSS: 1000 IDs ${mem1k} KiB, 20000 IDs ${mem20k} KiB (flat means about equal)
Other symbologies (show and render --symbology)
  PNG sizes (goal: no larger than zint's; table above):
$(tail -n 3 "$work/sizes.txt" | grep -v '^$' | sed 's/^/    /')
  1000 Code 128 IDs / zint --batch : ${code128}   (goal <= 1x)
  libzint: linked into gymcard ${linked} times; opened by show of a Codabar card ${codabar_opens} times,
           by a Code 128 render ${code128_opens} times (goal: 0, 0, 1)
REPORT
exit "$size_status"
