"""What might have been, against an oracle, over 1,000 random games (random and scripted decks, both presets,
hosts who end a game mid-cave): every walk-out is replayed one card further with the pure rules — a copy of the
game just before the reveal, the leaver choosing deeper instead, everyone else as they chose — and what the
copy shows must be what the view tells that player when the cave ends; the game's awards are recomputed from
what was watched; and the record replays to the same views.  A seeded loop: the games are pure (a few
seconds)."""

from __future__ import annotations

import copy
import random
from typing import Any

from gemtable.games.expedition import CAMP, DEEPER, Expedition, ExpeditionRules, rules_for
from gemtable.games.expedition.cards import RELIC, card_name
from gemtable.games.expedition.state import ExpeditionState

from ._helpers import consistent_script, replayed, views_json

GAMES = 1000


def fork(state: ExpeditionState) -> ExpeditionState:
    """A copy of a game that plays on apart from it (its lists and maps copied, its generator at the same point:
    ``copy.deepcopy`` would do, ten times slower, and would keep drawing from the original's generator, whose
    bound ``random`` it copies as itself)."""
    other = copy.copy(state)
    for name, value in vars(state).items():
        if isinstance(value, list):
            setattr(other, name, [list(v) if isinstance(v, list) else v for v in value])
        elif isinstance(value, dict):
            setattr(other, name, dict(value))
    other.rng = random.Random()
    other.rng.setstate(state.rng.getstate())
    other._random = other.rng.random
    return other


def one_more_card(before: ExpeditionState, choices: dict[int, str], seat: int) -> dict[str, Any]:
    """What the rules say card k + 1 would have done to ``seat`` had it gone deeper at this reveal: played out on
    a copy (the copy turns the card the real game turns next, or would have: the same generator, the same pile)."""
    other = fork(before)
    other.holds = False
    k = len(other.path)
    carried = other.carried[seat]
    other.apply_joint({**choices, seat: DEEPER})
    if len(other.path) == k:
        return {"kind": "none"}
    card = other.path[k]
    if other.collapsed_by is not None and len(other.path) == k + 1:
        assert other.buried[seat] == carried
        return {"kind": "collapse", "card": card_name(card)}
    if card > 0:
        return {"kind": "treasure", "card": card_name(card), "gems": other.carried[seat] - carried}
    return {"kind": "relic" if card == RELIC else "hazard", "card": card_name(card)}


class Watcher:
    """Plays a game at random and writes down, independently of ``hindsight.py``, what each walk-out would have
    met one card later, and what the awards are made of."""

    def __init__(self, rng: random.Random, rules: ExpeditionRules, seats: int, seed: int, script: Any) -> None:
        self.rng = rng
        self.state = Expedition.new(rules, seats, seed, script)
        if rng.random() < 0.3:
            self.state.hold_reveals()
        self.walkouts: list[tuple[int, int, int, int]] = []  # (cave, seat, gems + relics, cards on the path)
        self.survivors: list[list[int]] = []
        self.left_paths: list[int] = []
        self.losses: list[tuple[int, int, int]] = []  # (cave, seat, gems)
        self.told = 0
        self.ended_in_hold = False
        """The host ended the game during a held reveal (its record ends ``["end", "held"]``, and replays so)."""
        self.kinds: set[str] = set()

    def play(self) -> None:
        state, rng = self.state, self.rng
        while not state.is_over():
            if state.needs_roster():
                least = state.rules.min_players if state.cave == 0 else 1
                most = min(state.seats, state.rules.max_players)
                state.start_round(rng.sample(range(state.seats), rng.randint(least, most)))
                self.expected: dict[int, dict[str, Any]] = {}
                self.last_at: dict[int, int] = {}
                if state.phase != "choose":  # a scripted cave with no card at all
                    self.cave_ended()
            elif state.held():
                if rng.random() < 0.05:
                    self.ended_in_hold = True
                    self.end_early()
                else:
                    state.go_on()
                    if not state.held() and state.phase != "choose":  # the card collapsed the cave, or was none
                        self.cave_ended()
            elif rng.random() < 0.01:
                self.end_early()
            else:
                self.reveal({seat: DEEPER if rng.random() < 0.7 else CAMP for seat in sorted(state.to_act())})

    def reveal(self, choices: dict[int, str]) -> None:
        state = self.state
        k = len(state.path)
        leavers = [seat for seat, move in choices.items() if move == CAMP]
        for seat in leavers:
            self.expected[seat] = one_more_card(state, choices, seat)
            self.last_at[seat] = k
        state.apply_joint(choices)
        for seat in leavers:
            got = state.banked[seat] + sum(state.banked_relics[seat])
            self.walkouts.append((state.cave, seat, got, k))
            if self.expected[seat]["kind"] == "collapse":
                self.expected[seat] |= {"gems": state.banked[seat], "relics": len(state.banked_relics[seat])}
        if state.phase in ("roster", "over"):
            self.cave_ended()

    def end_early(self) -> None:
        self.state.end()
        self.cave_ended()

    def cave_ended(self) -> None:
        state = self.state
        last = state.is_over()
        for seat in state.present:
            if seat in self.last_at:
                continue
            self.expected[seat] = {"kind": "rode"}
            if state.collapsed_by is not None:
                self.losses.append((state.cave, seat, state.buried[seat]))
            elif state.deck_ran_out:
                got = state.banked[seat] + sum(state.banked_relics[seat])
                self.walkouts.append((state.cave, seat, got, len(state.path)))
                self.last_at[seat] = len(state.path) + 1
        for seat, outcome in self.expected.items():
            unplayed = self.last_at.get(seat) == len(state.path) and outcome["kind"] != "rode"
            if unplayed and not last:
                outcome = {"kind": "kept" if state.pile else "none"}  # a card that goes back is never named
            told = state.view(seat).to_json()["hindsight"]
            assert told == outcome, (state.cave, seat, told, outcome)
            self.told += 1
            self.kinds.add(outcome["kind"] + (" unturned" if unplayed and last else ""))
        assert state.view(None).to_json()["hindsight"] is None
        at = [a for a in self.last_at.values()]
        self.survivors.append(sorted(s for s, a in self.last_at.items() if a == max(at)) if at else [])
        self.left_paths.append(state.cave_ends[-1].path_left)

    def awards(self) -> dict[str, Any]:
        """The awards by brute force: sort every candidate by the documented order and take the first."""
        walkouts = [w for w in self.walkouts if w[2] > 0]
        boldest = min(walkouts, key=lambda w: (-w[2], -w[3], w[0], w[1]), default=None)
        caves: dict[int, int] = {}
        for survivors in self.survivors:
            for seat in survivors:
                caves[seat] = caves.get(seat, 0) + 1
        banked = {
            s: sum(
                w[2]
                for n, survivors in enumerate(self.survivors, 1)
                if s in survivors
                for w in self.walkouts
                if w[0] == n and w[1] == s
            )
            for s in caves
        }
        last = sorted(caves, key=lambda s: (-caves[s], -banked[s], s))
        paths = sorted(((g, n) for n, g in enumerate(self.left_paths, 1) if g > 0), key=lambda p: (-p[0], p[1]))
        losses = sorted((loss for loss in self.losses if loss[2] > 0), key=lambda loss: (-loss[2], loss[0], loss[1]))
        bold = None
        if boldest is not None:
            cave, seat = boldest[0], boldest[1]
            relics = sum(self.state.cave_ends[cave - 1].relics.get(seat, ()))
            bold = {"seat": seat, "cave": cave, "gems": boldest[2] - relics, "relics": relics, "card": boldest[3]}
        return {
            "boldest": bold,
            "last_out": {"seat": last[0], "caves": caves[last[0]]} if last else None,
            "left_behind": {"cave": paths[0][1], "gems": paths[0][0]} if paths else None,
            "unluckiest": {"seat": losses[0][1], "cave": losses[0][0], "gems": losses[0][2]} if losses else None,
        }


def test_what_might_have_been_matches_one_more_card_for_a_thousand_games() -> None:
    told = held_ends = 0
    kinds: set[str] = set()
    for n in range(GAMES):
        rng = random.Random(n)
        preset = rng.choice(["table", "classic"])
        rules = rules_for(preset, {"caves": rng.randint(1, 5), "path_split": rng.choice(["pooled", "per_card"])})
        seats = rng.randint(rules.min_players, 6)
        script = consistent_script(rules, rng) if rng.random() < 0.4 else None
        game = Watcher(rng, rules, seats, rng.getrandbits(32), script)
        game.play()
        final = game.state.view(None).to_json()
        assert final["awards"] == game.awards(), n
        again = replayed(game.state.record())
        assert views_json(again) == views_json(game.state)  # the record replays to the same hindsight and awards
        assert again.record() == game.state.record()
        held_ends += game.ended_in_hold
        told += game.told
        kinds |= game.kinds
    assert told > 5_000, told
    assert held_ends > 5, held_ends  # (games the host ended during a held reveal, replayed)
    every = {"rode", "treasure", "hazard", "collapse", "relic", "kept"}
    assert every | {f"{kind} unturned" for kind in ("treasure", "hazard", "collapse", "relic", "none")} <= kinds, kinds
