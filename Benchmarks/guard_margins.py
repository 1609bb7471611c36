"""How far torn reads stay from the footprint guard's thresholds: damaged copies of each photo (as
Benchmarks/damaged.py makes them), each read by `gymcard scan` with GYMCARD_SCAN_TRACE=1, and every read of a
wrong text measured against the guard's rules (Sources/Scanner/SymbolFootprint.swift, `Measurement.isWhole`):
the torn reads with the largest share of rows agreeing, in the photo as it is (gentle stages) and in
stretched, sharpened or finer cuts (aggressive ones), with the rows competing (holding about as many
elements or more), and the element counts of the rows that neither agree nor compete.

    guard_margins.py GYMCARD COPIES SEED[,SEED...] PHOTO=EXPECTED...

Run under Benchmarks/.venv's python through Benchmarks/guard-margins.sh. The trace prints the text read:
the copies and traces live in a temporary folder, removed at the end.
"""
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import damaged  # noqa: E402  (the copies are made exactly as damaged.py makes them)

FIELD = re.compile(r'(\w+)=("[^"]*"|\[[^\]]*\]|\S+)')


def traced_reads(gymcard, path):
    """Every Codabar read the cascade judged in one photo, with the footprint's counts."""
    run = subprocess.run([gymcard, "scan", path], capture_output=True, text=True,
                         env=dict(os.environ, GYMCARD_SCAN_TRACE="1"))
    reads = []
    for line in run.stderr.splitlines():
        if not line.startswith("trace stage=") or " rows=" not in line:
            continue
        fields = {key: value.strip('"') for key, value in FIELD.findall(line)}
        reads.append(fields)
    return reads


def main():
    gymcard, copies, seeds = sys.argv[1], int(sys.argv[2]), [int(s) for s in sys.argv[3].split(",")]
    photos = [argument.split("=", 1) for argument in sys.argv[4:]]
    work = tempfile.mkdtemp(prefix="gymcard-margins.")
    jobs = []
    try:
        for path, expected in photos:
            data = open(path, "rb").read()
            for seed in seeds:
                generator = random.Random(f"{seed}:{os.path.basename(path)}")
                for index in range(copies):
                    name = os.path.join(work, f"{seed}-{index}-{os.path.basename(path)}")
                    with open(name, "wb") as file:
                        file.write(damaged.damaged(data, generator))
                    jobs.append((name, expected))
        with ThreadPoolExecutor(2) as pool:
            results = list(pool.map(lambda job: (job, traced_reads(gymcard, job[0])), jobs))
    finally:
        shutil.rmtree(work)
    torn = []
    for (name, expected), reads in results:
        for read in reads:
            if read["text"] == expected or int(read["rows"]) == 0:
                continue
            torn.append(dict(
                file=os.path.basename(name), stage=read["stage"], gentle=read["aggressive"] == "false",
                rows=int(read["rows"]), agreeing=int(read["agreeing"]), competing=int(read["competing"]),
                by_characters=int(read["byCharacters"]), pieces=int(read["pieces"]),
                whole=read["whole"] == "true"))
    print(f"{len(jobs)} damaged copies ({copies} per photo and seed, seeds {sys.argv[3]}); "
          f"{len(torn)} reads of a wrong text, {sum(r['whole'] for r in torn)} of them judged whole")

    def show(title, reads):
        print(title)
        for r in reads[:5]:
            print(f"  {r['agreeing']:3} of {r['rows']:3} rows agreeing ({r['agreeing'] / r['rows']:4.0%}), "
                  f"{r['competing']:3} competing  {r['file']} {r['stage']}, "
                  f"pattern {r['pattern']} elements, other rows {r['others']}")

    share = lambda r: (r["agreeing"] / r["rows"], r["agreeing"])
    show("torn reads in the photo as it is, most rows agreeing first:",
         sorted((r for r in torn if r["gentle"]), key=share, reverse=True))
    show("torn reads in stretched, sharpened or finer cuts, most rows agreeing first:",
         sorted((r for r in torn if not r["gentle"]), key=share, reverse=True))

main()
