"""How often an engine agent discards what Houou players discarded, measured by replaying the
records through the engine.

``tenpai eval agreement`` scores supervised models on features built from the records; the
agents of the search methods (``dropout``, ``mcts``) read the engine's own table instead — the
seat's hand and the public state through the table encoder of :mod:`tenpai.mcts` — so they can
only be asked at a live table.  The replay driver hands every engine decision to an observer
before the engine steps (:data:`tenpai.replay.driver.Observer`); at every own turn whose
recorded answer is a discard the agent chooses among that turn's discards and the two kinds are
compared.  Left out, as in the other agreement measures: riichi declarations (the declaring
discard is a choice among the riichi-legal tiles, made together with the declaration), turns
where every legal discard is one kind (after riichi, mostly), and calls.  Red and plain fives
count as one kind, as the discard heads of the supervised models do.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from tenpai.engine.flow import Decision
from tenpai.events import Event
from tenpai.tiles import kind_of

__all__ = ["AgreementCount", "Chooser", "agent_agreement", "houou_records"]


@dataclass(slots=True)
class AgreementCount:
    """Decisions compared and how many agreed, per game for a clustered interval."""

    games: int = 0
    discards: int = 0
    agree: int = 0
    per_game: list[tuple[int, int]] = field(default_factory=list)
    #: Records the engine could not replay to the end (their decisions up to the divergence
    #: still count; a correct engine has none on Tenhou's records).
    diverged: int = 0

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


class Chooser(Protocol):
    """An agent as the arena knows it (only ``act_batch`` is used)."""

    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]: ...


def houou_records(root: Path, split: str, limit: int) -> Iterator[Any]:
    """The first ``limit`` four-player Houou games (``tenpai.records`` games) of ``split``
    (all, train, dev or test: the hash split of the supervised data) under ``root``;
    unreadable files are skipped."""
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
            yield g


def _counted(decision: Decision, recorded: Event) -> list[Event] | None:
    """The discards to choose among at this decision, or None when it is not counted."""
    if recorded.type != "dahai":
        return None
    table = getattr(decision.observation, "_table", None)
    if table is not None and getattr(table, "reach_pending", None) is not None:
        return None  # the declaring discard
    discards = [e for e in decision.legal if e.type == "dahai"]
    if len({kind_of(e.pai) for e in discards if e.pai is not None}) <= 1:
        return None
    return discards


def agent_agreement(games: Iterable[Any], agent: Chooser, preset: str = "tenhou",
                    *, progress: Any = None) -> AgreementCount:
    """Replay each game through the engine, asking ``agent`` at every counted discard;
    ``progress`` (optional) is called with each finished game's (discards, agreed)."""
    from tenpai.replay.riichi import replay_riichi
    from tenpai.replay.runner import riichi_rules_for

    out = AgreementCount()
    tally = [0, 0]  # this game's counted discards and agreements

    def observe(decision: Decision, recorded: Event) -> None:
        discards = _counted(decision, recorded)
        if discards is None:
            return
        (choice,) = agent.act_batch([(decision.observation, discards)])
        tally[0] += 1
        tally[1] += kind_of(choice.pai) == kind_of(recorded.pai)  # type: ignore[arg-type]

    for game in games:
        tally[:] = [0, 0]
        result = replay_riichi(
            game.events(), rules=riichi_rules_for(game, preset),
            final_scores=None if game.truncated else game.final_scores,
            complete=False if game.truncated else None, observe=observe,
        )
        out.diverged += not result.ok
        out.games += 1
        out.discards += tally[0]
        out.agree += tally[1]
        out.per_game.append((tally[0], tally[1]))
        if progress is not None:
            progress(tally[0], tally[1])
    return out
