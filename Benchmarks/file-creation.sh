#!/usr/bin/env bash
# Why render --batch writes each file with O_TMPFILE + linkat: times 1000 small files created by two
# threads in a fresh directory, each way a batch could be written, 15 rounds interleaved, on the file
# system of $TMPDIR (or the directory given). Prints the median and best wall time of each way.
#   Benchmarks/file-creation.sh [DIR]
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d "${1:-${TMPDIR:-/tmp}}/gymcard-files.XXXXXX")
trap 'rm -rf "$work"' EXIT
cc -O2 -pthread FileCreation/file_creation.c -o "$work/file_creation"
python3 - "$work" <<'PY'
import os, shutil, statistics, subprocess, sys
work = sys.argv[1]
ways = ["O_TMPFILE + linkat (gymcard)", "unlink + O_CREAT (the old staging directory)",
        "temporary name + rename", "O_CREAT alone (not atomic)"]
times = {way: [] for way in range(len(ways))}
for _ in range(15):
    for way in times:
        target = os.path.join(work, "files")
        shutil.rmtree(target, ignore_errors=True)
        os.mkdir(target)
        os.sync()
        out = subprocess.check_output([os.path.join(work, "file_creation"), str(way), target])
        times[way].append(float(out))
for way, name in enumerate(ways):
    print(f"{name:46s} median {statistics.median(times[way]):7.1f} ms   best {min(times[way]):7.1f} ms")
PY
