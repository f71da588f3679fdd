"""Small builders so hand-written cases read like the hands they describe."""

from __future__ import annotations

from typing import Any

from tenpai import tiles as T
from tenpai.rules.riichi import Meld, WinContext, WinResult, evaluate


def meld(kind: str, text: str, from_seat: int | None = None) -> Meld:
    if from_seat is None and kind != "ankan":
        from_seat = 3
    return Meld(kind, tuple(T.parse(text)), from_seat)  # type: ignore[arg-type]


def ctx(closed: str, win: str, *melds: Meld, **kw: Any) -> WinContext:
    """``closed`` without the winning tile; ``win`` is added to it."""
    tiles = T.parse(closed) + T.parse(win)
    return WinContext(closed=tuple(tiles), win_tile=T.parse(win)[0], melds=melds, **kw)


def score(closed: str, win: str, *melds: Meld, **kw: Any) -> WinResult:
    result = evaluate(ctx(closed, win, *melds, **kw))
    assert result is not None, "expected a scoring hand"
    return result


def yaku_ids(result: WinResult) -> set[str]:
    return {name for name, _ in result.yaku}
