#!/usr/bin/env python3
"""Count the pixels of given colours in a PNG (8-bit RGB or RGBA, not
interlaced): pngcolors.py FILE.png RRGGBB... prints one count a line.
The standard library only: zlib and the five PNG row filters."""
import struct
import sys
import zlib


def rows(path):
    with open(path, 'rb') as f:
        data = f.read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        sys.exit(f'{path}: not a PNG')
    pos, idat, hdr = 8, [], None
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            hdr = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat.append(body)
        pos += 12 + n
    w, h, depth, ctype, _, _, inter = hdr
    if depth != 8 or ctype not in (2, 6) or inter:
        sys.exit(f'{path}: depth {depth}, colour type {ctype}: not handled')
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(b''.join(idat))
    stride = w * bpp
    prev = bytearray(stride)
    for y in range(h):
        ft = raw[y * (stride + 1)]
        cur = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if ft == 1:
            for i in range(bpp, stride):
                cur[i] = (cur[i] + cur[i - bpp]) & 255
        elif ft == 2:
            cur = bytearray((a + b) & 255 for a, b in zip(cur, prev))
        elif ft == 3:
            for i in range(stride):
                left = cur[i - bpp] if i >= bpp else 0
                cur[i] = (cur[i] + ((left + prev[i]) >> 1)) & 255
        elif ft == 4:
            for i in range(stride):
                a = cur[i - bpp] if i >= bpp else 0
                b, c = prev[i], prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                cur[i] = (cur[i] + pr) & 255
        yield bytes(cur), bpp
        prev = cur


def main():
    want = [bytes.fromhex(c.lstrip('#')) for c in sys.argv[2:]]
    count = [0] * len(want)
    for row, bpp in rows(sys.argv[1]):
        for k, c in enumerate(want):
            # Whole pixels only: a match must start on a pixel boundary.
            i = row.find(c)
            while i >= 0:
                if i % bpp == 0:
                    count[k] += 1
                i = row.find(c, i + 1)
    print('\n'.join(str(n) for n in count))


main()
