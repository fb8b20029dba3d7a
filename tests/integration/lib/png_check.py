#!/usr/bin/python3
"""Is FILE a PNG of at least W x H pixels with something drawn on it?

usage: png_check.py FILE W H

Reads the PNG chunks (no imaging library needed): the IHDR size, and the
decompressed image data must hold more than a few distinct byte values (a
blank page is one colour). Exits 1 otherwise.
"""
import struct
import sys
import zlib


def main():
    data = open(sys.argv[1], "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        print("not a PNG")
        return 1
    pos, idat, size = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            size = struct.unpack(">II", body[:8])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    pixels = zlib.decompress(idat)
    distinct = len(set(pixels))
    print(f"{size[0]}x{size[1]}, {distinct} distinct byte values")
    if size[0] < int(sys.argv[2]) or size[1] < int(sys.argv[3]):
        return 1
    return 0 if distinct > 16 else 1


sys.exit(main())
