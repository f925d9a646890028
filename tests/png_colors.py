#!/usr/bin/env python3
"""Counts the pixels of given colours in a PNG (8-bit RGB/RGBA, no palette).

    png_colors.py FILE RRGGBB[:MIN] ...

Exits 0 when every colour has at least MIN pixels (default 200) within a
small tolerance, 1 otherwise, printing the counts.  Standard library only, so
the HTML test needs nothing beyond Python itself.
"""
import struct
import sys
import zlib


def pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG")
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
            if depth != 8 or ctype not in (2, 6):
                raise SystemExit(f"{path}: only 8-bit RGB or RGBA PNGs are read")
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride = zlib.decompress(idat), width * bpp
    prev, out, i = bytearray(stride), [], 0
    for _ in range(height):
        ftype, row = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = row[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if ftype == 1:
                row[x] = (row[x] + a) & 255
            elif ftype == 2:
                row[x] = (row[x] + b) & 255
            elif ftype == 3:
                row[x] = (row[x] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[x] = (row[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out.append(bytes(row))
        prev = row
    for row in out:
        for x in range(0, stride, bpp):
            yield row[x], row[x + 1], row[x + 2]


def main():
    wanted = []
    for arg in sys.argv[2:]:
        colour, _, least = arg.partition(":")
        wanted.append((tuple(int(colour[k:k + 2], 16) for k in (0, 2, 4)), int(least or 200), colour))
    counts = [0] * len(wanted)
    for px in pixels(sys.argv[1]):
        for k, (rgb, _, _) in enumerate(wanted):
            if all(abs(px[j] - rgb[j]) <= 6 for j in range(3)):
                counts[k] += 1
    ok = True
    for (rgb, least, name), n in zip(wanted, counts):
        print(f"#{name}: {n} pixels (need {least})")
        ok &= n >= least
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
