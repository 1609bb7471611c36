#!/usr/bin/env bash
# Issue 24's memory goal for `history export`: a year of 5-minute readings for 3 facilities (about
# 315,000 rows) exported as JSON and as CSV, in flat memory (goal: peak RSS under 30 MB; before the
# export was streamed it built the whole text: 209 MB for JSON, 70 MB for CSV). Prints the peak
# resident memory (/usr/bin/time's %M, the kernel's ru_maxrss) and the time (hyperfine) of each.
#   Benchmarks/history-export.sh                 this tree's release build
#   Benchmarks/history-export.sh BASE_COMMIT     the same for BASE_COMMIT too, side by side (a release
#                                                build of it in a temporary folder: minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
Benchmarks/install-tools hyperfine time
scripts/install-system-packages
work=$(mktemp -d "${TMPDIR:-/tmp}/gymcard-export.XXXXXX")
trap 'rm -rf "$work"' EXIT
bin=$(scripts/build-release)
declare -A builds=([after]="$bin/gymcard")
if [ $# -ge 1 ]; then
  mkdir "$work/base"
  git archive "$1" | tar -x -C "$work/base"
  builds[before]="$("$work/base/scripts/build-release" --product gymcard)/gymcard"
fi
export XDG_STATE_HOME="$work/state" XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache"
export GYMCARD_TEST_NOW="2026-11-20T15:00:00Z"
db="$work/state/gymcard/history.sqlite3"
"$bin/generate-history" write "$db" "$GYMCARD_TEST_NOW" 365
rows=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from readings').fetchone()[0])" "$db")

echo "history: $rows readings, one year of 3 facilities"
for build in before after; do
  gymcard=${builds[$build]:-}
  [ -n "$gymcard" ] || continue
  for format in json csv; do
    /usr/bin/time -f "%M" -o "$work/rss" "$gymcard" history export --$format >"$work/out" 2>/dev/null
    rss=$(( $(cat "$work/rss") / 1024 ))
    size=$(( $(stat -c %s "$work/out") / 1000000 ))
    hyperfine -N --warmup 1 --runs 5 --export-json "$work/time.json" \
      --output=pipe "$gymcard history export --$format" >/dev/null 2>&1
    time=$(python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results'][0]; print(f\"{r['mean']*1000:.0f}\")" "$work/time.json")
    printf '  %-6s export --%-4s: peak %4d MB, %5d ms, %d MB written   (goal: peak < 30 MB)\n' \
      "$build" "$format" "$rss" "$time" "$size"
  done
done
