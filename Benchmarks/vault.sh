#!/usr/bin/env bash
# Unlock time and peak memory of the stored card at the default work factor (2^18), release build,
# next to Debian's age 1.1.1 decrypting the same file.
#   Benchmarks/vault.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-system-packages
Benchmarks/install-tools hyperfine
gymcard=$(scripts/build-release)/gymcard
work=$(mktemp -d "${TMPDIR:-/tmp}/gymcard-vault.XXXXXX")
trap 'rm -rf "$work"' EXIT
export XDG_DATA_HOME="$work/data"
printf 'benchmark words\n' > "$work/pass"
echo 905123456 | "$gymcard" set --passphrase-file "$work/pass" >/dev/null
hyperfine -N --warmup 1 --runs 10 \
  "$gymcard show --passphrase-file $work/pass --png /dev/null" \
  "$gymcard show --id 905123456 --png /dev/null"
peak=$(/usr/bin/time -f %M "$gymcard" show --passphrase-file "$work/pass" --png /dev/null 2>&1 >/dev/null | tail -1)
echo "peak RSS while unlocking: $((peak / 1024)) MiB (scrypt N=2^18, r=8 needs 256 MiB)"
