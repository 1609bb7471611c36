#!/usr/bin/env bash
# Every card, every reader, over a larger and random part of the space than the suite's fixed seed: the
# generated cards of CardSpace (Tests/TestSupport/CardSpace.swift) drawn as PNG and SVG and read back by
# gymcard scan, zxing-cpp 3.x (PyPI) and zbarimg (Tests/CardRoundTripTests/FileRoundTripTests.swift), and a
# sample through Catima's export and share link. Prints the seed, so that a failing one can be run again.
#   Benchmarks/roundtrip.sh [PER_SYMBOLOGY] [SEED] [SYMBOLOGY,...]   (defaults: 400, random, all 13)
set -euo pipefail
cd "$(dirname "$0")/.."
per=${1:-400}
seed=${2:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
only=${3:-}
scripts/install-system-packages
if [ ! -x .venv-test/bin/python ]; then python3 -m venv .venv-test; fi
.venv-test/bin/pip install -q --disable-pip-version-check zxing-cpp pillow
export GYMCARD_TEST_PYTHON="$PWD/.venv-test/bin/python" GYMCARD_OPTIMIZE_IMAGES=1
export GYMCARD_ROUNDTRIP_SEED=$seed GYMCARD_ROUNDTRIP_PER_SYMBOLOGY=$per
[ -n "$only" ] && export GYMCARD_ROUNDTRIP_ONLY=$only
echo "==> seed $seed, $per cards per symbology${only:+ ($only)}: $((per * 2 * ${only:+$(echo "$only" | tr , '\n' | wc -l)}${only:-13})) files"
swift build --build-tests >/dev/null
start=$(date +%s)
status=0
swift test --skip-build --filter 'FileRoundTripTests|CatimaRoundTripTests' >"${TMPDIR:-/tmp}/roundtrip-$seed.log" 2>&1 || status=$?
echo "==> $(( $(date +%s) - start )) s; every issue (one line each), full log in ${TMPDIR:-/tmp}/roundtrip-$seed.log"
grep -E '^↳ (gymcard scan|zxing-cpp|zbarimg|refused|export|link)' "${TMPDIR:-/tmp}/roundtrip-$seed.log" || true
grep -E 'Test run with' "${TMPDIR:-/tmp}/roundtrip-$seed.log" | tail -1
exit $status
