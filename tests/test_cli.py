"""The gemtable command: simulate, replay, bench engine, bench bots."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gemtable.cli import main
from gemtable.play import play_bots


def gemtable(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gemtable", *args], capture_output=True, text=True, timeout=300)


def test_simulate_prints_json_per_bot_and_is_reproducible() -> None:
    args = ("simulate", "--games", "60", "--players", "2-8", "--seed", "7", "--bots", "random,cautious,odds", "--json")
    first = gemtable(*args)
    assert first.returncode == 0, first.stderr
    data = json.loads(first.stdout)
    assert data["games"] == 60 and set(data["bots"]) == {"random", "cautious", "odds"}
    for row in data["bots"].values():
        assert 0.0 <= row["win_rate"] <= 1.0 and row["seats"] > 0 and row["mean_score"] >= 0
    one_job = gemtable(*args, "--jobs", "1")
    assert json.loads(one_job.stdout) == data  # same figures on one core or two


def test_simulate_prints_a_table() -> None:
    result = gemtable("simulate", "--games", "20", "--bots", "cautious,odds", "--players", "3")
    assert result.returncode == 0, result.stderr
    assert "cautious" in result.stdout and "win rate" in result.stdout


def test_replay_prints_the_outcome_and_checks_it_against_the_record(tmp_path: Path) -> None:
    state = play_bots("expedition", {"preset": "table"}, ["odds", "cautious", "random"], 11)
    record = state.record().to_json()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    result = gemtable("replay", str(path), "--json")
    assert result.returncode == 0, result.stderr
    outcome = json.loads(result.stdout)
    assert outcome["scores"] == state.scores() and outcome["matches_record"] is True
    record["scores"] = [s + 1 for s in record["scores"]]  # a forged result
    path.write_text(json.dumps(record))
    forged = gemtable("replay", str(path))
    assert forged.returncode == 1 and "DIFFERS" in forged.stdout


def test_replay_lists_the_seats_that_played_and_accepts_only_zeros_after_them(tmp_path: Path) -> None:
    """A table's game has 16 seats; a game of three lists three scores.  A record written before that
    (with 13 zeros after them) still checks; anything but zeros there is a forgery."""
    from gemtable.games import find_game
    from gemtable.games.expedition import CAMP

    kind = find_game("expedition")
    state = kind.new(kind.rules_json("table", {}), kind.seats_per_game, 5)
    state.start_round([0, 1, 2])
    while not state.is_over():
        if state.needs_roster():
            state.start_round([0, 1, 2])
        state.apply_joint({seat: CAMP for seat in state.to_act()})
    record = state.record().to_json()
    assert record["seats"] == 16 and len(record["scores"]) == 3
    path = tmp_path / "game.json"
    for tail, ok in (([], True), ([0] * 13, True), ([0] * 12 + [1], False)):
        path.write_text(json.dumps({**record, "scores": record["scores"] + tail}))
        assert main(["replay", str(path), "--json"]) == (0 if ok else 1)


def test_replay_refuses_a_broken_record_clearly(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"game": "expedition", "rules": {}, "seats": 3, "seed": 1, "inputs": [[7, "deeper"]]}')
    assert main(["replay", str(path)]) == 2
    path.write_text("not json")
    assert main(["replay", str(path)]) == 2


def test_replay_refuses_a_record_without_a_result(tmp_path: Path) -> None:
    record = play_bots("expedition", {"preset": "table"}, ["odds", "cautious"], 3).record().to_json()
    path = tmp_path / "game.json"
    for missing in ("scores", "winners"):
        path.write_text(json.dumps({**record, missing: None}))
        result = gemtable("replay", str(path))
        assert result.returncode == 2 and "holds no result" in result.stderr, result.stderr
    del record["scores"]
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 2


def test_replay_refuses_a_result_recorded_for_an_unfinished_game(tmp_path: Path) -> None:
    record = play_bots("expedition", {"preset": "table"}, ["odds", "cautious"], 3).record().to_json()
    cut = {**record, "inputs": record["inputs"][: len(record["inputs"]) // 2]}  # the same result, half the moves
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(cut))
    result = gemtable("replay", str(path), "--json")
    assert result.returncode == 2 and "do not finish the game" in result.stderr, result.stderr
    assert result.stdout == ""


def test_bench_engine_prints_the_engine_the_reference_and_their_ratio() -> None:
    result = gemtable("bench", "engine", "--seconds", "0.5", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["engine"] > 0 and data["reference"] > 0 and data["players"] == 5 and data["bot"] == "cautious"
    assert abs(data["ratio"] - data["engine"] / data["reference"]) < 0.01
    assert data["why"]["decisions_per_game"] > 0
    assert data["batch"] > 0 and data["batch_ratio_to_reference"] > 0  # numpy comes with the test extra


def test_bench_bots_times_montecarlo_at_eight_players() -> None:
    result = gemtable("bench", "bots", "--games", "2", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["bot"] == "montecarlo" and data["players"] == 8 and data["decisions"] > 0
    assert data["p50_ms"] <= data["p99_ms"] <= data["max_ms"]


def test_unknown_names_are_clear_errors() -> None:
    result = gemtable("simulate", "--bots", "clairvoyant", "--games", "1")
    assert result.returncode == 2 and "clairvoyant" in result.stderr
    result = gemtable("simulate", "chess")
    assert result.returncode == 2 and "unknown game" in result.stderr


def test_replay_prints_the_names_and_places_a_tables_record_holds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = play_bots("expedition", {"preset": "table"}, ["odds", "cautious", "random"], 11).record().to_json()
    scores = record["scores"]
    path = tmp_path / "game.json"
    names = {"0": "Réka", "1": "שלום\x1b[2J", "2": "Gergő 🎲"}  # (a name cannot move the terminal's cursor)
    path.write_text(json.dumps({**record, "names": names}), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    places = [1 + sum(other > score for other in scores) for score in scores]
    assert [line.split()[0] for line in lines[1:4]] == [
        f"{p}{'st' if p == 1 else 'nd' if p == 2 else 'rd'}" for p in places
    ]
    assert (
        f"Réka (seat 0): {scores[0]}" in lines[1] and "שלום[2J (seat 1)" in lines[2] and "Gergő 🎲 (seat 2)" in lines[3]
    )
    assert main(["replay", str(path), "--json"]) == 0
    outcome = json.loads(capsys.readouterr().out)
    assert outcome["names"] == ["Réka", "שלום[2J", "Gergő 🎲"] and outcome["places"] == places
    path.write_text(json.dumps({k: v for k, v in record.items() if k != "names"}))  # a record without names
    assert main(["replay", str(path)]) == 0
    assert f"seat 0: {scores[0]}" in capsys.readouterr().out


@pytest.mark.parametrize("game", ["expedition", "booty"])
def test_replay_html_writes_one_page_that_needs_nothing_else(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--html``: the replay page with its styles, its script, the game's drawing module and the steps inside,
    no address of anything outside (it opens from the file); its steps are the record's, its words one language's."""
    import re
    from html.parser import HTMLParser

    from gemtable.games import find_manifest, replay_steps
    from gemtable.games.api import GameRecord

    bots = {"expedition": ["odds", "cautious", "random"], "booty": ["greedy", "random", "greedy"]}[game]
    record = play_bots(game, {}, bots, 5).record().to_json()
    names = {"0": "</script><b>Réka", "1": "שלום", "2": "Gergő"}  # (a name cannot end the page's script)
    path, out = tmp_path / "game.json", tmp_path / "replay.html"
    path.write_text(json.dumps({**record, "names": names}), encoding="utf-8")
    assert main(["replay", str(path), "--html", str(out), "--lang", "hu"]) == 0
    assert str(out) in capsys.readouterr().out
    page = out.read_text("utf-8")

    class Refs(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.found: list[tuple[str, str]] = []
            self.data: list[str] = []
            self.inside = False

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            self.found += [(tag, f"{k}={v}") for k, v in attrs if k in ("src", "href", "action")]
            self.inside = ("id", "replay-data") in attrs

        def handle_data(self, data: str) -> None:
            if self.inside:
                self.data.append(data)

    refs = Refs()
    refs.feed(page)
    assert refs.found == [("a", "href=#main")], refs.found  # nothing to fetch, no link off the page
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|/)""", page) and "@import" not in page
    assert page.lower().count("</script>") == 3 and "<b>Réka" not in page
    data = json.loads("".join(refs.data))
    assert data["lang"] == "hu" and data["strings"]["rp.next"].startswith("Tovább") and data["names"] == names
    manifest = find_manifest(game)
    steps = replay_steps(GameRecord.from_json(record), manifest.simultaneous)
    assert [{k: v for k, v in step.items() if k != "view"} for step in data["steps"]] == [
        {k: v for k, v in step.items() if k != "view"} for step in steps
    ]
    assert data["steps"][-1]["view"]["scores"] == record["scores"] and data["drawing"] is None
    assert 'id="replay-game"' in page and "export function draw" in page  # the game's drawing module, inside
