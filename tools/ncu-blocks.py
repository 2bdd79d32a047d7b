#!/usr/bin/env python3
"""Where a kernel's instructions and stalls are, from an Nsight Compute source page.

Input: the CSV of `ncu -i REPORT -k NAME --page source --csv --print-source sass`
(tools/device-check.sh profile writes one per kernel). Runs of SASS lines with the same
execution count are basic blocks; prints the largest, with their share of the kernel's
warp instructions and of its stall samples, and the opcodes in each.

Usage: tools/ncu-blocks.py SOURCE.csv [N]
"""
import collections
import csv
import sys


def main():
    rows = list(csv.reader(open(sys.argv[1])))
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 12
    hdr, data = rows[1], rows[2:]
    src = hdr.index("Source")
    ex = hdr.index("Instructions Executed")
    st = hdr.index("Warp Stall Sampling (All Samples)")
    num = lambda v: int(v) if v.isdigit() else 0
    blocks = []
    for i, r in enumerate(data):
        e, s = num(r[ex]), num(r[st])
        if blocks and blocks[-1]["count"] == e:
            b = blocks[-1]
            b["last"], b["instr"], b["stalls"] = i, b["instr"] + e, b["stalls"] + s
        else:
            blocks.append({"first": i, "last": i, "count": e, "instr": e, "stalls": s})
    total = sum(b["instr"] for b in blocks) or 1
    stalls = sum(b["stalls"] for b in blocks) or 1
    print("%s: %d warp instructions, %d stall samples" % (sys.argv[1], total, stalls))
    for b in sorted(blocks, key=lambda b: -b["instr"])[:top]:
        ops = collections.Counter()
        for r in data[b["first"]:b["last"] + 1]:
            words = r[src].split()
            op = words[1] if words and words[0].startswith("@") and len(words) > 1 else (words or ["?"])[0]
            ops[op.split(".")[0]] += 1
        print("lines %5d-%5d  %4d instr x %8d  %5.1f %% of instructions  %5.1f %% of stalls  %s" % (
            b["first"], b["last"], b["last"] - b["first"] + 1, b["count"],
            100.0 * b["instr"] / total, 100.0 * b["stalls"] / stalls,
            " ".join("%s:%d" % kv for kv in ops.most_common(8))))


if __name__ == "__main__":
    main()
