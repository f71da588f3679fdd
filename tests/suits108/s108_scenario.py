"""A scenario builder for 108-tile rule tests: deals and draws written in compact notation."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.rules.suits108 import PAPER, TILESET, Suits108Rules, Suits108Wall
from tenpai.rules.suits108.round import Suits108Round


def table(
    hands: Sequence[str],
    draws: str = "",
    *,
    replacements: str = "",
    rules: Suits108Rules = PAPER,
    dealer: int = 0,
    scores: Sequence[int] = (25000, 25000, 25000, 25000),
) -> Suits108Round:
    """A hand whose deal, front draws and kong replacements are given; the rest is filled in.

    ``hands`` are listed by seat; an empty string gets 13 of the unused tiles, dealt round the
    empty seats in order.  The dealer's first draw is the first of ``draws``.
    """
    fixed = [T.parse(h) for h in hands]
    left = Counter(TILESET)
    left.subtract([*(t for h in fixed for t in h), *T.parse(draws), *T.parse(replacements)])
    spare = sorted(left.elements())
    empty = [s for s, h in enumerate(fixed) if not h]
    for i, s in enumerate(empty):
        fixed[s] = spare[i :: len(empty)][:13]
    wall = Suits108Wall.from_draws(fixed, T.parse(draws), T.parse(replacements))
    return Suits108Round(rules, wall, hand_index=0, dealer=dealer, scores=scores)


def legal(rnd: Suits108Round, seat: int) -> list[Event]:
    for d in rnd.pending():
        if d.seat == seat:
            return list(d.legal)
    return []


def types(rnd: Suits108Round, seat: int) -> set[str]:
    return {e.type for e in legal(rnd, seat)}


def act(rnd: Suits108Round, seat: int, **match: object) -> Event:
    """Play the first legal action of ``seat`` whose fields equal ``match`` (others pass)."""
    options = [e for e in legal(rnd, seat) if all(getattr(e, k) == v for k, v in match.items())]
    assert options, f"no legal action {match} for seat {seat}: {legal(rnd, seat)}"
    answers = {d.seat: Event("none") for d in rnd.pending()}
    answers[seat] = options[0]
    rnd.step(answers)
    return options[0]


def discard(rnd: Suits108Round, seat: int, tile: str) -> Event:
    return act(rnd, seat, type="dahai", pai=T.parse(tile)[0])


def pass_all(rnd: Suits108Round) -> None:
    rnd.step({d.seat: Event("none") for d in rnd.pending()})


def last(rnd: Suits108Round, kind: str) -> Event:
    return next(e for e in reversed(rnd.events) if e.type == kind)
