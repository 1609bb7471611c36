#!/usr/bin/env bash
# Issue 17: which way to read a campus by default. Times `gymcard occupancy --campus` read by page (one GET
# of the full page for every facility) and read by fragments (one POST per facility, all at once) against
# a local Fusion campus whose every answer comes after DELAY seconds, with CARDS facilities (UCSC lists 15),
# beside one curl GET of the page; then counts the requests and bytes one refresh costs each way.
#   Benchmarks/campus.sh [DELAY_SECONDS] [CARDS]      (installs hyperfine and curl from Debian when missing)
set -euo pipefail
cd "$(dirname "$0")/.."
delay=${1:-0.2}; cards=${2:-15}
Benchmarks/install-tools hyperfine curl
scripts/install-system-packages
gymcard=$(scripts/build-release)/gymcard
work=$(mktemp -d "${TMPDIR:-/tmp}/gymcard-bench.XXXXXX")
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 Benchmarks/campus_server.py "$port" "$delay" "$cards" &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
base="http://127.0.0.1:$port"
for _ in $(seq 50); do curl -s -o /dev/null "$base/stats" && break; sleep 0.1; done
export XDG_STATE_HOME="$work/state" XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache"
"$gymcard" campus add "$base" --name bypage --time-zone UTC >/dev/null 2>&1
"$gymcard" campus add "$base" --name byfragments --time-zone UTC --read fragments \
  --display-type 00000000-0000-0000-0000-000000004488 >/dev/null 2>&1
curl -s -o /dev/null "$base/stats"

mean() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['results'][int(sys.argv[2])]['mean'])" "$@"; }

echo "== $cards facilities, every answer after ${delay} s"
hyperfine -N --warmup 2 --runs 15 --export-json "$work/read.json" \
  "$gymcard occupancy --campus bypage --json" \
  "$gymcard occupancy --campus byfragments --json" \
  "curl -s -o /dev/null $base/FacilityOccupancy"
page=$(mean "$work/read.json" 0); fragments=$(mean "$work/read.json" 1); single=$(mean "$work/read.json" 2)

curl -s -o /dev/null "$base/stats"
"$gymcard" occupancy --campus bypage --json >/dev/null
page_cost=$(curl -s "$base/stats")
"$gymcard" occupancy --campus byfragments --json >/dev/null
fragment_cost=$(curl -s "$base/stats")

python3 - "$page" "$fragments" "$single" "$page_cost" "$fragment_cost" <<'PY'
import sys
page, fragments, single = map(float, sys.argv[1:4])
(pr, pb), (fr, fb) = (map(int, sys.argv[4].split()), map(int, sys.argv[5].split()))
print()
print(f"read by page        {page*1000:7.1f} ms   {pr:3d} request(s) {pb/1024:7.1f} KB   vs one curl GET {page/single:.2f}x")
print(f"read by fragments   {fragments*1000:7.1f} ms   {fr:3d} request(s) {fb/1024:7.1f} KB   vs one curl GET {fragments/single:.2f}x")
print(f"fragments / page    time {fragments/page:.2f}x   requests {fr/max(pr,1):.0f}x   bytes {fb/max(pb,1):.2f}x")
PY
