"""Per decoding engine: what gymcard scan reads with libzbar alone, what zxing-cpp (the second engine) adds,
and what it costs. Runs two builds of the same gymcard over a set of photos, one whole process per photo:
one with gymcard-zxing beside it, one without (so libzbar alone).

    engine_report.py NAME MANIFEST FOLDER GYMCARD GYMCARD_ZBAR_ONLY

MANIFEST is the generated corpus's manifest.tsv (file, category, expected; "-" when there is no barcode)
or the real-photo folder's (path, expected, kind, source; empty when there is no Codabar)."""
import csv
import json
import statistics
import subprocess
import sys
import time

name, manifest, folder, gymcard, zbar_only = sys.argv[1:6]
rows = []
for row in csv.reader((line for line in open(manifest) if not line.startswith("#")), delimiter="\t"):
    if row[0] == "file":
        continue  # the generated corpus's header
    generated = len(row) == 4 and row[3] in ("true", "false")
    file, expected = row[0], (row[2] if generated else row[1])
    rows.append((file, "" if expected == "-" else expected))


def findings(binary, path, *flags):
    result = subprocess.run([binary, "scan", "--json", *flags, path], capture_output=True, text=True)
    return [json.loads(line) for line in result.stdout.split("\n") if '"id"' in line]


def scan(binary, path):
    """The Codabar read (what the manifests name), its stage and the time of a plain scan. Since gymcard
    reads every card symbology, a plain scan of a sheet of several may stop at another symbol read right
    (an EAN, a UPC) when its Codabar needs more than the cascade's gentle first stages: such photos are
    scanned again with --all, which lists every symbol, Codabar first."""
    start = time.perf_counter()
    found = findings(binary, path)
    elapsed = (time.perf_counter() - start) * 1000
    if found and found[0].get("symbology") != "codabar":
        found = findings(binary, path, "--all")
    codabar = [f for f in found if f.get("symbology") == "codabar"]
    if not codabar:
        return "", "", elapsed
    return codabar[0].get("id") or "", codabar[0].get("stage") or "", elapsed


def outcome(got, expected):
    if not expected:
        return "false positive" if got else "none"
    return "read" if got == expected else ("missed" if not got else "misread")


both, alone = {}, {}
for file, expected in rows:
    path = folder + "/" + file
    alone[file] = scan(zbar_only, path)
    both[file] = scan(gymcard, path)
with_barcode = [file for file, expected in rows if expected]
expected_of = dict(rows)
count = lambda results, kind: sum(1 for f, _ in rows if outcome(results[f][0], expected_of[f]) == kind)
added = [f for f in with_barcode if outcome(alone[f][0], expected_of[f]) != "read"
         and outcome(both[f][0], expected_of[f]) == "read"]
lost = [f for f in with_barcode if outcome(alone[f][0], expected_of[f]) == "read"
        and outcome(both[f][0], expected_of[f]) != "read"]
by_zxing = [f for f in rows if both[f[0]][1].startswith("zxing")]
unread = [f for f in with_barcode + [f for f, e in rows if not e] if outcome(alone[f][0], expected_of[f]) != "read"]
extra = [both[f][2] - alone[f][2] for f in unread]
print(f"{name}: {len(rows)} photos, {len(with_barcode)} with a Codabar")
print(f"  libzbar alone:     reads {count(alone, 'read'):4}, misreads {count(alone, 'misread')}, "
      f"false positives {count(alone, 'false positive')}, median {statistics.median(v[2] for v in alone.values()):.0f} ms")
print(f"  libzbar + zxing:   reads {count(both, 'read'):4}, misreads {count(both, 'misread')}, "
      f"false positives {count(both, 'false positive')}, median {statistics.median(v[2] for v in both.values()):.0f} ms")
print(f"  zxing-cpp adds {len(added)}" + (": " + ", ".join(added) if added else "")
      + (f"; loses {len(lost)}: " + ", ".join(lost) if lost else ""))
print(f"  findings whose first stage is zxing-cpp's: {len(by_zxing)}")
if extra:
    print(f"  cost on the {len(extra)} photos libzbar does not read (where zxing-cpp runs): median "
          f"{statistics.median(extra):+.0f} ms, max {max(extra):+.0f} ms per photo")
for f, e in rows:
    kind = outcome(both[f][0], e)
    if kind in ("misread", "false positive"):
        print(f"  {kind} with zxing-cpp: {f} expected {e or 'nothing'} got {both[f][0]} ({both[f][1]})", file=sys.stderr)
