#!/usr/bin/env python3
"""The loops of one kernel in a cuobjdump -sass listing: instructions per iteration and their mix.

A loop is a backward branch; its body runs from the target to the branch (inner loops are
counted inside their outer loop too). What a change adds to or removes from an iteration of the
row pass's block loop or the column pass's batch loop shows here before any GPU run.

Usage: tools/sass-loops.py LISTING.sass KERNEL [MIN_SIZE]
"""
import re
import sys


def main():
    listing, kernel = sys.argv[1], sys.argv[2]
    min_size = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    text = open(listing).read()
    start = text.find("Function : %s\n" % kernel)
    if start < 0:
        sys.exit("%s: no kernel %s" % (listing, kernel))
    end = text.find("Function : ", start + 1)
    code = []
    for line in text[start:end if end > 0 else None].split("\n"):
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;", line)
        if m:
            code.append((int(m.group(1), 16), m.group(2)))
    index = {a: i for i, (a, _) in enumerate(code)}
    print("%s: %d instructions" % (kernel, len(code)))
    for i, (a, ins) in enumerate(code):
        m = re.search(r"BRA\b.*?0x([0-9a-f]+)", ins)
        if not m or int(m.group(1), 16) > a or int(m.group(1), 16) not in index:
            continue
        body = code[index[int(m.group(1), 16)]:i + 1]
        if len(body) < min_size:
            continue
        mix = {}
        for _, b in body:
            op = re.sub(r"^@!?U?P\w+\s+", "", b).split()[0].split(".")[0]
            mix[op] = mix.get(op, 0) + 1
        print("  loop at 0x%04x: %4d per iteration  %s" % (body[0][0], len(body),
              " ".join("%s:%d" % kv for kv in sorted(mix.items(), key=lambda kv: -kv[1])[:10])))


if __name__ == "__main__":
    main()
