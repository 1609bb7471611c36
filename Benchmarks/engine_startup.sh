#!/usr/bin/env bash
# Does the light gymcard binary pay for the second decoding engine (zxing-cpp) at start-up? Status bars run
# gymcard every few seconds, so zxing-cpp's helper must start only for a photo libzbar cannot read.
#   Benchmarks/engine_startup.sh GYMCARD GYMCARD_ZBAR_ONLY [PHOTO_LIBZBAR_DOES_NOT_READ]
# GYMCARD has gymcard-zxing beside it (scripts/build-release puts it there); GYMCARD_ZBAR_ONLY is a
# copy of the same binary in a folder without it, which is how gymcard reads with libzbar alone (the
# helper is looked for only beside the executable and in ../lib/gymcard; there is no option or variable).
# Prints whether the binary links libZXing (ldd), which of the second engine's libraries a scan loads
# (LD_DEBUG=files) for a photo libzbar reads and for one it does not, and hyperfine's times for
# `--version`, `show --png` and `occupancy --cached` (empty XDG folders) with and without the helper beside.
set -euo pipefail
cd "$(dirname "$0")/.."
gymcard=$1
zbar_only=$2
unread=${3:-}
Benchmarks/install-tools hyperfine
work=$(mktemp -d "${TMPDIR:-/tmp}/gymcard-startup.XXXXXX")
trap 'rm -rf "$work"' EXIT
export HOME="$work" XDG_CONFIG_HOME="$work/config" XDG_STATE_HOME="$work/state" XDG_CACHE_HOME="$work/cache" \
  XDG_DATA_HOME="$work/data"

# The second engine's libraries a command really loads (the loader initialises each library it loads):
# libZXing (gymcard-zxing loads it in its own process: gymcard itself never should). (libstdc++ is no
# sign: the statically linked Swift runtime needs it already.)
loaded() {
  local found
  found=$(LD_DEBUG=files "$@" 2>&1 >/dev/null | grep -oE 'calling init: [^ ]*ZXing[^ ]*' |
    sed 's/^calling init: //' | xargs -r -n1 basename | sort -u | tr '\n' ' ' || true)
  echo "${found:-nothing of zxing-cpp}"
}
echo "== the second engine at start-up"
linked=$(ldd "$gymcard" | grep -i zxing || true)
echo "  ldd gymcard:                          ${linked:-no libZXing}"
echo "  --version loads                       $(loaded "$gymcard" --version)"
echo "  show --png loads                      $(loaded "$gymcard" show --png "$work/card.png" --id 123456789)"
echo "  occupancy --cached loads              $(loaded "$gymcard" occupancy --cached)"
echo "  scan samples/card-webcam.jpg loads    $(loaded "$gymcard" scan samples/card-webcam.jpg) (libzbar reads it)"
if [ -n "$unread" ]; then
  echo "  scan $(basename "$unread") loads          $(loaded "$gymcard" scan "$unread") (libzbar alone does not read it)"
fi

echo "== start-up times, with the helper beside the binary and without (libzbar alone)"
# occupancy --cached exits 69 with nothing stored yet (the empty XDG folders): what is timed is a status
# bar's start, not a reading.
hyperfine -N -i --warmup 5 --runs 100 --export-markdown "$work/startup.md" \
  -n "version" "$gymcard --version" \
  -n "version, libzbar alone" "$zbar_only --version" \
  -n "show --png" "$gymcard show --png $work/card.png --id 123456789" \
  -n "show --png, libzbar alone" "$zbar_only show --png $work/card.png --id 123456789" \
  -n "occupancy --cached" "$gymcard occupancy --cached" \
  -n "occupancy --cached, libzbar alone" "$zbar_only occupancy --cached" >/dev/null
cat "$work/startup.md"
