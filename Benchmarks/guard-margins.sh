#!/usr/bin/env bash
# How far torn reads of damaged photos stay from the footprint guard's thresholds (the numbers in
# Sources/Scanner/SymbolFootprint.swift's `Measurement.isWhole`): damaged copies as Benchmarks/damaged.sh makes
# them, every read of a wrong text traced. About 10 minutes for the defaults.
#   Benchmarks/guard-margins.sh [COPIES] [SEEDS]      (defaults: 100, 1,2,3,4,5,6,7,8)
set -euo pipefail
cd "$(dirname "$0")/.."
copies=${1:-100}
seeds=${2:-1,2,3,4,5,6,7,8}
scripts/install-system-packages
[ -x Benchmarks/.venv/bin/python ] || python3 -m venv Benchmarks/.venv
Benchmarks/.venv/bin/pip install -q zxing-cpp pillow
bin=$(scripts/build-release --product gymcard)
photos=(samples/card-rotated.jpg=C12-345:678/90D samples/card-webcam.jpg=A905123456B)
real=../shared/realworld/codabar-photos/other-scenes/library-label-phone.jpg
[ -f "$real" ] && photos+=("$real=A31383096022010A")
Benchmarks/.venv/bin/python Benchmarks/guard_margins.py "$bin/gymcard" "$copies" "$seeds" "${photos[@]}"
