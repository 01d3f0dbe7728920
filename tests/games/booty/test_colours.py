"""Booty Hunter's three colours differ in lightness as well as hue (issue 23, WCAG 1.4.1): for everyone, in full
greyscale, and under simulated protanopia, deuteranopia and tritanopia; and each colour's pattern stands out
of its land in greyscale (on a TV set to black and white, say).

The measure: CIE L* (lightness, 0 black to 100 white) of each land colour, from its relative luminance Y
(WCAG's, linear sRGB).  A dichromat's view is Machado, Oliveira and Fernandes' (2009) simulation at full
severity, applied to linear RGB; greyscale is Y itself.  The thresholds: **any two lands at least 20 L*
apart** in each of those five views (20 L* is about two steps of the Munsell value scale: far more than "just
noticeable", about 1), and **a pattern's marks at least 15 L* from their land** (the marks are drawn over the
land with an opacity, blended in sRGB as browsers blend).  The colours and patterns are read from draw.js,
where they are declared once.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DRAW = Path(__file__).resolve().parents[3] / "src" / "gemtable" / "games" / "booty" / "web" / "draw.js"
MACHADO = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}
IDENTITY = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
VIEWS = {"normal": IDENTITY, "greyscale": IDENTITY, **MACHADO}
APART = 20.0
PATTERN = 15.0


def rgb(hex_colour: str) -> tuple[int, int, int]:
    value = hex_colour.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def linear(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def lightness(colour: tuple[float, ...], view: str = "normal") -> float:
    """CIE L* of an sRGB colour as ``view`` sees it."""
    lin = [linear(c) for c in colour]
    seen = [min(1.0, max(0.0, sum(m * v for m, v in zip(row, lin, strict=True)))) for row in VIEWS[view]]
    y = 0.2126 * seen[0] + 0.7152 * seen[1] + 0.0722 * seen[2]
    return 116 * y ** (1 / 3) - 16 if y > 0.008856 else 903.3 * y


def lands() -> list[str]:
    block = DRAW.read_text(encoding="utf-8").split("export const COLOURS = [", 1)[1].split("];", 1)[0]
    return re.findall(r"fill: '(#[0-9a-fA-F]{6})'", block)


def patterns() -> list[tuple[str, float]]:
    """Each colour's pattern mark (``bh-pN``): its colour and opacity."""
    text = DRAW.read_text(encoding="utf-8")
    out = []
    for n in range(3):
        body = text.split(f"pat('bh-p{n}'", 1)[1].split("pat('bh-p", 1)[0]
        colour = re.search(r"(?:stroke|fill): '(#[0-9a-fA-F]{3,6})'", body)
        alpha = re.search(r"'(?:stroke|fill)-opacity': ([0-9.]+)", body)
        assert colour and alpha, body
        out.append((colour.group(1), float(alpha.group(1))))
    return out


def test_draw_js_declares_three_lands_and_three_patterns() -> None:
    assert len(lands()) == 3
    assert len(patterns()) == 3


@pytest.mark.parametrize("view", list(VIEWS))
def test_any_two_colours_are_at_least_20_lightness_apart(view: str) -> None:
    seen = [lightness(rgb(colour), view) for colour in lands()]
    gaps = [abs(a - b) for i, a in enumerate(seen) for b in seen[i + 1 :]]
    assert min(gaps) >= APART, (view, [round(v, 1) for v in seen])


def test_each_pattern_stands_out_of_its_land_in_greyscale() -> None:
    for land, (mark, alpha) in zip(lands(), patterns(), strict=True):
        mark_rgb = rgb(mark if len(mark) == 7 else "#" + "".join(c * 2 for c in mark[1:]))
        blended = tuple(a * (1 - alpha) + b * alpha for a, b in zip(rgb(land), mark_rgb, strict=True))
        gap = abs(lightness(blended, "greyscale") - lightness(rgb(land), "greyscale"))
        assert gap >= PATTERN, (land, mark, alpha, round(gap, 1))
