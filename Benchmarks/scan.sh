#!/usr/bin/env bash
# Accuracy and speed of gymcard scan against zbarimg (Debian's zbar-tools) and zxing-cpp (PyPI, in a
# virtual environment under Benchmarks/.venv), over the seeded card-photo corpus (19 categories, seven of
# them photograph-like: defocus, motion, small-jpeg, thin-bars, tilt-clutter, label, tiny-scan;
# PER_CATEGORY photos each, 12 MP phone frames included; generated here, never committed). Then, per
# decoding engine, over that corpus and the real photos in ../shared/realworld/codabar-photos (when present):
# what gymcard reads with libzbar alone, what zxing-cpp adds and what it costs. Last, that start-up does not
# pay for the second engine (Benchmarks/engine_startup.sh: ldd, the libraries a scan loads, hyperfine).
# gymcard reads with libzbar alone when gymcard-zxing is not beside it (nor in ../lib/gymcard): the
# per-engine runs use a copy of the binary in a folder of its own; there is no option or variable for it.
# Why a read was refused: GYMCARD_SCAN_TRACE=1 in gymcard scan's environment prints a line per read on
# standard error (stage, engine, zbar's quality, whether the footprint guard found the whole symbol and
# its rows: on the symbol, agreeing, competing), with the text read, and a line per stage with its time
# (`trace-stage`); never set it where logs are kept.
#   Benchmarks/scan.sh [PER_CATEGORY] [SEED]        (defaults: 20, 2026)
set -euo pipefail
cd "$(dirname "$0")/.."
per_category=${1:-20}
seed=${2:-2026}
command -v zbarimg >/dev/null || scripts/install-system-packages
scripts/install-system-packages
if [ ! -x Benchmarks/.venv/bin/python ]; then
  python3 -m venv Benchmarks/.venv
fi
Benchmarks/.venv/bin/pip install -q zxing-cpp pillow
bin=$(scripts/build-release)
swift build -c release --product generate-corpus >/dev/null
corpus=$(mktemp -d "${TMPDIR:-/tmp}/gymcard-corpus.XXXXXX")
trap 'rm -rf "$corpus"' EXIT
"$(swift build -c release --show-bin-path)/generate-corpus" "$corpus" "$per_category" "$seed"
Benchmarks/.venv/bin/python Benchmarks/scan_report.py "$corpus" "$bin/gymcard" "$PWD/Benchmarks/.venv/bin/python"
# Per engine: a copy of gymcard without gymcard-zxing beside it reads with libzbar alone.
mkdir "$corpus/zbar-only"
cp "$bin/gymcard" "$corpus/zbar-only/gymcard"
echo
python3 Benchmarks/engine_report.py "generated corpus" "$corpus/manifest.tsv" "$corpus" "$bin/gymcard" \
  "$corpus/zbar-only/gymcard"
real=../shared/realworld/codabar-photos
if [ -f "$real/manifest.tsv" ]; then
  python3 Benchmarks/engine_report.py "real photos" "$real/manifest.tsv" "$real" "$bin/gymcard" \
    "$corpus/zbar-only/gymcard"
else
  echo "real photos: skipped, $real is not beside the package"
fi
echo
tiny=""
[ -f "$real/zxing-codabar-1/14.png" ] && tiny="$real/zxing-codabar-1/14.png"
Benchmarks/engine_startup.sh "$bin/gymcard" "$corpus/zbar-only/gymcard" $tiny
