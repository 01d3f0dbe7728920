"""``python -m tools pairs``: this checkout against another, in alternating pairs of real benchmarks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tools.pairs import order

ROOT = Path(__file__).resolve().parents[2]


def test_the_order_flips_every_pair() -> None:
    assert order(3) == [(1, "old"), (1, "new"), (2, "new"), (2, "old"), (3, "old"), (3, "new")]


def test_a_pair_runs_both_checkouts_and_gives_their_ratio() -> None:
    """A real pair on a tiny load (both sides this checkout: the tool, not the figure, is under test)."""
    bench = "--tables 4 --players 2 --pace instant --seconds 2 --warmup 1 --no-deflate"
    done = subprocess.run(
        [sys.executable, "-m", "tools", "pairs", "--before", str(ROOT), "--pairs", "1", "--bench", bench, "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    result = json.loads(done.stdout)
    assert result["before"] == str(ROOT / "src") and result["bench"] == bench.split()
    (pair,) = result["pairs"]
    old, new = pair["old"], pair["new"]
    assert old["errors"] == 0 and new["errors"] == 0
    # A window this short may hold no reveal (every table between two caves): then the figure is None, and so
    # is the pair's ratio; the tool's arithmetic is what is checked, whatever the machine's speed.
    before, after = old["cpu_ms_per_reveal"], new["cpu_ms_per_reveal"]
    expected = round(after / before, 3) if before and after else None
    assert result["new_over_old"] == [expected] and result["median"] == expected


def test_a_folder_without_the_package_is_refused(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tools", "pairs", "--before", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2 and "no gemtable package there" in done.stderr
