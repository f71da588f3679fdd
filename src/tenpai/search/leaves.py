"""Which leaf values a searched decision: a full playout, or the one-player ("solo") playout.

``TENPAI_SEARCH_LEAF`` (:class:`~tenpai.search.settings.SearchSettings.leaf`):

* ``playout`` (default): every candidate of every world is played to the end of the hand with
  the playout policy in every seat — the search as it was measured and registered;
* ``solo``: every leaf is the one-player playout — the searching seat plays on with the same
  policy while the others are passive (:class:`~tenpai.search.passive.PassivePolicy`: they
  discard what they draw and never win, call or declare riichi), so the hand ends in its win or
  an exhaustive draw, valued by the same leaf value;
* ``auto``: ``solo`` where nobody threatens at the decision (:func:`threatened`), else
  ``playout``.

Why that rule for "threatens".  The solo leaf drops two things a playout has: the others'
wins (which cost the searching seat points it cannot affect once they happen) and its own
deal-ins.  Its candidates meet the same worlds (common random numbers), so a loss they all
share — an opponent winning on its own draws — shifts every candidate's value alike and leaves
the choice alone; what the solo leaf cannot see is a loss that depends on the candidate, which
is a deal-in.  That is material when an opponent is ready or nearly so and the candidate's
discard may feed it: an opponent **in riichi** (ready, by declaration — one declared with the
discard on the table counts, its deposit not yet paid), or one with **two or more open melds**
(two calls leave at most seven concealed tiles, and a hand that opened twice is usually one or
two tiles from ready and racing).  One open meld, or a closed hand, says little: most such
hands are two or more steps away, and the search's worlds give them uniform tiles anyway.  The
rule reads only the public table, so it is the same in every world of the decision.
"""

from __future__ import annotations

from typing import Final

from tenpai.rules.riichi.flow.round import RiichiRound

__all__ = ["LEAVES", "OPEN_MELDS_THREAT", "leaf_for", "threatened"]

#: The settings' values (``TENPAI_SEARCH_LEAF``).
LEAVES: Final = ("playout", "solo", "auto")
#: Open melds from which an opponent counts as a threat (:func:`threatened`).
OPEN_MELDS_THREAT: Final = 2


def threatened(table: RiichiRound, seat: int) -> bool:
    """Whether an opponent of ``seat`` threatens at this table: in riichi (or declaring it on the
    discard in play), or with :data:`OPEN_MELDS_THREAT` open melds or more (module docstring)."""
    for other in range(table.players):
        if other == seat:
            continue
        if table.riichi[other] or table.reach_pending == other:
            return True
        if sum(1 for m in table.melds[other] if m.is_open) >= OPEN_MELDS_THREAT:
            return True
    return False


def leaf_for(setting: str, table: RiichiRound, seat: int) -> str:
    """The leaf of one searched decision, ``"solo"`` or ``"playout"``, under the setting."""
    if setting == "auto":
        return "playout" if threatened(table, seat) else "solo"
    if setting not in LEAVES:
        raise ValueError(f"unknown leaf {setting!r}; known: {', '.join(LEAVES)}")
    return setting
