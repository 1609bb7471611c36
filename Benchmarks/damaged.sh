#!/usr/bin/env bash
# Damaged photos: copies of each sample photo, of the real phone photo in ../shared/realworld (when
# present) and, with CORPUS_PER_CATEGORY > 0, of that many seeded corpus JPEGs per category, with 1-6
# bytes of their compressed data changed, as a bad SD card, a cut download or a broken transfer leaves
# them (the lower part of the picture shifted sideways), read by gymcard scan, zbarimg and zxing-cpp
# (PyPI, in Benchmarks/.venv). Prints reads and misreads per photo and reader, and each misread. Goal:
# gymcard misreads none. SPLITMIX=1 makes the copies as Tests/ScannerTests/DamagedPhotoTests.swift does.
# Why a read was refused: GYMCARD_SCAN_TRACE=1 in gymcard scan's environment prints a line per read on
# standard error (stage, engine, zbar's quality, whether the footprint guard found the whole symbol and
# its rows: on the symbol, agreeing, competing), with the text read, and a line per stage with its time
# (`trace-stage`); never set it where logs are kept.
#   Benchmarks/damaged.sh [COPIES] [SEEDS] [CORPUS_PER_CATEGORY]      (defaults: 100, 1,2,3,4, 0)
set -euo pipefail
cd "$(dirname "$0")/.."
copies=${1:-100}
seeds=${2:-1,2,3,4}
per_category=${3:-0}
scripts/install-system-packages
[ -x Benchmarks/.venv/bin/python ] || python3 -m venv Benchmarks/.venv
Benchmarks/.venv/bin/pip install -q zxing-cpp pillow
bin=$(scripts/build-release --product gymcard)
work=$(mktemp -d "${TMPDIR:-/tmp}/gymcard-damaged.XXXXXX")
trap 'rm -rf "$work"' EXIT
photos=(samples/card-rotated.jpg=C12-345:678/90D samples/card-webcam.jpg=A905123456B)
# A real phone photo (../shared/realworld/codabar-photos, when present beside the package).
real=../shared/realworld/codabar-photos/other-scenes/library-label-phone.jpg
[ -f "$real" ] && photos+=("$real=A31383096022010A")
if [ "$per_category" -gt 0 ]; then
  swift build -c release --product generate-corpus >/dev/null
  "$(swift build -c release --show-bin-path)/generate-corpus" "$work/corpus" "$per_category" 2026 >/dev/null
  while IFS=$'\t' read -r file _ expected _; do
    case "$file" in *.jpg) [ "$expected" != - ] && photos+=("$work/corpus/$file=$expected") ;; esac
  done < <(tail -n +2 "$work/corpus/manifest.tsv")
fi
Benchmarks/.venv/bin/python Benchmarks/damaged.py "$bin/gymcard" "$copies" "$seeds" "${photos[@]}"
