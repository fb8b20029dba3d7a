#!/usr/bin/python3
"""How wide is the first chart's widest bar of one colour in a screenshot?

usage: png_bar.py FILE RRGGBB CHART_WIDTH MIN_SHARE

Decodes the PNG (8-bit RGB or RGBA, not interlaced: what Chromium's
--screenshot writes) with zlib alone, finds the rows that hold a run of at
least BAR_MIN pixels of the colour (a bar; a glyph's stroke is shorter),
takes the first group of such rows (the first chart: it ends where no bar
is seen for GAP rows) and prints its widest run. Exits 0 when that run is
at least MIN_SHARE of CHART_WIDTH, 1 otherwise or when there is no bar.
"""
import struct
import sys
import zlib

BAR_MIN = 20
GAP = 60


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def rows(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("not a PNG")
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                sys.exit(f"unsupported PNG: depth {depth}, colour type {ctype}")
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                line[x] = (line[x] + paeth(a, b, c)) & 255
        yield y, [tuple(line[x:x + 3]) for x in range(0, stride, bpp)]
        prev = line


def longest_run(pixels, colour):
    best = run = 0
    for p in pixels:
        if all(abs(p[i] - colour[i]) <= 3 for i in range(3)):
            run += 1
            best = max(best, run)
        else:
            run = 0
    return best


def main():
    path, hexcol, width, share = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    colour = tuple(int(hexcol[i:i + 2], 16) for i in (0, 2, 4))
    first = last = None
    widest = 0
    for y, pixels in rows(path):
        run = longest_run(pixels, colour)
        if run < BAR_MIN:
            if first is not None and y - last > GAP:
                break
            continue
        if first is None:
            first = y
        last = y
        widest = max(widest, run)
    if first is None:
        print("no bar of that colour")
        return 1
    print(f"first chart's bars from y={first} to y={last}: widest {widest} px "
          f"of {width} ({100 * widest / width:.0f}%)")
    return 0 if widest >= share * width else 1


sys.exit(main())
