"""Read the QR code in a PNG screenshot, as a phone's camera would: zxing-cpp on the pixels.

The PNG is unpacked here (zlib and the five scanline filters; 8-bit grey, RGB or RGBA, not interlaced,
which is what browsers' screenshots are) into the grey bytes zxing-cpp reads: no imaging library.  Only the
rows and columns up to the box asked for are unfiltered (a filter reads the row above and the pixel to the
left, never further right or down), with numpy where a filter allows it: a TV's 1920x1080 screenshot took
about 2 s to unpack byte by byte in Python, and under a loaded suite a 5 s wait read it once or not at all.
"""

from __future__ import annotations

import struct
import zlib

import numpy as np
import zxingcpp

CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def _unfilter_slowly(filtering: int, line: bytearray, prev: bytes, n: int) -> None:
    """Undo the Average (3) or Paeth (4) filter of one row in place: each byte depends on the one to its left."""
    for i in range(len(line)):
        a = line[i - n] if i >= n else 0
        b = prev[i]
        if filtering == 3:
            line[i] = (line[i] + ((a + b) >> 1)) & 0xFF
        else:
            line[i] = (line[i] + _paeth(a, b, prev[i - n] if i >= n else 0)) & 0xFF


def grey(png: bytes, right: int | None = None, bottom: int | None = None) -> tuple[int, int, bytes]:
    """(width, height, one grey byte per pixel) of an 8-bit, non-interlaced PNG, or of its part left of
    ``right`` and above ``bottom`` (pixels)."""
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
    stride = width * n
    rows = np.frombuffer(zlib.decompress(data), np.uint8)[: height * (stride + 1)].reshape(height, stride + 1)
    w = width if right is None else max(0, min(width, right))
    h = height if bottom is None else max(0, min(height, bottom))
    out = np.empty((h, w * n), np.uint8)
    prev = np.zeros(w * n, np.uint8)
    for y in range(h):
        filtering = rows[y, 0]
        line = rows[y, 1 : 1 + w * n].copy()
        if filtering == 1:  # Sub: a running sum along the row, per channel (mod 256)
            line = (np.cumsum(line.reshape(-1, n), axis=0, dtype=np.uint8)).reshape(-1)
        elif filtering == 2:  # Up
            line += prev
        elif filtering in (3, 4):
            slow = bytearray(line.tobytes())
            _unfilter_slowly(int(filtering), slow, prev.tobytes(), n)
            line = np.frombuffer(slow, np.uint8)
        out[y] = line
        prev = line
    pixels = out.reshape(h, w, n)
    if n <= 2:
        grey_pixels = pixels[:, :, 0]
    else:
        rgb = pixels[:, :, :3].astype(np.uint32)
        grey_pixels = ((299 * rgb[:, :, 0] + 587 * rgb[:, :, 1] + 114 * rgb[:, :, 2]) // 1000).astype(np.uint8)
    return w, h, grey_pixels.tobytes()


def read_qr(png: bytes, box: tuple[int, int, int, int] | None = None) -> list[str]:
    """The texts of the QR codes found in the picture, or in its ``box`` (left, top, width, height)."""
    if box is None:
        width, height, pixels = grey(png)
    else:
        left, top, w, h = box
        left, top = max(0, left), max(0, top)
        width, height, pixels = grey(png, left + w, top + h)
        w, h = max(0, width - left), max(0, height - top)
        pixels = b"".join(pixels[(top + y) * width + left : (top + y) * width + left + w] for y in range(h))
        width, height = w, h
    view = memoryview(pixels).cast("B", (height, width))
    return [
        code.text
        for code in zxingcpp.read_barcodes(view, formats=zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode))
    ]
