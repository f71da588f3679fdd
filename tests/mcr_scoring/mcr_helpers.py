"""Small builders for MCR scoring tests: hands from compact notation, fans as a dict."""

from __future__ import annotations

from typing import Any

from tenpai.rules.mcr import MCRContext, MCRResult, Meld, evaluate
from tenpai.tiles import parse


def k(text: str) -> int:
    """The single kind written in compact notation ("5m", "7z")."""
    (tile,) = parse(text)
    return tile


def chow(text: str) -> Meld:
    return Meld.chow(k(text))


def pung(text: str) -> Meld:
    return Meld.pung(k(text))


def kong(text: str, how: Any = "exposed_kong") -> Meld:
    return Meld.kong(k(text), how)


def hand(concealed: str, win: str, melds: tuple[Meld, ...] = (), **kw: Any) -> MCRContext:
    """A context from the concealed tiles (winning tile included) and the winning tile."""
    return MCRContext(tuple(parse(concealed)), k(win), melds, **kw)


def score(concealed: str, win: str, melds: tuple[Meld, ...] = (), **kw: Any) -> MCRResult:
    result = evaluate(hand(concealed, win, melds, **kw))
    assert result is not None, f"{concealed} + {melds} does not win"
    return result
