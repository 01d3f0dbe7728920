"""The fuzz knows every refusal the protocol documents, and documents nothing it does not: the codes of
``docs/protocol.md``'s "Errors" table are the fuzz's ``ERROR_CODES`` (an error with another code is a problem
the fuzz reports), and every code the table raises is among them."""

from __future__ import annotations

import re
from pathlib import Path

from tools.fuzz import ERROR_CODES

ROOT = Path(__file__).resolve().parents[2]


def documented() -> set[str]:
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    section = text[text.index("\n## Errors") :]
    section = section[: section.index("\n## ", 5)]
    codes: set[str] = set()
    for line in section.splitlines():
        if line.startswith("| `"):
            codes |= set(re.findall(r"`([a-z-]+)`", line.split("|")[1]))
    return codes


def test_the_fuzz_knows_the_documented_error_codes_and_no_other() -> None:
    assert documented() == ERROR_CODES


def test_every_code_the_table_and_server_raise_is_documented() -> None:
    raised: set[str] = set()
    for path in (ROOT / "src" / "gemtable").rglob("*.py"):
        raised |= set(re.findall(r'TableError\(\s*"([a-z-]+)"', path.read_text(encoding="utf-8")))
    assert raised, "no TableError found: the pattern is stale"
    internal = {"bad-event"}  # (a table's own log holds an event it does not know: never a phone's doing)
    assert raised - internal <= documented(), sorted(raised - internal - documented())
