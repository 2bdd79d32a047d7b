#!/usr/bin/env python3
"""A kernel's stall reasons, largest first, from `ncu -i REPORT --page raw --csv` on stdin.

Prints the warp-state samples of each stall reason (smsp__pcsamp_warps_issue_stalled_*),
so that the reason a kernel's warps wait (barrier, long scoreboard, ...) reads at a glance.
"""
import csv
import sys


def main():
    rows = list(csv.reader(sys.stdin))
    head = next((i for i, r in enumerate(rows) if "Kernel Name" in r), None)
    if head is None or len(rows) < head + 3:
        sys.exit("not an ncu raw page")
    names, values = rows[head], rows[head + 2]
    found = []
    for k, v in zip(names, values):
        try:
            x = float(v.replace(",", ""))
        except ValueError:
            continue
        # the sampled stall reasons (one unit: samples), not the per-issue ratios
        if k.startswith("smsp__pcsamp_warps_issue_stalled_") and x > 0:
            found.append((x, k))
    for x, k in sorted(found, reverse=True):
        print("%12.3f  %s" % (x, k))


if __name__ == "__main__":
    main()
