"""Display names: what a name may hold, and when two names look the same.

A name is what everyone at the table reads on their phone and on the TV, so it must be visible, short, and
not pass for somebody else's.  :func:`clean_name`:

1. normalises the text to NFKC (a fullwidth "Ａｎｎ" is "Ann", a ligature "ﬁ" is "fi");
2. turns spaces of every kind — tabs, line breaks, no-break and ideographic spaces, the blank Braille
   pattern — into single spaces, and trims them;
3. drops the *default-ignorable* code points, which no font draws: zero-width spaces and joiners,
   variation selectors, bidi controls, the Hangul fillers (U+3164, U+FFA0), the Mongolian free variation
   selectors and Khmer inherent vowels, tags… (so an emoji joined by U+200D shows as its parts);
4. refuses any other control character ("a\\u0007b"), private-use, unassigned or surrogate code point;
5. refuses more than :data:`MARKS_PER_LETTER` combining marks on one character ("zalgo" text that
   spills over the neighbouring lines), and a name without a single letter or digit (one that looks
   blank, or is only punctuation);
6. and measures it: 1 to :data:`NAME_MAX` characters.

Two names are the same name at a table if they look alike (:func:`looks_like`): their Unicode TR39
*skeletons* — every character replaced by the prototype it may be confused with (Cyrillic "а" → "a",
"0" → "O", "rn" ← "m") — are equal, ignoring case.  The table of prototypes, ``confusables.txt`` beside this
module, is generated from ICU's (``scripts/make-confusables``; see there for why it is shipped rather than
imported): the table layer stays standard-library only.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable
from pathlib import Path

from gemtable.table.errors import TableError

NAME_MAX = 24
"""Characters in a name, after cleaning."""

MARKS_PER_LETTER = 3
"""Nonspacing or enclosing marks on one character.  Three, not fewer: pointed Hebrew puts a dagesh, a vowel
and a shin dot on one letter, and Thai a vowel and a tone mark; precomposed letters (é, ễ) count none."""

SPACES = frozenset("\t\n\r\u2800")
"""Also spaces, besides the separators (Zs, Zl, Zp): tab, line breaks, and the blank Braille pattern."""

DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
"""Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt, Unicode 15): drawn as nothing."""

_IGNORED = {cp: None for low, high in DEFAULT_IGNORABLE for cp in range(low, high + 1)}
_REFUSED = frozenset({"Cc", "Cf", "Co", "Cn", "Cs"})
_MARKS = frozenset({"Mn", "Me"})


class BadName(ValueError):
    """Why a name was refused (a :class:`~gemtable.table.TableError` ``bad-name`` at the table)."""


def clean_name(name: object) -> str:
    """``name`` as it will be shown; :class:`~gemtable.table.TableError` (``bad-name``) if it cannot be."""
    try:
        return _clean(name)
    except BadName as exc:
        raise TableError("bad-name", str(exc)) from None


def _clean(name: object) -> str:
    if not isinstance(name, str):
        raise BadName("a name is text")
    text = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).translate(_IGNORED))
    kept: list[str] = []
    marks = 0
    for ch in text:
        kind = unicodedata.category(ch)
        if ch in SPACES or kind[0] == "Z":
            kept.append(" ")
            marks = 0
        elif kind in _REFUSED:
            raise BadName("a name cannot hold control or unassigned characters")
        elif kind in _MARKS:
            marks += 1
            if marks > MARKS_PER_LETTER:
                raise BadName(f"at most {MARKS_PER_LETTER} accents on one letter")
            kept.append(ch)
        else:
            kept.append(ch)
            marks = 0
    clean = " ".join("".join(kept).split())
    if not clean:
        raise BadName("please type a name")
    if len(clean) > NAME_MAX:
        raise BadName(f"a name has at most {NAME_MAX} characters")
    if not any(unicodedata.category(ch)[0] in "LN" for ch in clean):
        raise BadName("a name needs at least one letter or digit")
    return clean


# --- looking alike ---------------------------------------------------------------------------------


@functools.cache
def _prototypes() -> dict[int, str]:
    table: dict[int, str] = {}
    for line in (Path(__file__).with_name("confusables.txt")).read_text("ascii").splitlines():
        if line and not line.startswith("#"):
            source, *prototype = line.split()
            table[int(source, 16)] = "".join(chr(int(cp, 16)) for cp in prototype)
    return table


def skeleton(text: str) -> str:
    """Unicode TR39's skeleton: NFD, each character replaced by its prototype, NFD again."""
    return unicodedata.normalize("NFD", unicodedata.normalize("NFD", text).translate(_prototypes()))


@functools.lru_cache(maxsize=4096)
def likeness(name: str) -> frozenset[str]:
    """What ``name`` is compared by: its skeleton ignoring case (both ways round: "Il" looks like "ll",
    and "IL" is "il" in other letters)."""
    return frozenset({skeleton(name.casefold()), skeleton(name).casefold()})


def looks_like(name: str, other: str) -> bool:
    return bool(likeness(name) & likeness(other))


def name_taken(name: str, others: Iterable[str]) -> bool:
    """Whether ``name`` looks like any of ``others``."""
    mine = likeness(name)
    return any(mine & likeness(other) for other in others)


__all__ = ["MARKS_PER_LETTER", "NAME_MAX", "BadName", "clean_name", "likeness", "looks_like", "name_taken", "skeleton"]
