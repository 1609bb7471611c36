#!/usr/bin/env bash
# Never a wrong ID on damaged copies, for every symbology (issue 39): the photos Benchmarks/symbologies.sh
# reads (generate-corpus --symbol, PER_CATEGORY per recipe from SEED), each copied COPIES times per damage
# seed with 1-6 bytes of its JPEG data changed (Benchmarks/damaged.py's damage), read by gymcard scan.
# Prints per symbology the copies, the right reads and the wrong IDs printed (goal 0).
#   Benchmarks/symbologies-damaged.sh [PER_CATEGORY] [SEED] [COPIES] [DAMAGE_SEEDS] [SYMBOLOGY,...]
#   (defaults: 1, 39, 3, 1, all 13)
set -euo pipefail
cd "$(dirname "$0")/.."
per=${1:-1}
seed=${2:-39}
copies=${3:-3}
damage_seeds=${4:-1}
only=${5:-}
scripts/install-system-packages
if [ ! -x .venv-test/bin/python ]; then python3 -m venv .venv-test; fi
.venv-test/bin/pip install -q --disable-pip-version-check zxing-cpp pillow
bin=$(scripts/build-release)
swift build -c release --product generate-corpus >/dev/null
generate="$(swift build -c release --show-bin-path)/generate-corpus"
work=$(mktemp -d "${TMPDIR:-/tmp}/gymcard-symbologies-damaged.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The cards of Benchmarks/symbologies.sh.
sed -n '/^cards="/,/"$/p' Benchmarks/symbologies.sh | tr -d '"' | sed 's/^cards=//' |
  while read -r symbology text; do
    if [ -n "$only" ] && ! echo ",$only," | grep -q ",$symbology,"; then continue; fi
    "$generate" --symbol "$symbology" "$text" "$work/$symbology" "$per" "$seed" >/dev/null
  done
.venv-test/bin/python Benchmarks/symbologies_damaged.py "$work" "$bin/gymcard" "$copies" "$damage_seeds"
