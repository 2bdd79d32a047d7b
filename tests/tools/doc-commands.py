#!/usr/bin/env python3
"""Print the command lines of the documentation, for tests/run-docs.sh.

  doc-commands.py FILE...    (README.md: ```sh blocks; *.texi: @example blocks)

Each command is printed as "FILE:LINE<TAB>COMMAND", continuation lines joined as the shell
joins them (backslash and newline removed), texinfo
escapes undone. A command is a line that starts with ffmpeg, ffprobe, build/ffmpeg,
build/ffprobe or tools/ssimu2-*; the rest of a block (comments, output samples) is skipped.
"""
import re
import sys

STARTS = re.compile(r"^(build/)?(ffmpeg|ffprobe)\s|^tools/ssimu2-(ladder|plot)\s")


def blocks(path, text):
    """(first line number, lines) of each code block."""
    lines = text.split("\n")
    texi = path.endswith(".texi")
    cur, start = None, 0
    for i, line in enumerate(lines, 1):
        if texi:
            if line.strip() == "@example":
                cur, start = [], i + 1
            elif line.strip() == "@end example" and cur is not None:
                yield start, cur
                cur = None
            elif cur is not None:
                cur.append(re.sub(r"@([{}@])", r"\1", line))
        else:
            if line.startswith("```"):
                if cur is None and line.strip() in ("```sh", "```bash"):
                    cur, start = [], i + 1
                elif cur is not None:
                    yield start, cur
                    cur = None
            elif cur is not None:
                cur.append(line)


def commands(path):
    for start, lines in blocks(path, open(path).read()):
        i = 0
        while i < len(lines):
            line = lines[i].strip()
            n = start + i
            i += 1
            if not STARTS.match(line):
                continue
            cmd = line
            while cmd.endswith("\\") and i < len(lines):
                cmd = cmd[:-1] + lines[i].rstrip()   # as the shell joins them
                i += 1
            yield "%s:%d\t%s" % (path, n, cmd)


for p in sys.argv[1:]:
    for c in commands(p):
        print(c)
