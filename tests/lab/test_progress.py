"""A long simulation is never silent: where its output is not a terminal it prints a line of progress to
stderr every ``every`` seconds (rich's bar on a terminal)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from gemtable.lab.cli import ProgressLines, _progress


def test_a_line_every_ten_seconds_and_none_before(capsys: pytest.CaptureFixture[str]) -> None:
    now = [100.0]
    lines = ProgressLines(every=10.0, clock=lambda: now[0])
    task = lines.add_task("games", total=40_000)
    lines.advance(task, 5_000)
    now[0] += 9.0
    lines.advance(task, 5_000)
    assert capsys.readouterr().err == ""  # a short run prints nothing
    now[0] += 1.5
    lines.advance(task, 2_000)
    lines.update(task, total=80_000, description="round of 40,000 games")
    now[0] += 63.0
    lines.advance(task, 28_000)
    assert capsys.readouterr().err.splitlines() == [
        "gemtable simulate: 12,000 of 40,000 games (30 %), 0 min 10 s",
        "gemtable simulate: 40,000 of 80,000 games (50 %), round of 40,000 games, 1 min 13 s",
    ]


def test_lines_where_the_output_is_not_a_terminal_and_a_bar_where_it_is() -> None:
    with _progress(quiet=False) as progress:  # pytest's captured stdout is not a terminal
        assert isinstance(progress, ProgressLines)
    with _progress(quiet=True) as progress:  # --json: the lines still go to stderr, never into the JSON
        assert isinstance(progress, ProgressLines)
    code = (
        "import sys; sys.stdout.isatty = lambda: True\n"
        "from gemtable.lab.cli import _progress\n"
        "with _progress(quiet=False) as p: print(type(p).__name__)"
    )
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "Progress" in shown.stdout and "ProgressLines" not in shown.stdout, shown.stderr
