"""The night's standings (``table/night.py``): a game's places, points by place, and the leaderboard across the
games of a night, whatever game each was."""

from __future__ import annotations

from typing import Any

from gemtable.table.night import places, standings


def record(number: int, names: dict[int, str], scores: list[int], winners: list[int], **more: Any) -> dict[str, Any]:
    return {
        "number": number,
        "game": more.pop("game", "expedition"),
        "names": {str(seat): name for seat, name in names.items()},
        "scores": scores,
        "winners": winners,
        **more,
    }


def test_a_games_places_share_ties_and_winners_come_first() -> None:
    rows = places(record(1, {0: "Ann", 1: "Bob", 2: "Cleo", 3: "Dan"}, [5, 9, 9, 2], [1, 2]))
    assert [(r.name, r.place, r.points, r.won) for r in rows] == [
        ("Bob", 1, 3, True),  # two below, and a win
        ("Cleo", 1, 3, True),
        ("Ann", 3, 1, False),
        ("Dan", 4, 0, False),
    ]


def test_the_winner_is_first_even_where_the_score_ties_are_broken_by_the_game() -> None:
    # Booty Hunter (or the expedition's relic tie-break): the winner has the same score as another.
    rows = places(record(2, {0: "Ann", 1: "Bob", 2: "Cleo"}, [7, 7, 3], [1], game="booty"))
    assert [(r.name, r.place, r.points) for r in rows] == [("Bob", 1, 3), ("Ann", 2, 1), ("Cleo", 3, 0)]


def test_seats_without_a_name_and_malformed_fields_are_left_out() -> None:
    assert places({"names": "x", "scores": None, "winners": 3}) == []
    rows = places({"names": {"0": "Ann", "1": "  ", "5": "Ghost"}, "scores": [1, 4, True], "winners": ["0", 0]})
    assert [(r.name, r.score, r.won) for r in rows] == [("Ann", 1, True)]


def test_the_leaderboard_adds_the_games_of_a_night_and_follows_a_person_across_games() -> None:
    night = [
        record(1, {0: "Ann", 1: "Bob", 2: "Cleo"}, [10, 4, 0], [0]),
        record(2, {0: "bob", 1: "ANN", 2: "Cleo", 3: "Bot Odds"}, [3, 8, 8, 1], [1, 2], bots={"3": "odds"}),
        record(3, {0: "Cleo", 1: "Bob", 2: "Ann"}, [2, 30, 12], [1], game="booty"),
    ]
    board = standings(night)
    got = [(s.name, s.bot, s.place, s.points, s.wins, s.games, s.places) for s in board]
    assert got == [
        ("Ann", False, 1, 3 + 3 + 1, 2, 3, [(1, 1), (2, 1), (3, 2)]),
        ("Bob", False, 2, 1 + 1 + 3, 1, 3, [(1, 2), (2, 3), (3, 1)]),
        ("Cleo", False, 3, 0 + 3 + 0, 1, 3, [(1, 3), (2, 1), (3, 3)]),
        ("Bot Odds", True, 4, 0, 0, 1, [(2, 4)]),
    ]
    assert board[0].to_json() == {
        "name": "Ann",
        "bot": False,
        "place": 1,
        "points": 7,
        "wins": 2,
        "games": 3,
        "places": [[1, 1], [2, 1], [3, 2]],
    }


def test_equal_points_wins_and_games_share_a_place_and_fewer_games_rank_higher() -> None:
    night = [
        record(1, {0: "Ann", 1: "Bob"}, [5, 1], [0]),
        record(2, {0: "Ann", 1: "Bob"}, [1, 5], [1]),
        record(3, {0: "Cleo", 1: "Dan", 2: "Eve"}, [9, 1, 0], [0]),
    ]
    got = [(s.name, s.place, s.points, s.games) for s in standings(night)]
    # Cleo: 2 + 1 in one game; Ann and Bob: 2 + 0 each in two games; the same points and wins, fewer games first.
    assert got == [("Cleo", 1, 3, 1), ("Ann", 2, 2, 2), ("Bob", 2, 2, 2), ("Dan", 4, 1, 1), ("Eve", 5, 0, 1)]


def test_a_bot_and_a_person_of_the_same_name_are_two_entries() -> None:
    night = [record(1, {0: "Odds", 1: "Odds"}, [3, 1], [0], bots={"1": "odds"})]
    assert [(s.name, s.bot, s.points) for s in standings(night)] == [("Odds", False, 2), ("Odds", True, 0)]


def test_no_games_no_standings() -> None:
    assert standings([]) == []
