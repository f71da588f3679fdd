"""How the defensive agent reads a 108-tile table (``tenpai.rules.suits108``).

The push/fold rule of :mod:`tenpai.agents.defensive` is the same in both rule sets; what it
reads from the table is not, because the 108-tile rules (docs/suits108.md) lack several things
the Riichi reading leans on:

* **The ready declaration is the threat.**  An opponent that declared (``obs.declared``) has a
  ready, locked hand and wins at least ×2, so it weighs like a riichi.  The dealer gets no
  extra weight: here the dealer's wins are worth no more than anyone's.
* **No furiten, so safety is what was passed, not what was discarded.**  Riichi's genbutsu rests
  on furiten (a player can never ron a tile it discarded); this rule set has no such rule, so a
  player's own discards prove nothing.  What does prove something is a win *not* taken: a tile
  discarded after a player's hand last changed, followed by the game going on, was not one of
  its waits.  A declared hand never changes its waits (the engine allows only kongs that keep
  them), so every tile passed after the declaring discard, and every drawn tile it let go, is
  safe against it for the rest of the hand.  The same kinds drive the suji test of
  :func:`tenpai.agents.defensive.danger`, which is then exact: a two-sided shape waits on both
  its ends, so one end passed rules the shape out.  This assumes a player takes every win it
  is offered, as all built-in agents except ``random`` do.  A threat's own earlier discards
  are not safe but still rarely its waits (measured in docs/agents.md), so they go to
  ``Threat.discarded``, rated down.
* **No yaku, no honours, no dora, no red fives.**  Any open hand can win, so open threats are
  judged by their sets alone (one suit or all pongs is the visible value); honours count as
  fully seen, so they never show up as live tiles.
* **Value is the multiplier.**  The hand value is a "han" on the same points scale as Riichi's
  (1 = 1000 in the ``paper`` preset, each further step doubles): a normal hand 1, the ready
  declaration +1 (taken whenever offered, by ``efficiency`` and ``expert`` alike), pure series
  +2, bump series +1 or seven pairs +2 when in reach.
* **A shorter wall.**  56 tiles are left after the deal instead of Riichi's 70, so "early"
  (the one-away push) is scaled to :data:`SUITS108_POLICY`.

It builds on the shared types of :mod:`tenpai.agents.defensive_types`, and
:func:`tenpai.agents.defensive.reading_for` picks it for a 108-tile table.  It imports the rules
only when it reads such a table (for :func:`tenpai.rules.suits108.safety.passed_kinds`, which
the normal agent of dropout learning shares), so a Riichi ``defensive`` never loads them.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from tenpai import tiles as T
from tenpai.agents.defensive_types import DefenceReading, PushFoldPolicy, Threat

__all__ = [
    "SUITS108_POLICY",
    "SUITS108_READING",
    "find_threats_suits108",
    "hand_value_suits108",
    "is_suits108_observation",
]

#: Tiles left to draw after the deal: 70 in Riichi, 108 - 4 × 13 = 56 here.
_RIICHI_WALL, _SUITS108_WALL = 70, 56

#: The Riichi thresholds, with "early enough to push a one-away hand" at the same share of the
#: wall (36 of 70 tiles left is 29 of 56).
SUITS108_POLICY = PushFoldPolicy(
    one_away_wall=round(PushFoldPolicy().one_away_wall * _SUITS108_WALL / _RIICHI_WALL)
)


def is_suits108_observation(obs: Any) -> bool:
    """True for a 108-tile observation; checked without importing the rules (no 108-tile game
    can have produced ``obs`` if their observation module was never loaded)."""
    mod = sys.modules.get("tenpai.rules.suits108.observation")
    return mod is not None and isinstance(obs, mod.Suits108Observation)


def _shows_value(open_sets: Sequence[Any]) -> bool:
    """Two open sets already pointing at a multiplier: one suit (pure series) or two pongs or
    kongs (bump series)."""
    kinds = [T.kind_of(t) for m in open_sets for t in m.tiles]
    return len({T.suit_of(k) for k in kinds}) == 1 or all(m.type != "chi" for m in open_sets)


def find_threats_suits108(obs: Any) -> list[Threat]:
    """Opponents that declared a ready hand, or show three open sets (or two pointing at a
    multiplier); the Riichi weights, without the dealer's extra."""
    from tenpai.rules.suits108.safety import passed_kinds

    threats: list[Threat] = []
    declared = obs.declared
    for s in range(len(obs.melds)):
        if s == obs.seat:
            continue
        open_sets = [m for m in obs.melds[s] if m.is_open]
        if declared[s]:
            weight = 1.0
        elif len(open_sets) >= 3:
            weight = 0.7
        elif len(open_sets) == 2 and _shows_value(open_sets):
            weight = 0.4
        else:
            continue
        safe = passed_kinds(obs.events, s)
        own = {T.kind_of(e.pai) for e in obs.events if e.type == "dahai" and e.actor == s}
        threats.append(Threat(s, weight, frozenset(safe), frozenset(own - safe)))
    return threats


def hand_value_suits108(obs: Any) -> int:
    """The own hand's value as Riichi-scale han: 1 + the doublings it holds or has in reach."""
    melds = obs.melds[obs.seat]
    counts = obs.counts
    kinds = [k for k in range(27) if counts[k]]
    kinds += [T.kind_of(t) for m in melds for t in m.tiles]
    pairs = sum(1 for k in range(27) if counts[k] >= 2)
    han = 2  # a normal hand, doubled by the declaration (both presets let open hands declare)
    if len({T.suit_of(k) for k in kinds}) == 1:
        han += 2  # pure series, ×4
    if not melds and pairs >= 5:
        han += 2  # seven pairs, ×4
    elif all(m.type != "chi" for m in melds) and pairs >= 5 - len(melds):
        han += 1  # bump series, ×2: a pong or pair for every set still to make
    return han


def _visible(obs: Any) -> list[int]:
    """Visible copies, with the honours (absent from this set) counted as all gone."""
    seen: list[int] = obs.visible_counts()
    for k in range(27, 34):
        seen[k] = 4
    return seen


def _no_dora(obs: Any) -> frozenset[int]:
    return frozenset()


SUITS108_READING = DefenceReading(
    "suits108",
    threats=find_threats_suits108,
    hand_value=hand_value_suits108,
    visible=_visible,
    dora=_no_dora,
)
