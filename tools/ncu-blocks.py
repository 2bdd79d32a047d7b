#!/usr/bin/env python3
"""Where a kernel's instructions and stalls are, from an Nsight Compute source page.

Input: the CSV of `ncu -i REPORT -k NAME --page source --csv --print-source sass`
(tools/device-check.sh profile writes one per kernel). Runs of SASS lines with the same
execution count are basic blocks; prints the largest (by SASS address), with their share
of the kernel's warp instructions and of its stall samples, and the opcodes in each.

Usage: tools/ncu-blocks.py SOURCE.csv [N]
"""
import collections
import csv
import sys

COLUMNS = ("Address", "Source", "Instructions Executed", "Warp Stall Sampling (All Samples)")


def main():
    rows = list(csv.reader(open(sys.argv[1], newline="")))
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 12
    # ncu may print notes before the table: the header is the row that names the columns
    start = next((i for i, r in enumerate(rows) if all(c in r for c in COLUMNS)), None)
    if start is None:
        sys.exit("%s: not an ncu source page (no %s columns)" % (sys.argv[1], ", ".join(COLUMNS)))
    addr, src, ex, st = (rows[start].index(c) for c in COLUMNS)
    data = [r for r in rows[start + 1:] if len(r) > max(addr, src, ex, st)]
    num = lambda v: int(v.replace(",", "")) if v.replace(",", "").isdigit() else 0
    blocks = []
    for r in data:
        e, s = num(r[ex]), num(r[st])
        if blocks and blocks[-1]["count"] == e:
            b = blocks[-1]
            b["rows"].append(r)
            b["instr"], b["stalls"] = b["instr"] + e, b["stalls"] + s
        else:
            blocks.append({"rows": [r], "count": e, "instr": e, "stalls": s})
    total = sum(b["instr"] for b in blocks)
    stalls = sum(b["stalls"] for b in blocks)
    print("%s: %d warp instructions, %d stall samples" % (sys.argv[1], total, stalls))
    for b in sorted(blocks, key=lambda b: -b["instr"])[:top]:
        ops = collections.Counter()
        for r in b["rows"]:
            words = r[src].split()
            op = words[1] if len(words) > 1 and words[0].startswith("@") else (words or ["?"])[0]
            ops[op.split(".")[0]] += 1
        print("%s..%s  %4d instr x %8d  %5.1f %% of instructions  %5.1f %% of stalls  %s" % (
            b["rows"][0][addr], b["rows"][-1][addr], len(b["rows"]), b["count"],
            100.0 * b["instr"] / max(total, 1), 100.0 * b["stalls"] / max(stalls, 1),
            " ".join("%s:%d" % kv for kv in ops.most_common(8))))


if __name__ == "__main__":
    main()
