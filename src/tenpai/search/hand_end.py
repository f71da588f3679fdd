"""How a played-out hand left the game: the record every playout backend returns.

Both backends end a playout here: the Python engine's
(:class:`~tenpai.search.playout.PythonPlayout`) with the finished round (:func:`hand_end`),
the compiled core's (:class:`~tenpai.search.compiled_playout.CompiledPlayout`) with the facts
of a result row (:func:`settle_hand`).  One settlement for both is part of what makes their
hand ends equal, so it sits below them and neither backend imports the other."""

from __future__ import annotations

from dataclasses import dataclass

from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.rules.riichi.game import hand_after
from tenpai.rules.riichi.ruleset import RiichiRules
from tenpai.search.placement import TablePosition, final_rank_probs

__all__ = ["HandEnd", "hand_end", "settle_hand"]


@dataclass(frozen=True, slots=True)
class HandEnd:
    """How a played-out hand left the game: the next hand's start, or the final scores."""

    start_scores: tuple[int, ...]
    scores: tuple[int, ...]
    kyotaku: int
    #: The next hand's position, or None when this hand ended the game.
    next_position: TablePosition | None
    #: Ranks by seat when the game ended (leftover deposits to first place), else None.
    final: tuple[tuple[float, ...], ...] | None = None


def hand_end(rnd: RiichiRound, start_scores: tuple[int, ...]) -> HandEnd:
    """The hand end of a finished round: dealer repeat, honba, wind rotation and the end of the
    game as :class:`~tenpai.rules.riichi.game.RiichiGame` applies them (tested against it)."""
    result = rnd.result
    assert result is not None, "the round has not ended"
    dealer = rnd.oya
    if result.kind == "hora":
        renchan = dealer in result.winners
    elif result.kind == "exhaustive":
        renchan = result.tenpai[dealer]
    else:
        renchan = True
    return settle_hand(rnd.rules, tuple(rnd.scores), rnd.kyotaku, rnd.bakaze, rnd.kyoku,
                       rnd.honba, result.kind, renchan, start_scores)


def settle_hand(
    rules: RiichiRules, scores: tuple[int, ...], kyotaku: int, bakaze: int, kyoku: int,
    honba: int, kind: str, renchan: bool, start_scores: tuple[int, ...],
) -> HandEnd:
    """:func:`hand_end` from the facts a compiled rollout returns instead of a round; the
    game's own flow (:func:`~tenpai.rules.riichi.game.hand_after`) decides what follows."""
    following = hand_after(rules, (bakaze, kyoku, honba), scores, kind, renchan)
    if following is None:
        ranks = final_rank_probs(scores, kyotaku, rules.riichi_deposit)
        return HandEnd(start_scores, scores, kyotaku, None,
                       tuple(tuple(r) for r in ranks))
    pos = TablePosition(scores, *following, kyotaku, rules.length)
    return HandEnd(start_scores, scores, kyotaku, pos)
