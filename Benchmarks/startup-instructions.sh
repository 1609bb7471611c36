#!/usr/bin/env bash
# Start-up cost in instructions (callgrind), gymcard against another build of itself: `--version`,
# `show --png` and `occupancy --cached`, each binary stripped of debug information as ARCHITECTURE §15
# measures. Instruction counts do not depend on the machine's load, so one run of each is enough.
#   Benchmarks/startup-instructions.sh BEFORE_GYMCARD AFTER_GYMCARD
# e.g. git worktree add /tmp/base <commit> && (cd /tmp/base && scripts/build-release --product gymcard)
#      Benchmarks/startup-instructions.sh /tmp/base/.build/release/gymcard .build/release/gymcard
set -euo pipefail
before=$1 after=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
strip -o "$work/before" "$before"
strip -o "$work/after" "$after"
export HOME=$work/home XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data XDG_STATE_HOME=$work/state \
  XDG_CACHE_HOME=$work/cache LC_ALL=C.UTF-8 TZ=America/New_York
mkdir -p "$HOME"
cd "$work"
# occupancy --cached needs a state file: the sample values of --demo are not stored, so one is written here
# in the state file's format (Occupancy's OccupancyState), dated now.
mkdir -p "$XDG_STATE_HOME/gymcard"
now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
cat >"$XDG_STATE_HOME/gymcard/occupancy.json" <<JSON
{"version":1,"facilities":{
 "war-memorial":{"id":"55069633-b56e-43b7-a68a-64d79364988d","occupancy":41,"remaining":79,"capacity":120,"observedAt":"$now"},
 "mccomas":{"id":"232d714e-5b3e-4b0d-9936-e6a738150ec4","occupancy":12,"remaining":88,"capacity":100,"observedAt":"$now"},
 "bouldering-wall":{"id":"da838218-ae53-4c6f-b744-2213299033fc","occupancy":3,"remaining":5,"capacity":8,"observedAt":"$now"}}}
JSON
count() {
  valgrind --tool=callgrind --callgrind-out-file="$work/out" "$@" >/dev/null 2>"$work/log" || true
  grep -o 'Collected : [0-9]*' "$work/log" | grep -o '[0-9]*$'
}
printf '%-22s %14s %14s %8s\n' command before after ratio
for command in "--version" "show --id 905123456 --png card.png" "occupancy --cached"; do
  # shellcheck disable=SC2086
  b=$(count "$work/before" $command)
  # shellcheck disable=SC2086
  a=$(count "$work/after" $command)
  printf '%-22s %14s %14s %8s\n' "${command/--id 905123456 /}" "$b" "$a" \
    "$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", a / b }')"
done
