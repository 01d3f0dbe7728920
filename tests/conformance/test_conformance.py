"""Every registered game, held to the same contract (the suite loops over the registry, so a game is
tested the day it is registered): its manifest agrees with its rules; replays are exact; illegal input
anywhere changes nothing; per-seat and joint moves reach the same state where the game is simultaneous;
no view holds another seat's pending choice or the game's seed; and a live table plays it to its end under
its declared dynamics, with bots, through a real server process and real WebSockets.

The test-only game ``tiny_game`` (registered in ``conftest.py``) runs through all of it."""

from __future__ import annotations

import asyncio
import json
import pickle
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gemtable.bots import bot_names, make_bot
from gemtable.client import Client
from gemtable.games import EXTRA, GameError, GameRecord, GameState, Manifest, game_part, manifests, replay
from gemtable.games.api import BadRules, Probes
from gemtable.server.pages import game_web
from tests.conformance.conftest import TINY
from tests.server.harness import ServerProcess

MANIFESTS = manifests()
NAMES = [m.name for m in MANIFESTS]
SECRETS = {"seed", "inputs", "script", "deck", "pending"}


def test_the_suite_covers_both_real_games_and_the_tiny_one() -> None:
    assert NAMES[:2] == ["expedition", "booty"] and "pick" in NAMES


def each_game() -> pytest.MarkDecorator:
    return pytest.mark.parametrize("manifest", MANIFESTS, ids=NAMES)


# --- driving a game by its API alone ------------------------------------------------------------------


def roster(manifest: Manifest) -> list[int]:
    game = manifest.game
    players = game.max_seats if manifest.seats_belong_to_chairs else min(game.min_seats + 1, game.max_seats)
    return list(range(players))


def new_game(manifest: Manifest, seed: int, preset: str | None = None) -> GameState:
    return manifest.game.new(manifest.rules_json(preset, {}), manifest.game.seats_per_game, seed)


def snapshot(state: GameState) -> str:
    views = [state.view(seat).to_json() for seat in [None, *range(state.seats)]]
    return json.dumps([views, state.record().to_json()], sort_keys=True, default=str)


def views(state: GameState) -> str:
    return json.dumps([state.view(seat).to_json() for seat in [None, *range(state.seats)]], sort_keys=True, default=str)


def step(manifest: Manifest, state: GameState, rng: random.Random, joint: bool) -> None:
    if state.needs_roster():
        state.start_round(roster(manifest))
        return
    moves = {seat: rng.choice(list(state.legal_moves(seat))) for seat in sorted(state.to_act())}
    if joint:
        state.apply_joint(moves)
    else:
        for seat, move in moves.items():
            state.apply(seat, move)


def play(manifest: Manifest, seed: int, joint: bool = False, preset: str | None = None) -> Iterator[GameState]:
    """The state before every step of a game with random legal moves, then the finished state."""
    state, rng = new_game(manifest, seed, preset), random.Random(seed)
    for _ in range(5000):
        yield state
        if state.is_over():
            return
        step(manifest, state, rng, joint)
    raise AssertionError("the game did not end in 5000 steps")


def finished(manifest: Manifest, seed: int, joint: bool = False, preset: str | None = None) -> GameState:
    *_, last = play(manifest, seed, joint, preset)
    return last


# --- the manifest agrees with the rules ---------------------------------------------------------------


@each_game()
def test_the_manifest_declares_what_the_rules_do(manifest: Manifest) -> None:
    game = manifest.game
    if manifest.seats_belong_to_chairs:
        assert game.seats_per_game == game.max_seats
    else:
        assert game.seats_per_game >= game.max_seats
    assert bot_names(manifest.name), "every game has at least one bot"
    assert manifest.stand_in in bot_names(manifest.name), "the stand-in is one of the game's bots"
    if manifest.named_bots is not None:
        assert make_bot(manifest.name, manifest.stand_in) is not None
        with pytest.raises(GameError):
            make_bot(manifest.name, "no such bot =")  # a name that is no rule: refused, not guessed
    for preset in manifest.presets:
        rules = manifest.rules_json(preset.name, {})
        for option in manifest.options:
            assert rules[option.key] == preset.options.get(option.key, option.default), (preset.name, option.key)
            manifest.rules_json(preset.name, {option.key: option.default})  # every default is accepted


@each_game()
def test_the_rules_decide_as_the_manifest_declares(manifest: Manifest) -> None:
    """``dynamics`` is declared once, in the manifest: a game of turns never asks two seats at once, and a
    simultaneous game does ask several (the table then keeps their choices secret until the last)."""
    widest = 0
    for seed in (1, 2):
        for state in play(manifest, seed):
            acting = len(state.to_act())
            widest = max(widest, acting)
            if not manifest.simultaneous:
                assert acting <= 1, "turn by turn: one seat at a time"
    assert widest >= (2 if manifest.simultaneous else 1)


@each_game()
def test_a_view_is_live(manifest: Manifest) -> None:
    """The view contract (``games/api.py``): a view taken before a move and read after it equals a fresh view,
    at every step of a game, for every seat and a spectator (the simulator keeps each seat's view for a whole
    game, so a game whose views were copies would show its bots a stale table)."""
    for seed in (1, 2):
        state, rng = new_game(manifest, seed), random.Random(seed)
        kept = {seat: state.view(seat) for seat in [None, *range(state.seats)]}
        while not state.is_over():
            step(manifest, state, rng, joint=seed == 2)
            for seat, view in kept.items():
                fresh = json.dumps(state.view(seat).to_json(), sort_keys=True, default=str)
                assert json.dumps(view.to_json(), sort_keys=True, default=str) == fresh, seat


@each_game()
def test_a_snapshot_is_its_view_detached(manifest: Manifest) -> None:
    """``view.snapshot()`` (what a user bot in its own process is sent): pickled and read back, it shows what
    the live view shows, at every step of a game, for every seat and a spectator, and it holds no seed."""
    for seed in (0xA5C3_E1F7_9B2D, 0x5A3C_1E7F_B9D2):
        state, rng = new_game(manifest, seed), random.Random(seed)
        while True:
            for seat in [None, *range(state.seats)]:
                view = state.view(seat)
                data = pickle.dumps(view.snapshot())
                assert pickle.loads(data).to_json() == view.to_json(), seat
                assert seed.to_bytes(6, "little") not in data  # the seed is not in it (pickle writes it so)
            if state.is_over():
                break
            step(manifest, state, rng, joint=seed & 1 == 1)


@each_game()
def test_options_outside_the_schema_are_refused(manifest: Manifest) -> None:
    with pytest.raises(BadRules):
        manifest.rules_json(None, {"no-such-option": 1})
    with pytest.raises(BadRules):
        manifest.rules_json("no-such-preset", {})
    for option in manifest.options:
        wrong: list[Any] = ["text", None, [1]] if option.type != "choice" else ["not-a-choice", None, True]
        if option.type == "int":
            wrong += [option.minimum - 1 if option.minimum is not None else None, 1.5, True]
        for value in wrong:
            with pytest.raises(BadRules):
                manifest.rules_json(None, {option.key: value})


# --- replays, illegal input, joint moves, secrets ------------------------------------------------------


@each_game()
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_replays_are_exact(manifest: Manifest, seed: int) -> None:
    state = finished(manifest, seed)
    record = state.record()
    assert record.scores == state.scores() and record.winners == state.winners()
    again = replay(GameRecord.from_json(json.loads(json.dumps(record.to_json()))))
    assert again.is_over()
    assert snapshot(again) == snapshot(state)


@each_game()
def test_every_preset_plays_to_its_end(manifest: Manifest) -> None:
    for preset in manifest.presets:
        state = finished(manifest, 7, preset=preset.name)
        played = len(state.scores())  # the seats that played: all of them, or the first ones of a game of players
        assert state.is_over() and 0 < played <= state.seats
        assert set(state.winners()) <= set(range(played)) and state.winners()


@each_game()
def test_a_game_ended_early_is_over_with_its_scores_as_they_stand_and_replays(manifest: Manifest) -> None:
    """``end()`` (the host ends the game): over at once, nothing left to do, the record says so and replays."""
    for seed in (1, 2):
        states = list(play(manifest, seed))
        for cut in (1, len(states) // 3, (2 * len(states)) // 3):
            state = new_game(manifest, seed)
            rng = random.Random(seed)
            for _ in range(cut):
                step(manifest, state, rng, joint=False)
            if state.is_over():
                continue
            state.end()
            assert state.is_over() and not state.to_act()
            assert all(not state.legal_moves(seat) for seat in range(state.seats))
            record = state.record()
            assert record.inputs[-1] == ["end"] and record.scores == state.scores()
            assert set(record.winners or []) <= set(range(len(state.scores())))
            again = replay(GameRecord.from_json(json.loads(json.dumps(record.to_json()))))
            assert again.is_over() and snapshot(again) == snapshot(state)
            with pytest.raises(GameError):
                state.end()


def illegal_inputs(state: GameState) -> Iterator[tuple[str, Any]]:
    acting = sorted(state.to_act())
    some_move = next((m for seat in acting for m in state.legal_moves(seat)), "x")
    for seat in [-1, state.seats, 10**9]:
        yield "apply", (seat, some_move)
    for seat in range(state.seats):
        if seat not in acting:
            yield "apply", (seat, some_move)
    for seat in acting:
        legal = set(state.legal_moves(seat))
        for move in ["", "\x00", "deeper camp", "9,9,9", "0" * 200, some_move + " "]:
            if move not in legal:
                yield "apply", (seat, move)
    if acting:
        yield "apply_joint", ({seat: "\x00" for seat in acting},)
        yield "apply_joint", ({state.seats: some_move},)
    if not state.needs_roster():
        yield "start_round", (list(range(state.seats)),)


@each_game()
def test_illegal_input_anywhere_changes_nothing(manifest: Manifest) -> None:
    for number, state in enumerate(play(manifest, 11)):
        if number % 3:
            continue
        before = snapshot(state)
        for method, args in illegal_inputs(state):
            with pytest.raises(GameError):
                getattr(state, method)(*args)
            assert snapshot(state) == before, (method, args)


@each_game()
def test_per_seat_and_joint_moves_reach_the_same_state(manifest: Manifest) -> None:
    for seed in (4, 5):
        one, joint = new_game(manifest, seed), new_game(manifest, seed)
        rng_one, rng_joint = random.Random(seed), random.Random(seed)
        while not one.is_over():
            step(manifest, one, rng_one, joint=False)
            step(manifest, joint, rng_joint, joint=True)
            assert views(one) == views(joint)
        assert joint.is_over() and joint.scores() == one.scores()


@each_game()
def test_no_view_holds_another_seats_pending_choice_or_the_seed(manifest: Manifest) -> None:
    rng = random.Random(3)
    for state in play(manifest, 3):
        for seat in [None, *range(state.seats)]:
            assert not SECRETS & keys(state.view(seat).to_json()), seat
        acting = sorted(state.to_act())
        if manifest.simultaneous and len(acting) > 1:
            # One seat decides: nobody else's view changes until the last decision reveals them all.
            probe = new_game(manifest, 3)
            for item in state.record().inputs:
                replay_input(probe, item)
            others = {
                seat: json.dumps(probe.view(seat).to_json(), sort_keys=True, default=str)
                for seat in [None, *range(probe.seats)]
                if seat != acting[0]
            }
            probe.apply(acting[0], rng.choice(list(probe.legal_moves(acting[0]))))
            for seat, seen in others.items():
                assert json.dumps(probe.view(seat).to_json(), sort_keys=True, default=str) == seen, seat


def replay_input(state: GameState, item: Any) -> None:
    if item[0] == "round":
        state.start_round(item[1])
    else:
        state.apply(int(item[0]), str(item[1]))


def keys(data: Any) -> set[str]:
    if isinstance(data, dict):
        return set(data) | {k for value in data.values() for k in keys(value)}
    if isinstance(data, list):
        return {k for value in data for k in keys(value)}
    return set()


@each_game()
def test_its_bots_choose_legal_moves_from_their_view(manifest: Manifest) -> None:
    for name in bot_names(manifest.name):
        bot, rng = make_bot(manifest.name, name), random.Random(2)
        state = new_game(manifest, 2)
        while not state.is_over():
            if state.needs_roster():
                state.start_round(roster(manifest))
                continue
            seat = min(state.to_act())
            legal = state.legal_moves(seat)
            move = bot.choose(state.view(seat), legal, rng)
            assert move in legal
            state.apply(seat, move)


# --- its web part, in its own folder --------------------------------------------------------------------


@each_game()
def test_its_web_part_is_in_its_folder_in_every_language(manifest: Manifest) -> None:
    """The page, rules page, styles and texts its manifest names are files of its own ``web/`` (found through
    its package, as the server finds them), and its texts hold, in en, hu and ja alike, its title, its presets,
    its offered options and its bots' names."""
    web = game_web(manifest)
    assert web is not None and manifest.page, f"{manifest.name} has no board of its own"
    for path in [manifest.page, manifest.rules_page, *manifest.styles]:
        assert path is None or (web / path).is_file(), path
    assert manifest.translations, "every game has texts"
    declared = {f"game.{manifest.name}", *(preset.label for preset in manifest.presets)}
    declared |= {f"bot.{bot}" for bot in bot_names(manifest.name)}
    for option in manifest.options:
        if option.offered:
            declared |= {option.label, *(f"{option.label}.{value}" for value in option.choices)}
    for stem in manifest.translations:
        keys = {lang: set(json.loads((web / f"{stem}.{lang}.json").read_text("utf-8"))) for lang in ("en", "hu", "ja")}
        assert keys["en"] == keys["hu"] == keys["ja"], stem
        declared -= keys["en"]
    assert not declared, declared


# --- the probes the load, soak and fuzz tools play a game through ---------------------------------------


def probes_of(manifest: Manifest) -> Probes:
    assert manifest.probes is not None, f"{manifest.name} names no probes: the soak and the fuzzer cannot play it"
    found: Probes = game_part(manifest, manifest.probes)
    return found


def seat_views(state: GameState) -> dict[int | None, Any]:
    return {seat: state.view(seat).to_json() for seat in [None, *range(state.seats)]}


@each_game()
def test_its_probes_keep_their_contract(manifest: Manifest) -> None:
    """``games/api.py``'s ``Probes``: an honest move is legal; a decision is the same in every view while it is
    open and never comes back; a view after a decision shows nobody a move they did not make; no view and no
    state breaks the game's own invariants."""
    probes = probes_of(manifest)
    shown = 0
    for seed in (1, 2, 3):
        state, rng = new_game(manifest, seed), random.Random(seed)
        decisions: list[Any] = []
        while not state.is_over():
            if state.needs_roster():
                state.start_round(roster(manifest))
                continue
            views = seat_views(state)
            open_now = {probes.decision(view) for view in views.values()}
            assert len(open_now) == 1, f"the views disagree on the decision open: {open_now}"
            assert next(iter(open_now)) not in decisions[:-1], "a decision came back"
            if not decisions or decisions[-1] != next(iter(open_now)):
                decisions.append(next(iter(open_now)))
            moves = {}
            for seat in sorted(state.to_act()):
                legal = state.legal_moves(seat)
                for eager in (False, True):
                    assert probes.honest_move(views[seat], legal, random.Random(seat), eager) in legal
                moves[seat] = probes.honest_move(views[seat], legal, rng, False)
            state.apply_joint(moves)
            for viewer, view in seat_views(state).items():
                assert probes.view_problems(view, viewer, state.is_over()) == [], viewer
                if viewer is None:
                    continue
                seen = probes.taken(view, viewer)
                assert seen is None or seen == moves.get(viewer), (viewer, seen, moves)
                shown += seen is not None
            if state.to_act():  # a decision is open again (not between rounds, not the end)
                assert probes.decision(state.view(None).to_json()) != decisions[-1], "a decision outlived its moves"
            assert probes.invariants(state) == ([], 0)
    assert shown, "the views never show a move that was made"
    assert probes.view_problems("not a view", None, False), "a view that is no object is a problem"


@each_game()
def test_a_game_the_host_ends_early_loses_nothing_and_replays(manifest: Manifest) -> None:
    """``end()`` at every point of a game (the host's End, a table switching away): nothing of the game appears or
    vanishes (its probes' invariants), and the record replays to the same scores."""
    probes = probes_of(manifest)
    for stop in (0, 1, 3, 8):
        state, rng = new_game(manifest, stop), random.Random(stop)
        moves = 0
        while not state.is_over() and moves <= stop:
            if state.needs_roster():
                state.start_round(roster(manifest))
                continue
            views = seat_views(state)
            state.apply_joint(
                {seat: probes.honest_move(views[seat], state.legal_moves(seat), rng, False) for seat in state.to_act()}
            )
            moves += 1
        if state.is_over():
            continue
        state.end()
        assert state.is_over() and probes.invariants(state) == ([], 0), stop
        assert replay(GameRecord.from_json(state.record().to_json())).scores() == state.scores()


# --- a live table, through a real server ---------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server process, told about the tiny game the way any server is: ``GEMTABLE_GAMES``."""
    mp = pytest.MonkeyPatch()
    mp.setenv(EXTRA, TINY)
    mp.syspath_prepend(str(Path(__file__).parents[2]))
    mp.setenv("PYTHONPATH", str(Path(__file__).parents[2]))
    proc = ServerProcess(tmp_path_factory.mktemp("conformance") / "data").start()
    try:
        yield proc
    finally:
        proc.stop()
        mp.undo()


@each_game()
def test_a_live_table_plays_it_to_its_end_with_bots(manifest: Manifest, server: ServerProcess) -> None:
    status, catalogue = server.get("/api/games")
    assert status == 200 and manifest.name in [g["name"] for g in catalogue["games"]]
    status, body = server.post(
        "/api/tables",
        {
            "game": manifest.name,
            "seconds": manifest.clock.default,
            "pause": 0.5,
            "countdown": 0,
            "beat": 0,
            "last_call": 0,
            "ready_check": False,
        },
    )
    assert status == 201, body
    code = body["code"]
    bots = manifest.game.min_seats - 1 or 1
    seen: list[dict[str, Any]] = []

    async def scenario() -> dict[str, Any]:
        host = await Client.open(server.ws)
        await host.join(code, "Host")
        for _ in range(bots):
            await host.add_bot(bot_names(manifest.name)[0])
        await host.until(lambda s: len(s["people"]) == bots + 1)
        await host.start()
        answered: set[tuple[int, int]] = set()
        while True:
            s = await host.until(
                lambda s: (
                    s["phase"] == "results"
                    or (bool(s["me"]["moves"]) and (s["game_number"], s["decision"]) not in answered)
                ),
                90,
            )
            seen.append(s)
            if s["phase"] == "results":
                return s
            answered.add((s["game_number"], s["decision"]))
            if len(answered) == 1:  # an illegal move on the wire: refused, and nothing changes
                errors = len(host.errors)
                await host.choose("\u0000 not a move", decision=s["decision"])
                assert (await host.error(after=errors))["code"] == "illegal-move"
                assert host.state is not None and host.state["decision"] == s["decision"]
                assert host.state["me"]["choice"] is None
            await host.choose(s["me"]["moves"][0], decision=s["decision"])

    final = asyncio.run(asyncio.wait_for(scenario(), 240))
    assert final["game"] == manifest.name and final["results"] == [1]
    for s in seen:
        acting = [p for p in s["people"] if p["to_act"]]
        if not manifest.simultaneous:
            assert len(acting) <= 1, "turn by turn: one seat at a time"
        assert all("choice" not in p for p in s["people"]), "nobody sees another's choice"
    if manifest.simultaneous:
        assert any(p["bot"] and p["chosen"] for s in seen for p in s["people"] if s["me"]["moves"]), (
            "a bot's choice waits, hidden, for the human's"
        )
    if manifest.seats_belong_to_chairs:
        assert all(p["seat"] == p["chair"] for p in final["people"] if p["seat"] is not None)
    status, record = server.get(f"/api/tables/{code}/games/1")
    assert status == 200 and record["game"] == manifest.name
    state = replay(GameRecord.from_json(record))
    assert state.is_over() and state.scores() == record["scores"]
