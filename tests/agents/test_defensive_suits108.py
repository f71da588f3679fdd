"""The defensive agent on the 108-tile rules, and its Riichi play pinned to before that change.

* Riichi: seeded games with ``defensive`` seats, their final scores, event counts and a digest
  of the whole event stream recorded on the code before the 108-tile reading was added; any
  change to Riichi play shows here.
* 108-tile: whole games (defensive in every seat, and mixed with expert / efficiency) with only
  legal actions and the rule set's invariants after every step; no read of Riichi-only fields;
  a hand-made fold against a ready declaration; the arena command line.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from tenpai import tiles as T
from tenpai.agents import make_agent
from tenpai.agents.defensive import (
    DISCARDED_FACTOR,
    RIICHI_READING,
    DefensiveAgent,
    Threat,
    danger,
    reading_for,
    threat_danger,
)
from tenpai.agents.defensive_suits108 import (
    SUITS108_POLICY,
    SUITS108_READING,
    find_threats_suits108,
    hand_value_suits108,
)
from tenpai.agents.efficiency import EfficiencyAgent
from tenpai.agents.rulesets import check_agent_rules, supported_rules
from tenpai.arena.games import make_game as arena_game
from tenpai.cli import arena as arena_cli
from tenpai.engine import Agent, GameFlow, play
from tenpai.events import Event
from tenpai.rules.suits108 import PAPER, Suits108Game, Suits108Wall
from tenpai.rules.suits108.invariants import check_game
from tenpai.rules.suits108.observation import Suits108Observation
from tenpai.rules.suits108.round import Suits108Round
from tenpai.rules.suits108.safety import passed_kinds

# --------------------------------------------------------------------------- Riichi, pinned

#: (seed, arena options, lineup) -> (final scores, events, dahai, reach, hora, ryukyoku, digest),
#: recorded on commit 844dfab (defensive.py before the 108-tile reading) with this same loop.
RIICHI_PINNED: list[tuple[int, dict[str, str], tuple[str, ...],
                          tuple[tuple[int, ...], int, int, int, int, int, str]]] = [
    (1, {}, ("defensive", "efficiency", "defensive", "efficiency"),
     ((29500, 16000, 22100, 32400), 571, 269, 7, 4, 1, "3b7c1cb767730982")),
    (2, {}, ("defensive", "defensive", "defensive", "defensive"),
     ((20500, 16400, 49300, 13800), 591, 274, 8, 4, 2, "2d047426671e83ba")),
    (3, {}, ("defensive", "expert", "efficiency", "random"),
     ((42400, 16400, 18800, 22400), 456, 215, 3, 3, 1, "b50e0b1fa162034c")),
    (4, {"length": "hanchan"}, ("efficiency", "defensive", "efficiency", "defensive"),
     ((6000, 37900, 30900, 25200), 1195, 563, 11, 10, 2, "80fc65c686edd631")),
    (5, {"preset": "tenhou_sanma"}, ("defensive", "efficiency", "defensive"),
     ((38200, 21900, 44900), 295, 129, 5, 2, 1, "a18bfceca9d38270")),
]


@pytest.mark.parametrize(("seed", "options", "lineup", "expected"), RIICHI_PINNED)
def test_riichi_play_is_unchanged(
    seed: int, options: dict[str, str], lineup: tuple[str, ...],
    expected: tuple[tuple[int, ...], int, int, int, int, int, str],
) -> None:
    game = arena_game("riichi", seed, [f"p{i}" for i in range(len(lineup))], options)
    play(game, [make_agent(n, seed * 10 + i) for i, n in enumerate(lineup)])
    blob = json.dumps([e.to_mjai() for e in game.events], sort_keys=True, separators=(",", ":"))
    counts = [sum(1 for e in game.events if e.type == t)
              for t in ("dahai", "reach", "hora", "ryukyoku")]
    got = (tuple(game.final_scores), len(game.events), *counts,
           hashlib.sha256(blob.encode()).hexdigest()[:16])
    assert got == expected


def test_riichi_observations_keep_the_riichi_reading() -> None:
    game = arena_game("riichi", 1, "ABCD", {})
    (d,) = game.pending()
    assert reading_for(d.observation) is RIICHI_READING
    assert DefensiveAgent().policy != SUITS108_POLICY  # only the wall threshold differs
    assert DefensiveAgent().suits108_policy == SUITS108_POLICY


# --------------------------------------------------------------------------- 108-tile games


class _LegalOnly:
    """Asserts that the wrapped agent answers every decision with one of its legal actions."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.name = agent.name
        self.decisions = 0

    def act(self, observation: Any, legal: Sequence[Event]) -> Event:
        action = self.agent.act(observation, legal)
        assert action in legal, (action, legal)
        self.decisions += 1
        return action

    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]:
        return [self.act(o, legal) for o, legal in requests]


def _check(game: GameFlow) -> None:
    assert isinstance(game, Suits108Game)
    check_game(game)


def _play_108(seed: int, lineup: Sequence[str]) -> tuple[Suits108Game, list[_LegalOnly]]:
    game = Suits108Game(PAPER, seed=seed)
    seats = [_LegalOnly(make_agent(n, seed * 4 + i)) for i, n in enumerate(lineup)]
    play(game, seats, check=_check)
    assert game.done and sum(game.final_scores) == 4 * PAPER.starting_points
    return game, seats


@pytest.mark.parametrize("seed", range(4))
def test_defensive_in_every_seat_plays_whole_legal_games(seed: int) -> None:
    game, seats = _play_108(seed, ["defensive"] * 4)
    assert all(s.decisions > 0 for s in seats)
    assert sum(1 for e in game.events if e.type == "start_kyoku") == PAPER.hands_per_game


@pytest.mark.parametrize(("seed", "lineup"), [
    (4, ("defensive", "expert", "defensive", "expert")),
    (5, ("expert", "defensive", "efficiency", "defensive")),
    (6, ("defensive", "efficiency", "defensive", "efficiency")),
    (7, ("efficiency", "expert", "defensive", "random")),
])
def test_defensive_with_other_agents_plays_whole_legal_games(
    seed: int, lineup: tuple[str, ...]
) -> None:
    _play_108(seed, lineup)


class _StrictObservation(Suits108Observation):
    """A 108-tile observation whose Riichi-only aliases fail when read."""

    __slots__ = ()

    @property
    def dora_markers(self) -> tuple[int, ...]:
        raise AssertionError("read dora markers on a 108-tile table")

    @property
    def riichi(self) -> tuple[bool, ...]:
        raise AssertionError("read riichi (not the ready declaration) on a 108-tile table")

    @property
    def honba(self) -> int:
        raise AssertionError("read honba on a 108-tile table")

    @property
    def kyotaku(self) -> int:
        raise AssertionError("read riichi sticks on a 108-tile table")


def test_defensive_reads_no_riichi_only_field(monkeypatch: pytest.MonkeyPatch) -> None:
    def strict(table: Suits108Round, seat: int) -> Suits108Observation:
        return _StrictObservation(table, seat)

    monkeypatch.setattr(Suits108Round, "_observe", strict)
    threatened = 0
    for seed in (8, 9):
        game = Suits108Game(PAPER, seed=seed)
        agents = [DefensiveAgent(seed * 4 + i) for i in range(4)]
        while not game.done:
            answers = {}
            for d in game.pending():
                threatened += bool(find_threats_suits108(d.observation))
                answers[d.seat] = agents[d.seat].act(d.observation, d.legal)
            game.step(answers)
    assert threatened > 0  # the defence itself ran, not only the efficiency play


# --------------------------------------------------------------------------- a hand-made fold


def _round(hands: Sequence[str], draws: str) -> Suits108Round:
    wall = Suits108Wall.from_draws([T.parse(h) for h in hands], T.parse(draws), [])
    return Suits108Round(PAPER, wall, hand_index=0, dealer=0, scores=(25000,) * 4)


def _answer(rnd: Suits108Round, seat: int, **match: object) -> None:
    """``seat`` plays the legal action with these fields; every other pending seat passes."""
    (d,) = [d for d in rnd.pending() if d.seat == seat]
    (action,) = [e for e in d.legal if all(getattr(e, k) == v for k, v in match.items())][:1]
    answers = {p.seat: Event("none") for p in rnd.pending()}
    answers[seat] = action
    rnd.step(answers)


def _pass_claims(rnd: Suits108Round) -> None:
    if rnd.pending() and all(e.type != "dahai" for d in rnd.pending() for e in d.legal):
        rnd.step({d.seat: Event("none") for d in rnd.pending()})


def _after_a_declaration() -> Suits108Round:
    """Seat 1 declares ready (waiting on 5p) with its declaring discard 9s; seat 2 then
    discards 5s, which seat 1 does not win on; seat 3 draws and must decide."""
    rnd = _round(
        [
            "111m999m111p999p3s",  # dealer: draws 2s and lets it go
            "123m456m789m123p5p",  # draws 9s: ready whichever of 5p / 9s it keeps
            "234m666p2223456s",  # draws 7s, discards 5s after the declaration
            "2578m3478p14568s",  # defensive, three away from ready; holds 5s in 456s
        ],
        "2s9s7s6p",
    )
    _answer(rnd, 0, type="dahai", pai=T.parse("2s")[0])
    _pass_claims(rnd)
    _answer(rnd, 1, type="reach")
    _answer(rnd, 1, type="dahai", pai=T.parse("9s")[0])
    _pass_claims(rnd)
    assert rnd.declared[1]
    _answer(rnd, 2, type="dahai", pai=T.parse("5s")[0])
    _pass_claims(rnd)
    return rnd


def test_defensive_folds_to_a_tile_passed_after_the_declaration() -> None:
    rnd = _after_a_declaration()
    (d,) = rnd.pending()
    assert d.seat == 3
    obs = d.observation
    assert reading_for(obs) is SUITS108_READING
    (threat,) = find_threats_suits108(obs)
    assert threat.seat == 1 and threat.weight == 1.0
    s5, s9 = (T.kind_of(T.parse(t)[0]) for t in ("5s", "9s"))
    # 5s was passed after the declaration: safe.  The declaring discard 9s (no furiten here)
    # and the dealer's 2s before the declaration prove nothing; 9s, the declarer's own
    # discard, is only rated down.
    assert threat.safe == frozenset({s5}) and threat.discarded == frozenset({s9})
    choice = DefensiveAgent(0).act(obs, d.legal)
    assert choice.type == "dahai" and choice.pai is not None
    assert T.kind_of(choice.pai) == s5  # breaks its complete 456s to stay safe
    plain = EfficiencyAgent(0).act(obs, d.legal)
    assert plain.pai is not None and T.kind_of(plain.pai) != s5


def test_own_discards_are_rated_down_not_safe() -> None:
    seen = [0] * 34
    s4, s7 = (T.kind_of(T.parse(t)[0]) for t in ("4s", "7s"))
    riichi = Threat(1, 1.0, frozenset({s4}))
    assert threat_danger(s4, riichi, seen) == danger(s4, riichi.safe, seen) == 0.0
    assert threat_danger(s7, riichi, seen) == danger(s7, riichi.safe, seen)
    ready = Threat(1, 1.0, frozenset(), frozenset({s4}))
    assert threat_danger(s4, ready, seen) == DISCARDED_FACTOR * danger(s4, frozenset(), seen) > 0
    # suji: the 5-6 two-sided wait on 4-7 is as unlikely as 4 being a wait
    assert threat_danger(s7, ready, seen) == danger(s7, frozenset({s4}), seen)
    assert threat_danger(s7, ready, seen) < danger(s7, frozenset(), seen)


def test_passed_tiles_reset_when_an_undeclared_hand_changes() -> None:
    rnd = _after_a_declaration()
    obs = rnd.pending()[0].observation
    # Seat 2 discarded 5s since seat 0's last discard, but seat 0 has not passed on it for a
    # new hand yet; after seat 2's own discard its earlier passes say nothing.
    assert passed_kinds(obs.events, 2) == set()
    assert passed_kinds(obs.events, 0) == {T.kind_of(T.parse(t)[0]) for t in ("9s", "5s")}


def test_hand_value_counts_the_multipliers_in_reach() -> None:
    rnd = _after_a_declaration()
    obs = rnd.pending()[0].observation
    assert hand_value_suits108(obs) == 2  # a normal hand, ×2 once it declares


# --------------------------------------------------------------------------- arena


def test_the_arena_seats_defensive_at_a_108_tile_table(tmp_path: Path) -> None:
    assert supported_rules("defensive") == frozenset({"riichi", "suits108"})
    check_agent_rules("defensive", "suits108")
    app = typer.Typer()
    arena_cli.register(app)
    res = CliRunner().invoke(app, [
        "arena", "--rules", "suits108", "--agents", "defensive,expert,defensive,expert",
        "--games", "4", "--seed", "1", "--json", "--workers", "1",
        "--db", str(tmp_path / "a.db"),
    ])
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout[res.stdout.index("{"):])
    assert summary["games"] == 4 and summary["config"]["rules"] == "suits108"
    assert {a["agent"] for a in summary["agents"]} == {"defensive", "expert"}
