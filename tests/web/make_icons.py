"""Draw gemtable's icons: an SVG and PNGs (192, 512, maskable 512), standard library only.

    .venv/bin/python -m tests.web.make_icons

The PNGs are rasterised here with a scanline polygon fill at 4x and a box filter
down to size, then written with zlib and struct: no imaging library needed.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

ICONS = Path(__file__).resolve().parents[2] / "src" / "gemtable" / "web" / "static" / "icons"

BACKGROUND = (0x0B, 0x4A, 0x8B)
# The gem, in a 24-unit box, facet by facet (painted in order).
FACETS: list[tuple[tuple[int, int, int], list[tuple[float, float]]]] = [
    ((0x37, 0xB5, 0xD6), [(6, 3), (18, 3), (22, 9), (12, 21), (2, 9)]),
    ((0x8F, 0xDE, 0xF0), [(6, 3), (18, 3), (22, 9), (2, 9)]),
    ((0xC8, 0xF1, 0xFA), [(9.5, 3), (14.5, 3), (17, 9), (7, 9)]),
    ((0x24, 0x93, 0xB8), [(2, 9), (7, 9), (12, 21)]),
    ((0x18, 0x70, 0x93), [(17, 9), (22, 9), (12, 21)]),
]
CORNER = 0.22
"""Corner radius of the rounded square, as a share of the side (0 for the maskable icon)."""


def _gem_points(points: list[tuple[float, float]], size: float, scale: float) -> list[tuple[float, float]]:
    unit = size * scale / 24
    offset = (size - 24 * unit) / 2
    return [(offset + x * unit, offset + y * unit + unit * 0.6) for x, y in points]


def svg() -> str:
    size = 512
    gem = "".join(
        f'<polygon fill="#{r:02x}{g:02x}{b:02x}" points="'
        + " ".join(f"{x:.1f},{y:.1f}" for x, y in _gem_points(pts, size, 0.68))
        + '"/>'
        for (r, g, b), pts in FACETS
    )
    r, g, b = BACKGROUND
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}">'
        f'<rect width="{size}" height="{size}" rx="{size * CORNER:.0f}" fill="#{r:02x}{g:02x}{b:02x}"/>'
        f"{gem}</svg>\n"
    )


def _fill(canvas: list[bytearray], points: list[tuple[float, float]], colour: tuple[int, int, int]) -> None:
    """Scanline fill of a polygon (even-odd) into an RGB canvas of bytearrays."""
    height = len(canvas)
    width = len(canvas[0]) // 3
    edges = list(zip(points, points[1:] + points[:1], strict=True))
    ys = [y for _, y in points]
    for row in range(max(0, int(min(ys))), min(height, int(max(ys)) + 1)):
        y = row + 0.5
        xs = sorted(
            x0 + (y - y0) * (x1 - x0) / (y1 - y0) for (x0, y0), (x1, y1) in edges if (y0 <= y < y1) or (y1 <= y < y0)
        )
        line = canvas[row]
        for a, b in zip(xs[::2], xs[1::2], strict=False):
            start, stop = max(0, round(a)), min(width, round(b))
            if stop > start:
                line[start * 3 : stop * 3] = bytes(colour) * (stop - start)


def _rounded_square(size: int, radius: float) -> list[tuple[float, float]]:
    if radius <= 0:
        return [(0, 0), (size, 0), (size, size), (0, size)]
    import math

    pts: list[tuple[float, float]] = []
    for cx, cy, start in (
        (size - radius, radius, -90),
        (size - radius, size - radius, 0),
        (radius, size - radius, 90),
        (radius, radius, 180),
    ):
        for step in range(0, 91, 6):
            angle = math.radians(start + step)
            pts.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return pts


def png(size: int, maskable: bool = False) -> bytes:
    """The icon as a PNG (transparent outside the rounded square): the pixels of :func:`rgba`, written with a
    palette when they have at most 256 colours (they have under 90: the same picture in about half the bytes)."""
    return _encode(size, size, rgba(size, maskable))


def rgba(size: int, maskable: bool = False) -> bytes:
    """The icon's pixels, RGBA, row by row (each row after a 0: PNG's filter byte, "none")."""
    ss = 4
    big = size * ss
    canvas = [bytearray(big * 3) for _ in range(big)]
    mask = [bytearray(big * 3) for _ in range(big)]
    corner = 0 if maskable else CORNER
    square = _rounded_square(big, big * corner)
    _fill(canvas, square, BACKGROUND)
    _fill(mask, square, (255, 255, 255))
    for colour, pts in FACETS:
        _fill(canvas, _gem_points(pts, big, 0.52 if maskable else 0.68), colour)
    rows = []
    for y in range(size):
        out = bytearray([0])
        block = canvas[y * ss : (y + 1) * ss]
        alpha = mask[y * ss : (y + 1) * ss]
        for x in range(size):
            lo, hi = x * ss * 3, (x + 1) * ss * 3
            r = g = b = a = 0
            for line, m in zip(block, alpha, strict=True):
                seg = line[lo:hi]
                r += sum(seg[0::3])
                g += sum(seg[1::3])
                b += sum(seg[2::3])
                a += sum(m[lo:hi:3])
            n = ss * ss
            cover = a / 255
            if cover:
                out += bytes((round(r / cover), round(g / cover), round(b / cover), round(a / n)))
            else:
                out += b"\0\0\0\0"
        rows.append(bytes(out))
    return b"".join(rows)


def _encode(width: int, height: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    stride = 1 + 4 * width
    colours: dict[bytes, int] = {}
    indexed = bytearray()
    for y in range(height):
        row = raw[y * stride + 1 : (y + 1) * stride]
        indexed.append(0)
        indexed += bytes(colours.setdefault(row[x : x + 4], len(colours)) for x in range(0, 4 * width, 4))
    if len(colours) > 256:  # too many colours for a palette: RGBA
        header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
        body = chunk(b"IDAT", zlib.compress(raw, 9))
    else:
        header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
        body = chunk(b"PLTE", b"".join(c[:3] for c in colours)) + chunk(b"tRNS", bytes(c[3] for c in colours))
        body += chunk(b"IDAT", zlib.compress(bytes(indexed), 9))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + body + chunk(b"IEND", b"")


def main() -> None:
    ICONS.mkdir(parents=True, exist_ok=True)
    (ICONS / "icon.svg").write_text(svg())
    (ICONS / "icon-192.png").write_bytes(png(192))
    (ICONS / "icon-512.png").write_bytes(png(512))
    (ICONS / "icon-maskable-512.png").write_bytes(png(512, maskable=True))


if __name__ == "__main__":
    main()
