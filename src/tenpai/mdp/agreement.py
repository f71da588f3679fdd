"""How often the MDP player discards what Houou players discarded, decision by decision.

The player reads only its own hand, its melds and the masked events (``record_view``), so its
agreement is measured straight from the records without re-driving the engine: at every own
turn after a draw the recorded discard is compared with the player's choice among that turn's
discards.  Riichi declarations, discards while in riichi (no choice) and turns with one legal
discard are left out, as in the supervised agreement of docs/learning.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from tenpai.events import Event
from tenpai.learn.agent_agreement import AgreementCount, houou_records
from tenpai.mdp.record_view import RecordTurn, iter_turns

__all__ = ["AgreementCount", "count_agreement", "houou_games"]


Chooser = Callable[[RecordTurn, Sequence[Event]], Event]


def count_agreement(rounds_of_games: Iterable[Sequence[Sequence[Event]]],
                    choose: Chooser) -> AgreementCount:
    """Compare ``choose``'s discard with the recorded one at every eligible own turn."""
    out = AgreementCount()
    for rounds in rounds_of_games:
        n = hit = 0
        for rnd in rounds:
            seats = len(rnd[0].tehais)
            for seat in range(seats):
                for view in iter_turns(rnd, seat):
                    actual = view.actual
                    if actual is None or actual.type != "dahai":
                        continue
                    discards = [e for e in view.legal if e.type == "dahai"]
                    if len(discards) <= 1:
                        continue
                    n += 1
                    hit += choose(view, discards).pai == actual.pai
        out.games += 1
        out.discards += n
        out.agree += hit
        out.per_game.append((n, hit))
    return out


def houou_games(root: Path, split: str, limit: int) -> Iterable[Sequence[Sequence[Event]]]:
    """The rounds of the first ``limit`` four-player Houou games of ``split`` under ``root``."""
    for g in houou_records(root, split, limit):
        yield g.rounds
