#!/usr/bin/env bash
# Issue 14's bounds for images inside the documented limits: time (against --budget) and peak memory of
# gymcard scan on a blank 14000x14000 PNG and a noisy 20000x10000 PNG, and the noisy one as a scanner's
# PGM and LZW TIFF and a browser's WebP (16000x8000, WebP's limit being 16383; all written here, never
# committed), with zbarimg on the same files for comparison. Goal: at most twice --budget and 300 MB.
#   Benchmarks/scan-limits.sh [BUDGET]        (default 0.5)
set -euo pipefail
cd "$(dirname "$0")/.."
budget=${1:-0.5}
scripts/install-system-packages
Benchmarks/install-tools hyperfine time
swift build -c release --product gymcard >/dev/null
bin="$(swift build -c release --show-bin-path)/gymcard"
work=$(mktemp -d "${TMPDIR:-/tmp}/gymcard-limits.XXXXXX")
trap 'rm -rf "$work"' EXIT
python3 Tests/Fixtures/large-images/write.py "$work" --pgm
mv "$work/blank.png" "$work/blank-14000x14000.png"
for kind in png pgm; do mv "$work/noisy.$kind" "$work/noisy-20000x10000.$kind"; done
pnmtotiff -lzw "$work/noisy-20000x10000.pgm" >"$work/noisy-20000x10000.tif" 2>/dev/null
cwebp -quiet -q 50 -resize 16000 8000 "$work/noisy-20000x10000.png" -o "$work/noisy-16000x8000.webp"
echo "(zbarimg reads through ImageMagick, whose default limits refuse images this large: its times are refusals.)"
for image in "$work"/*.png "$work"/*.pgm "$work"/*.tif "$work"/*.webp; do
  name=$(basename "$image")
  echo "== $name ($(du -h "$image" | cut -f1))"
  hyperfine -N -i -w 1 -r 5 --export-json "$work/t.json" \
    "$bin scan --budget $budget $image" "zbarimg -q $image" >/dev/null 2>&1
  python3 - "$work/t.json" "$budget" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
budget = float(sys.argv[2])
gymcard, zbar = results[0]["mean"], results[1]["mean"]
print(f"   gymcard {gymcard:.2f} s = {gymcard / budget:.2f}x --budget {budget} (goal <= 2x); zbarimg {zbar:.2f} s")
PY
  peak=$( (/usr/bin/time -f %M "$bin" scan --budget "$budget" "$image" 2>&1 >/dev/null || true) | tail -1)
  zpeak=$( (/usr/bin/time -f %M zbarimg -q "$image" 2>&1 >/dev/null || true) | tail -1)
  echo "   peak RSS: gymcard $((peak / 1024)) MB (goal <= 300), zbarimg $((zpeak / 1024)) MB"
done
