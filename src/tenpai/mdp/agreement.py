"""How often the MDP player discards what Houou players discarded, decision by decision.

The player reads only its own hand, its melds and the masked events (``record_view``), so its
agreement is measured straight from the records without re-driving the engine: at every own
turn after a draw the recorded discard is compared with the player's choice among that turn's
discards.  Riichi declarations, discards while in riichi (no choice) and turns with one legal
discard are left out, as in the supervised agreement of docs/learning.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tenpai.events import Event
from tenpai.mdp.record_view import RecordTurn, iter_turns

__all__ = ["AgreementCount", "count_agreement", "houou_games"]


@dataclass(slots=True)
class AgreementCount:
    """Decisions compared and how many agreed, per game for a clustered interval."""

    games: int = 0
    discards: int = 0
    agree: int = 0
    per_game: list[tuple[int, int]] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.agree / self.discards if self.discards else float("nan")

    def interval(self) -> tuple[float, float]:
        """95 % interval of the rate, clustered by game (decisions of one game are not
        independent): the ratio estimator's linearised variance, normal quantile."""
        games = self.per_game
        if len(games) < 2 or not self.discards:
            return (float("nan"), float("nan"))
        r = self.rate
        ss = sum((h - r * n) ** 2 for n, h in games)
        se = (len(games) / (len(games) - 1) * ss) ** 0.5 / self.discards
        return (r - 1.96 * se, r + 1.96 * se)


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
    from tenpai.learn.riichi import SPLIT, game_id_of
    from tenpai.records.errors import RecordError
    from tenpai.replay.runner import iter_record_files, load_record

    taken = 0
    for f in iter_record_files([root]):
        try:
            games = load_record(f)
        except RecordError:
            continue
        for g in games:
            if taken >= limit:
                return
            if g.rules.room != "houou" or g.players != 4 or not g.rounds:
                continue
            if split != "all" and SPLIT(game_id_of(g)) != split:
                continue
            taken += 1
            yield g.rounds
