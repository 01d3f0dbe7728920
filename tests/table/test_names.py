"""Names: invisible, blank, stacked and look-alike names (issue 13, findings 4 and 7), and the properties of
``gemtable.table.names`` for any text (Hypothesis)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from gemtable.table import TableError, clean_name
from gemtable.table.names import DEFAULT_IGNORABLE, MARKS_PER_LETTER, NAME_MAX, looks_like, skeleton

from ._helpers import join, seat_table

INVISIBLE = [
    "\u034f",
    "\ufe0f",
    "\U000e0100",
    "\u180b",
    "\u17b4",
    "\u200b",
    "\u200d",
    "\u2060",
    "\u00ad",
    "\u202e",
    "\ufeff",
    "\u115f",
    "\U000e0041",
]


def refused(raw: object) -> str:
    with pytest.raises(TableError) as err:
        clean_name(raw)
    assert err.value.code == "bad-name"
    return err.value.message


# --- the cases of the issue -----------------------------------------------------------------------


def test_five_people_who_all_look_like_ann_are_one_name() -> None:
    """The review seated five "Ann"s at one table with U+034F, U+FE0F, U+E0100, U+180B and U+17B4."""
    table, _ = seat_table(["Ann"])
    for other in ["A\u034fnn", "Ann\ufe0f", "An\U000e0100n", "A\u180bnn", "Ann\u17b4"]:
        assert clean_name(other) == "Ann"
        with pytest.raises(TableError) as err:
            join(table, other, 1.0)
        assert err.value.code == "name-taken"
    assert [p.name for p in table.people.values()] == ["Ann"]


@pytest.mark.parametrize(
    "blank",
    [
        "\u3164",
        "\u2800",
        "\uffa0",
        "\u3164\u2800\uffa0",
        " \u2800 ",
        "\u115f\u1160",
        "\u200b\u2060",
        "\u3000",
        "...",
        "\U0001f48e",
    ],
)
def test_names_that_look_blank_or_have_no_letter_are_refused(blank: str) -> None:
    refused(blank)


def test_stacked_combining_marks_are_refused() -> None:
    assert "accents" in refused("a" + "\u0301" * 23)
    assert "accents" in refused("Ann" + "\u0336" * (MARKS_PER_LETTER + 1))
    most = "Ann" + "\u0336" * MARKS_PER_LETTER
    assert clean_name(most) == most
    assert clean_name("שָּׁלוֹם") == unicodedata.normalize("NFKC", "שָּׁלוֹם")  # pointed Hebrew: 3 marks on one letter


@pytest.mark.parametrize(
    "raw",
    [
        "a\u0007b",
        "Ann\x00",
        "\x1b[31mAnn",
        "Ann\x7f",
        "A\x85nn"[:2] + "\x01",
        "Ann\ue000",
        "Ann\U0010fffd",
        "Ann\u0378",
        "Ann\ud800",
        "Ann\u0600",
    ],
)
def test_control_private_unassigned_and_surrogate_characters_are_refused(raw: str) -> None:
    """docs/protocol.md: names are printable.  (Tabs and line breaks are spaces.)"""
    refused(raw)


@pytest.mark.parametrize(
    ("name", "other"),
    [
        ("Ann", "\u0410nn"),  # Cyrillic A
        ("Anna", "\u0410nn\u0430"),  # Cyrillic capital and small a
        ("Hank", "\u041dank"),  # Cyrillic En looks like H (not N)
        ("Ann", "\uff21\uff4e\uff4e"),  # fullwidth
        ("Tom", "T0m"),
        ("Bill", "BiII"),
        ("Kim", "Kirn"),
        ("Paypal", "Pаypаl"),
        ("Olga", "\u039flga"),  # Greek Omicron
        ("ann", "ANN"),
    ],
)
def test_look_alikes_are_taken(name: str, other: str) -> None:
    assert looks_like(clean_name(name), clean_name(other))
    table, _ = seat_table([name])
    with pytest.raises(TableError) as err:
        join(table, other, 1.0)
    assert err.value.code == "name-taken"


@pytest.mark.parametrize(
    ("name", "other"),
    [("Ann", "Anna"), ("Zoë", "Zoe"), ("Győző", "Gyozo"), ("さくら", "さくらこ"), ("山田", "田山"), ("Bob", "Rob")],
)
def test_different_names_stay_different(name: str, other: str) -> None:
    table, _ = seat_table([name])
    join(table, other, 1.0)
    assert [p.name for p in table.people.values()] == [name, other]


def test_names_people_really_use_are_kept() -> None:
    for name in [
        "Zoë 🐙",
        "Győző",
        "さくら",
        "山田 太郎",
        "O'Brien",
        "Anne-Marie",
        "Nguyễn",
        "José 2",
        "Ñandú",
        "Łukasz",
        "ชาย",
        "Μαρία",
        "Алёна",
        "محمد",
        "नमस्ते",
    ]:
        assert clean_name(name) == unicodedata.normalize("NFKC", name), name


def test_bots_get_names_no_person_looks_like() -> None:
    table, (ada,) = seat_table(["\u0410da"])  # a Cyrillic A: looks like the first bot name, Ada
    table.add_bot(ada, "cautious", 0.0)
    assert [p.name for p in table.people.values() if p.is_bot] == ["Bruno"]


# --- for any text ---------------------------------------------------------------------------------

IGNORABLE = [chr(low) for low, _ in DEFAULT_IGNORABLE] + [chr(high) for _, high in DEFAULT_IGNORABLE]
text = st.text(st.characters(codec="utf-8"), max_size=40) | st.text(
    st.sampled_from(
        [
            *IGNORABLE,
            "A",
            "n",
            "\u0301",
            " ",
            "\t",
            "\u2800",
            "\u3164",
            "\x07",
            "0",
            "O",
            "l",
            "I",
            "\u0410",
            "ﬁ",
            "\U0001f419",
        ]
    ),
    max_size=40,
)


@given(text)
def test_a_clean_name_is_visible_short_and_stable(raw: str) -> None:
    try:
        name = clean_name(raw)
    except TableError as exc:
        assert exc.code == "bad-name"
        return
    assert 1 <= len(name) <= NAME_MAX
    assert name == name.strip() and "  " not in name
    assert unicodedata.normalize("NFKC", name) == name
    assert any(unicodedata.category(ch)[0] in "LN" for ch in name)
    for ch in name:
        assert unicodedata.category(ch) not in {"Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"}, repr(ch)
        assert not any(low <= ord(ch) <= high for low, high in DEFAULT_IGNORABLE), repr(ch)
        assert ch == " " or not ch.isspace()
    run = 0
    for ch in name:
        run = run + 1 if unicodedata.category(ch) in {"Mn", "Me"} else 0
        assert run <= MARKS_PER_LETTER
    assert clean_name(name) == name  # cleaning is idempotent


@given(
    st.text(st.sampled_from("abcdefghijkmnopqrstuvwxyz ABCDEFGHJKMNPQRSTUVWXYZ"), min_size=1, max_size=20),
    st.lists(st.tuples(st.integers(0, 20), st.sampled_from(INVISIBLE)), max_size=6),
)
def test_invisible_characters_never_make_a_new_name(name: str, inserts: list[tuple[int, str]]) -> None:
    assume(name.strip())
    other = name
    for at, ch in inserts:
        other = other[:at] + ch + other[at:]
    assert looks_like(clean_name(name), clean_name(other))
    assert looks_like(clean_name(name), clean_name(other.swapcase()))


@given(text, text)
def test_looking_alike_is_symmetric_and_reflexive(a: str, b: str) -> None:
    assert looks_like(a, a)
    assert looks_like(a, b) == looks_like(b, a)
    assert skeleton(skeleton(a)) == skeleton(a)  # TR39: a skeleton is its own skeleton
