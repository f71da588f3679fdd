"""The ``ansi`` picture of a table: what a researcher needs to follow a game in a terminal.

Only what the acting player may see is printed in full: every seat's score, melds and river,
the round's public counters, and the acting player's own hand with its legal actions by id.
"""

from __future__ import annotations

from collections.abc import Sequence

from tenpai import tiles as T
from tenpai.engine.flow import Decision
from tenpai.engine.meld import Meld
from tenpai.env.adapters.base import RuleAdapter, decision_tiles

__all__ = ["render_ansi"]


def _meld(m: Meld) -> str:
    if not m.tiles:
        return f"{m.type} (face down)"
    return f"{m.type} {T.to_compact(m.tiles)}"


def render_ansi(
    adapter: RuleAdapter,
    agents: Sequence[str],
    acting: int | None,
    decision: Decision | None,
    *,
    finished: tuple[int, ...] = (),
) -> str:
    """The table as ``acting`` (a player index; None: nobody, e.g. after the game) sees it."""
    viewer = acting if acting is not None else 0
    obs = adapter.view(viewer)
    seat_player = {adapter.seat_of(p): p for p in range(len(agents))}
    scores = adapter.scores_by_seat(obs)
    lines = [f"{adapter.env_name} · {adapter.header(obs)}"]
    for seat in range(4):
        tags = adapter.seat_tags(obs, seat)
        melds = ", ".join(_meld(m) for m in obs.melds[seat]) or "-"
        river = T.to_compact(obs.rivers[seat], sort=False) or "-"
        lines.append(
            f"  {agents[seat_player[seat]]:<9} {tags:<16} {scores[seat]:>7}"
            f"  melds: {melds}  river: {river}"
        )
    if finished:
        result = ", ".join(f"{a} {s}" for a, s in zip(agents, finished))
        lines.append(f"game over · final scores: {result}")
        return "\n".join(lines)
    if acting is None or decision is None:
        return "\n".join(lines)
    drawn, offered = decision_tiles(decision.legal)
    hand = list(obs.hand)
    if drawn is not None and hand and hand[-1] == drawn:
        hand_text = f"{T.to_compact(hand[:-1])} + {T.to_mjai(drawn)} (drawn)"
    else:
        hand_text = T.to_compact(hand)
    situation = f"claim on {T.to_mjai(offered)}" if offered is not None else "own turn"
    lines.append(f"to act: {agents[acting]} ({situation}) · hand {hand_text}")
    space = adapter.actions
    legal = space.legal_ids(decision.legal)
    lines.append("legal: " + " · ".join(f"{i} {space.describe(i)}" for i in sorted(legal)))
    return "\n".join(lines)
