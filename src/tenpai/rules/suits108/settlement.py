"""Who pays whom when a hand is won (the paper names no payments; docs/suits108.md says why
these).  Points only move between the four players, so their sum never changes."""

from __future__ import annotations

from tenpai.rules.suits108.ruleset import Suits108Rules

__all__ = ["win_payments"]


def win_payments(
    winner: int, payer: int | None, points: int, rules: Suits108Rules
) -> tuple[int, int, int, int]:
    """Point changes of the four seats for one win worth ``points``.

    ``payer`` is the discarder (or the player whose added kong was robbed); ``None`` means a
    self-draw, on which each opponent pays ``points``.  On a discard the discarder pays
    ``points`` or, with ``discard_payment="discarder_pays_all"``, three times that.
    """
    if not 0 <= winner < 4:
        raise ValueError(f"win_payments: winner seat {winner} is not 0-3")
    deltas = [0, 0, 0, 0]
    if payer is None:
        for s in range(4):
            if s != winner:
                deltas[s] = -points
        deltas[winner] = 3 * points
    else:
        if payer == winner or not 0 <= payer < 4:
            raise ValueError(f"win_payments: payer seat {payer} for winner {winner}")
        owed = points if rules.discard_payment == "discarder" else 3 * points
        deltas[payer] = -owed
        deltas[winner] = owed
    return (deltas[0], deltas[1], deltas[2], deltas[3])
