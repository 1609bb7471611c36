"""Damaged copies of every symbology's photos (DAMAGED_COPIES=N Benchmarks/symbologies.sh): each JPEG of
WORK/<symbology>/ copied COPIES times per seed with 1-6 bytes of its entropy-coded data changed (damaged.py's
damage: the lower part of the picture shifted sideways or smeared), read by `gymcard scan --json`. Prints per
symbology the copies, how many gymcard read right and how many it printed as another ID (goal: 0), and each
such misread with its seed and copy, to look at again.

    symbologies_damaged.py WORK GYMCARD COPIES SEED[,SEED...]
"""
import csv, os, random, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from damaged import damaged, gymcard_reads  # noqa: E402  (the damage and the reading of damaged.sh)
from symbologies_report import same  # noqa: E402  (UPC-A and UPC-E as the readers write them)

work, gymcard, copies = sys.argv[1], sys.argv[2], int(sys.argv[3])
seeds = [int(seed) for seed in sys.argv[4].split(",")]
scratch = tempfile.mkdtemp(prefix="gymcard-symbologies-damaged.")
print(f"{copies} damaged copies per photo and seed, seeds {sys.argv[4]}")
print(f"{'symbology':12}{'copies':>8}{'right':>8}{'wrong':>8}")
misreads, total = [], [0, 0, 0]
for symbology in sorted(os.listdir(work)):
    manifest = os.path.join(work, symbology, "manifest.tsv")
    if not os.path.exists(manifest):
        continue
    counts = [0, 0, 0]
    for entry in csv.DictReader(open(manifest), delimiter="\t"):
        path, expected = os.path.join(work, symbology, entry["file"]), entry["expected"]
        data = open(path, "rb").read()
        for seed in seeds:
            generator = random.Random(f"{seed}:{symbology}:{entry['file']}")
            files = []
            for index in range(copies):
                name = os.path.join(scratch, f"{seed}-{index}-{entry['file']}")
                with open(name, "wb") as file:
                    file.write(damaged(data, generator))
                files.append(name)
            found = gymcard_reads(gymcard, files)
            for name in files:
                counts[0] += 1
                got = found.get(name)
                if got is None:
                    continue
                if same(symbology, expected, got):
                    counts[1] += 1
                else:
                    counts[2] += 1
                    misreads.append(f"{symbology} {os.path.basename(name)} (seed {seed}) read {got!r}")
            for name in files:
                os.remove(name)
    print(f"{symbology:12}{counts[0]:>8}{counts[1]:>8}{counts[2]:>8}")
    total = [a + b for a, b in zip(total, counts)]
print(f"{'all':12}{total[0]:>8}{total[1]:>8}{total[2]:>8}")
for line in misreads:
    print("  misread: " + line)
print(f"gymcard misreads: {total[2]} (goal 0)")
os.rmdir(scratch)
