"""Read the QR code in a PNG screenshot, as a phone's camera would: zxing-cpp on the pixels.

The PNG is unpacked here (zlib and the five scanline filters; 8-bit grey, RGB or RGBA, not interlaced,
which is what browsers' screenshots are) into the grey bytes zxing-cpp reads: no imaging library.
"""

from __future__ import annotations

import struct
import zlib

import zxingcpp

CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def grey(png: bytes) -> tuple[int, int, bytes]:
    """(width, height, one grey byte per pixel) of an 8-bit, non-interlaced PNG."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, data = 8, b""
    width = height = depth = colour = interlace = 0
    while pos < len(png):
        (size,) = struct.unpack(">I", png[pos : pos + 4])
        kind = png[pos + 4 : pos + 8]
        body = png[pos + 8 : pos + 8 + size]
        pos += 12 + size
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            data += body
        elif kind == b"IEND":
            break
    if depth != 8 or colour not in CHANNELS or interlace:
        raise ValueError(f"unsupported PNG: depth {depth}, colour type {colour}, interlace {interlace}")
    n = CHANNELS[colour]
    raw = zlib.decompress(data)
    stride = width * n
    prev = bytearray(stride)
    out = bytearray()
    for y in range(height):
        start = y * (stride + 1)
        filtering = raw[start]
        line = bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            a = line[i - n] if i >= n else 0
            b = prev[i]
            c = prev[i - n] if i >= n else 0
            if filtering == 1:
                line[i] = (line[i] + a) & 0xFF
            elif filtering == 2:
                line[i] = (line[i] + b) & 0xFF
            elif filtering == 3:
                line[i] = (line[i] + ((a + b) >> 1)) & 0xFF
            elif filtering == 4:
                line[i] = (line[i] + _paeth(a, b, c)) & 0xFF
        prev = line
        if n <= 2:
            out += line[::n]
        else:
            for x in range(0, stride, n):
                out.append((299 * line[x] + 587 * line[x + 1] + 114 * line[x + 2]) // 1000)
    return width, height, bytes(out)


def read_qr(png: bytes, box: tuple[int, int, int, int] | None = None) -> list[str]:
    """The texts of the QR codes found in the picture, or in its ``box`` (left, top, width, height)."""
    width, height, pixels = grey(png)
    if box is not None:
        left, top, w, h = box
        left, top = max(0, left), max(0, top)
        w, h = min(w, width - left), min(h, height - top)
        pixels = b"".join(pixels[(top + y) * width + left : (top + y) * width + left + w] for y in range(h))
        width, height = w, h
    view = memoryview(pixels).cast("B", (height, width))
    return [
        code.text
        for code in zxingcpp.read_barcodes(view, formats=zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode))
    ]
