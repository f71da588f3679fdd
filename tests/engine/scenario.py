"""A scenario builder for Riichi rule tests: hands and draws written in compact notation."""

from __future__ import annotations

from collections.abc import Sequence

from tenpai import tiles as T
from tenpai.engine.wall import standard_tileset
from tenpai.events import Event
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.rules.riichi.flow.scoring import score_win
from tenpai.rules.riichi.flow.wall import RoundWall
from tenpai.rules.riichi.ruleset import TENHOU, RiichiRules


def table(
    hands: Sequence[str],
    draws: str = "",
    *,
    dora: str = "",
    rinshan: str = "",
    rules: RiichiRules = TENHOU,
    kyoku: int = 0,
    bakaze: int = 0,
    scores: Sequence[int] = (25000, 25000, 25000, 25000),
    honba: int = 0,
    kyotaku: int = 0,
) -> RiichiRound:
    """A round whose deal and draws are given; the rest of the wall is filled with leftovers."""
    wall = RoundWall.from_record(
        standard_tileset(red_fives=rules.red_fives),
        [T.parse(h) for h in hands],
        T.parse(draws),
        T.parse(dora),
        [],
        T.parse(rinshan),
    )
    return RiichiRound(
        rules,
        wall,
        bakaze=bakaze,
        kyoku=kyoku,
        honba=honba,
        kyotaku=kyotaku,
        scores=scores,
        scorer=score_win,
    )


def legal(rnd: RiichiRound, seat: int) -> list[Event]:
    for d in rnd.pending():
        if d.seat == seat:
            return list(d.legal)
    return []


def act(rnd: RiichiRound, seat: int, **match: object) -> Event:
    """Play the first legal action of ``seat`` whose fields equal ``match`` (others pass)."""
    options = [e for e in legal(rnd, seat) if all(getattr(e, k) == v for k, v in match.items())]
    assert options, f"no legal action {match} for seat {seat}: {legal(rnd, seat)}"
    answers = {d.seat: Event("none") for d in rnd.pending()}
    answers[seat] = options[0]
    rnd.step(answers)
    return options[0]


def discard(rnd: RiichiRound, seat: int, tile: str) -> Event:
    return act(rnd, seat, type="dahai", pai=T.parse(tile)[0])


def pass_all(rnd: RiichiRound) -> None:
    rnd.step({d.seat: Event("none") for d in rnd.pending()})
