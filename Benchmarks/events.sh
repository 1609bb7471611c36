#!/usr/bin/env bash
# Times `gymcard events` on a real Engage capture (116 events, 210 KB) served from 127.0.0.1, against
# the same download by curl: fetch + parse + cache + print (`--refresh`) costs this much more than the
# download alone. Then times `gymcard events` answered from the fresh cache (a new process each run;
# the light binary, no Foundation, no network) and `--json` from the cache. The issue sets no speed
# goal; these are the numbers to keep an eye on.
#   Benchmarks/events.sh [FEED.xml]      (installs hyperfine and curl from Debian when missing)
set -euo pipefail
cd "$(dirname "$0")/.."
feed=${1:-../shared/realworld/engage-rss/hub_2024_10_17_15.xml}
[ -f "$feed" ] || { echo "no feed at $feed; give an Engage RSS file" >&2; exit 66; }
Benchmarks/install-tools hyperfine curl
scripts/install-system-packages
bin=$(scripts/build-release)
work=$(mktemp -d "${TMPDIR:-/tmp}/gymcard-bench.XXXXXX")
cp "$feed" "$work/events.rss"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$work" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
url="http://127.0.0.1:$port/events.rss"
for _ in $(seq 50); do curl -s -o /dev/null "$url" && break; sleep 0.1; done
# The capture's own week, so that its events are upcoming.
export XDG_CACHE_HOME="$work/cache" XDG_CONFIG_HOME="$work/config" GYMCARD_EVENTS_URL="$url"
export GYMCARD_TEST_NOW=$(grep -o '<lastBuildDate>[^<]*' "$work/events.rss" | head -1 | cut -d'>' -f2 |
  python3 -c 'import sys, email.utils; print(email.utils.parsedate_to_datetime(sys.stdin.read().strip()).strftime("%Y-%m-%dT%H:%M:%SZ"))')

mean() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['results'][int(sys.argv[2])]['mean'])" "$@"; }

echo "== fetch, parse, cache and print, against the download alone"
hyperfine -N --warmup 2 --runs 20 --export-json "$work/fetch.json" \
  "$bin/gymcard events --refresh --days 30" "curl -s -o /dev/null $url"
fetch=$(mean "$work/fetch.json" 0); download=$(mean "$work/fetch.json" 1)

echo "== from the fresh cache, a new process each run"
"$bin/gymcard" events >/dev/null
hyperfine -N --warmup 5 --runs 100 --export-json "$work/cached.json" \
  "$bin/gymcard events --days 30" "$bin/gymcard events --days 30 --json"
cached=$(mean "$work/cached.json" 0); json=$(mean "$work/cached.json" 1)

python3 - "$fetch" "$download" "$cached" "$json" <<'PY'
import sys
fetch, download, cached, json = map(float, sys.argv[1:5])
print()
print(f"events --refresh   {fetch*1000:7.1f} ms   download alone (curl) {download*1000:6.1f} ms   ratio {fetch/download:.1f}")
print(f"events (cached)    {cached*1000:7.2f} ms")
print(f"events --json      {json*1000:7.2f} ms   (cached)")
PY
