"""``gemtable replay`` on a hostile record (issue 21, §6): every malformed record is exit 2 with a one-line
reason, never a traceback, and exit 1 is kept for a well-formed record whose replay differs from its result."""

from __future__ import annotations

import contextlib
import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gemtable.cli import _same_scores, main
from gemtable.games import GameRecord, replay
from gemtable.play import play_bots
from tests.test_cli import gemtable

RECORD: dict[str, Any] = play_bots("expedition", {"preset": "table"}, ["odds", "cautious"], 3).record().to_json()
BOOTY: dict[str, Any] = play_bots("booty", {}, ["random", "random", "random"], 5).record().to_json()


def _run(record: object, tmp_path: Path) -> tuple[int, str]:
    path = tmp_path / "record.json"
    path.write_text(record if isinstance(record, str) else json.dumps(record))
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["replay", str(path)])
    return code, err.getvalue()


@pytest.mark.parametrize(
    "record",
    [
        {**RECORD, "inputs": [[{"a": 1}, "deeper"], *RECORD["inputs"]]},
        {**RECORD, "inputs": [["round", 5], *RECORD["inputs"][1:]]},
        json.dumps(RECORD).replace(f'"seed": {RECORD["seed"]}', '"seed": Infinity'),
        json.dumps(RECORD).replace(f'"seed": {RECORD["seed"]}', '"seed": ' + "7" * 5000),
        "[" * 100_000 + "]" * 100_000,
        {**RECORD, "seed": 2.5},
        {**RECORD, "seats": True},
        {**RECORD, "rules": "deep"},
        {**RECORD, "scores": ["a"]},
        {**RECORD, "inputs": [[0, None]]},
    ],
    ids=[
        "dict-seat",
        "round-5",
        "infinity",
        "5000-digits",
        "deep-nesting",
        "float-seed",
        "bool-seats",
        "rules-string",
        "score-string",
        "move-none",
    ],
)
def test_a_malformed_record_is_exit_2_with_one_line(record: object, tmp_path: Path) -> None:
    code, err = _run(record, tmp_path)
    assert code == 2
    assert err.startswith("gemtable: ") and err.count("\n") == 1 and len(err) < 300, err


def test_the_command_itself_prints_no_traceback(tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    path.write_text(json.dumps({**RECORD, "inputs": [["round", 5]]}))
    result = gemtable("replay", str(path))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith("gemtable: ") and result.stderr.count("\n") == 1, result.stderr


def _mutations(base: dict[str, Any]) -> st.SearchStrategy[Any]:
    junk = st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
        max_leaves=6,
    )

    def mutate(choice: tuple[str, int, Any]) -> Any:
        where, index, value = choice
        record = copy.deepcopy(base)
        inputs = record["inputs"]
        i = index % len(inputs)
        if where == "field":
            key = ["game", "rules", "seats", "seed", "script", "inputs", "scores", "winners"][index % 8]
            record[key] = value
        elif where == "input":
            inputs[i] = value
        elif where == "seat":
            inputs[i] = [value, *inputs[i][1:]] if isinstance(inputs[i], list) else value
        elif where == "drop":
            del inputs[i]
        elif where == "swap":
            j = (i + 1) % len(inputs)
            inputs[i], inputs[j] = inputs[j], inputs[i]
        elif where == "dup":
            inputs.insert(i, copy.deepcopy(inputs[i]))
        return record

    kinds = st.sampled_from(["field", "input", "seat", "drop", "swap", "dup"])
    return st.tuples(kinds, st.integers(0, 10_000), junk).map(mutate)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(record=st.sampled_from([RECORD, BOOTY]).flatmap(_mutations))
def test_a_mutated_record_is_replayed_or_refused_never_a_crash(record: Any, tmp_path: Path) -> None:
    code, err = _run(record, tmp_path)
    assert code in (0, 1, 2)
    if code == 2:
        assert err.startswith("gemtable: ") and err.count("\n") == 1, err
    else:  # well-formed: it replays to the end, and 1 means only that the result differs
        state = replay(GameRecord.from_json(record))
        assert state.is_over()
        matches = _same_scores(record["scores"], state.scores()) and sorted(record["winners"]) == state.winners()
        assert matches == (code == 0)
