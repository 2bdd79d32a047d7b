#!/usr/bin/env python3
"""png-icc.py IN.png OUT.png DESCRIPTION: OUT is IN with an iCCP chunk after IHDR.

The profile is an ICC v2 RGB display profile (a gamma 2.2 curve, sRGB primaries) whose
description tag (textDescriptionType) is DESCRIPTION: the filters read only that name.
"""
import struct
import sys
import zlib


def s15f16(x):
    return struct.pack(">i", int(round(x * 65536)))


def xyz(x, y, z):
    return b"XYZ \0\0\0\0" + s15f16(x) + s15f16(y) + s15f16(z)


def description(text):
    ascii_ = text.encode() + b"\0"
    # ASCII count and string, then empty Unicode and ScriptCode parts
    return b"desc\0\0\0\0" + struct.pack(">I", len(ascii_)) + ascii_ + b"\0" * (4 + 4 + 2 + 1 + 67)


def profile(text):
    curve = b"curv\0\0\0\0" + struct.pack(">IH", 1, int(2.2 * 256)) + b"\0\0"
    tags = [(b"desc", description(text)), (b"wtpt", xyz(0.9642, 1.0, 0.8249)),
            (b"rXYZ", xyz(0.4361, 0.2225, 0.0139)), (b"gXYZ", xyz(0.3851, 0.7169, 0.0971)),
            (b"bXYZ", xyz(0.1431, 0.0606, 0.7141)),
            (b"rTRC", curve), (b"gTRC", curve), (b"bTRC", curve)]
    offset = 128 + 4 + 12 * len(tags)
    table = data = b""
    for sig, body in tags:
        body += b"\0" * (-len(body) % 4)
        table += sig + struct.pack(">II", offset + len(data), len(body))
        data += body
    size = offset + len(data)
    header = (struct.pack(">I", size) + b"\0" * 4 + struct.pack(">I", 0x02100000) +
              b"mntrRGB XYZ " + b"\0" * 12 + b"acsp" + b"\0" * 28 +
              s15f16(0.9642) + s15f16(1.0) + s15f16(0.8249) + b"\0" * 48)
    assert len(header) == 128
    return header + struct.pack(">I", len(tags)) + table + data


def main():
    src, dst, text = sys.argv[1:4]
    png = open(src, "rb").read()
    ihdr_end = 8 + 12 + struct.unpack(">I", png[8:12])[0]
    body = b"icc\0\0" + zlib.compress(profile(text))
    chunk = (struct.pack(">I", len(body)) + b"iCCP" + body +
             struct.pack(">I", zlib.crc32(b"iCCP" + body) & 0xffffffff))
    open(dst, "wb").write(png[:ihdr_end] + chunk + png[ihdr_end:])


if __name__ == "__main__":
    main()
