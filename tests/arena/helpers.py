"""Small builders shared by the arena tests."""

from __future__ import annotations

from tenpai.arena.store import SeatRow


def row(deal: int, rotation: int, seat: int, agent: str, rank: int, **kw: int) -> SeatRow:
    """A stored seat with defaults for the tallies a test does not care about."""
    return SeatRow(
        deal=deal,
        rotation=rotation,
        seat=seat,
        agent=agent,
        score=kw.get("score", 25_000),
        rank=rank,
        hands=kw.get("hands", 4),
        wins=kw.get("wins", 0),
        deal_ins=kw.get("deal_ins", 0),
        riichi=kw.get("riichi", 0),
        calls=kw.get("calls", 0),
    )
