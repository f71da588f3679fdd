"""Build MCR hands with chosen tiles and drive them action by action, for rule tests."""

from __future__ import annotations

from collections.abc import Sequence

from tenpai.events import Event
from tenpai.rules.mcr.flow import MCRRules
from tenpai.rules.mcr.flow.round import MCRRound
from tenpai.rules.mcr.flow.rules import BOTZONE
from tenpai.rules.mcr.flow.wall import SeatWalls, SharedWall
from tenpai.rules.mcr.game import tileset_for
from tenpai.tiles import parse

#: One shared wall, no flowers, one hand: the Green Book's table without its extras.
PLAIN = BOTZONE.with_(name="plain", per_seat_walls=False)


def shared(hands: Sequence[str], front: str = "", back: str = "", *, rules: MCRRules = PLAIN,
           dealer: int = 0, wind: int = 0, short: bool = False) -> MCRRound:
    """A hand on one wall: ``front`` are the ordinary draws in order, ``back`` the replacement
    draws in order.  With ``short`` the wall holds exactly those tiles (to reach its end);
    otherwise the unused tiles of the set fill it."""
    hs = [parse(h) for h in hands]
    f, b = parse(front), parse(back)
    if short:
        wall = SharedWall(hs, [*f, *reversed(b)])
    else:
        wall = SharedWall.from_record(tileset_for(rules), hs, f, b)
    return MCRRound(rules, wall, dealer=dealer, prevalent_wind=wind)


def seat_walls(hands: Sequence[str], walls: Sequence[str], *, wind: int = 0) -> MCRRound:
    """A Botzone hand whose seat walls hold exactly the given tiles (drawn in order)."""
    return MCRRound(BOTZONE, SeatWalls([parse(h) for h in hands], [parse(w) for w in walls]),
                    dealer=0, prevalent_wind=wind)


def legal(rnd: MCRRound, seat: int) -> tuple[Event, ...]:
    for d in rnd.pending():
        if d.seat == seat:
            return d.legal
    return ()


def find(rnd: MCRRound, seat: int, typ: str, tile: str | None = None) -> Event | None:
    want = parse(tile)[0] if tile else None
    for e in legal(rnd, seat):
        if e.type == typ and (want is None or e.pai == want or want in e.consumed):
            return e
    return None


def do(rnd: MCRRound, seat: int, typ: str, tile: str | None = None) -> None:
    """``seat`` takes the legal action of that type (and tile); every other pending seat passes.
    An open claim window in which ``seat`` cannot do that is passed by everyone first."""
    e = find(rnd, seat, typ, tile)
    while e is None and rnd.phase in ("claim", "rob"):
        rnd.step({})
        e = find(rnd, seat, typ, tile)
    assert e is not None, f"{typ} {tile} is not legal for {seat}: {legal(rnd, seat)}"
    rnd.step({seat: e})


def pass_all(rnd: MCRRound) -> None:
    rnd.step({})


def last(rnd: MCRRound, typ: str) -> Event:
    return next(e for e in reversed(rnd.events) if e.type == typ)


def fans(e: Event) -> dict[str, int]:
    return dict(e.yaku)
