"""A whole Riichi game: rounds in order, dealer rotation, honba, deposits and the end of the game.

:class:`RiichiGame` is the :class:`~tenpai.engine.flow.GameFlow` the runner, the arena and the
record replay drive.  Walls come from a seed (the n-th hand of a game always gets the n-th wall
of that seed, so a duplicate tournament deals the same tiles to rotated seats) or from a
``wall_source`` callback that the replay uses to reproduce a record's tiles.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Literal

from tenpai import tiles as T
from tenpai.engine.flow import Decision, GameEnd
from tenpai.engine.wall import hand_shuffle, standard_tileset
from tenpai.events import Event
from tenpai.rules.riichi import compiled_round
from tenpai.rules.riichi.compiled_round import CompiledRound
from tenpai.rules.riichi.flow.round import RiichiRound, RoundResult, Scorer
from tenpai.rules.riichi.flow.wall import RoundWall
from tenpai.rules.riichi.ruleset import TENHOU, RiichiRules

__all__ = [
    "RiichiGame", "RoundKey", "can_end_game", "default_scorer", "hand_after", "next_hand",
    "rank_order", "settle_deposits",
]

RoundKey = tuple[int, int, int]
"""(round wind 0-3, kyoku 0-3, honba) of a hand about to start."""

WallSource = Callable[[int, RoundKey], RoundWall]
Engine = Literal["python", "compiled", "auto"]
"""Which round steps the hands: the Python engine (the reference), the compiled table
(:mod:`tenpai.rules.riichi.compiled_round`), or the compiled one where it is built and proven
for the rules and the default scorer is used."""


def default_scorer() -> Scorer:
    """The scorer of :mod:`tenpai.rules.riichi` (imported late to keep the engine light)."""
    from tenpai.rules.riichi.flow.scoring import score_win

    return score_win


def rank_order(scores: Sequence[int]) -> list[int]:
    """Seats from first place to last; ties go to the seat nearer the first dealer."""
    return sorted(range(len(scores)), key=lambda s: (-scores[s], s))


def settle_deposits(rules: RiichiRules, scores: Sequence[int], kyotaku: int) -> list[int]:
    """The final scores: riichi sticks still on the table go to the first place."""
    final = list(scores)
    if kyotaku:
        final[rank_order(final)[0]] += kyotaku * rules.riichi_deposit
    return final


def next_hand(
    rules: RiichiRules,
    key: RoundKey,
    scores: Sequence[int],
    kind: str,
    winners: Sequence[int],
    tenpai: Sequence[bool],
) -> RoundKey | None:
    """The hand that follows a hand ``key`` which ended so (``scores`` after it), or None when
    the game is over.  One function, so that :class:`RiichiGame` and the compiled game-end
    playouts (:mod:`tenpai.rules.riichi.game_rollout`) cannot disagree on the game's flow:
    the dealer repeats on a dealer win, a dealer tenpai at the draw or an abortive draw;
    honba grows on a repeat or a draw and is reset by a win off the dealer."""
    dealer = key[1] % rules.players
    if kind == "hora":
        renchan = dealer in winners
    elif kind == "exhaustive":
        renchan = bool(tenpai[dealer])
    else:
        renchan = True
    return hand_after(rules, key, scores, kind, renchan)


def hand_after(
    rules: RiichiRules, key: RoundKey, scores: Sequence[int], kind: str, renchan: bool,
) -> RoundKey | None:
    """:func:`next_hand` once the dealer's repeat (``renchan``) is known — what a caller holding
    only a hand's summary (the search's compiled playouts) can give."""
    bakaze, kyoku, honba = key
    n = rules.players
    if _game_over(rules, bakaze, kyoku, scores, kyoku % n, kind, renchan):
        return None
    if renchan:
        return bakaze, kyoku, honba + 1
    honba = 0 if kind == "hora" else honba + 1
    kyoku += 1
    if kyoku == n:
        kyoku = 0
        bakaze += 1
    return bakaze, kyoku, honba


def can_end_game(rules: RiichiRules, bakaze: int, kyoku: int) -> bool:
    """Whether the game may end with this hand without anyone going bust: the last scheduled
    hand (East 4 in tonpuu, South 4 in hanchan; East 3 / South 3 at three seats) or a hand
    after it (a dealer's repeat, the sudden-death extension). There the final ranks, not a
    model of the hands to come, decide what a hand's result is worth."""
    last_wind = 0 if rules.length == "tonpuu" else 1
    final = rules.players - 1  # the last hand of a wind round
    return bakaze > last_wind or (bakaze == last_wind and kyoku == final)


def _game_over(rules: RiichiRules, bakaze: int, kyoku: int, scores: Sequence[int], dealer: int,
               kind: str, renchan: bool) -> bool:
    r = rules
    if r.bust_below_zero and min(scores) < 0:
        return True
    if not can_end_game(r, bakaze, kyoku):
        return False
    last_wind = 0 if r.length == "tonpuu" else 1
    final = r.players - 1
    someone_reached = max(scores) >= r.target_points
    if renchan:
        if kind == "abortive":
            return False
        top = rank_order(scores)[0] == dealer
        stop_ok = r.agari_yame if kind == "hora" else r.tenpai_yame
        return someone_reached and top and stop_ok
    if not someone_reached and r.west_extension:
        # Sudden death until someone reaches the target, for at most the extension rounds.
        return bakaze >= last_wind + r.extension_rounds and kyoku == final
    return True


class RiichiGame(GameEnd):
    """One game (tonpuu or hanchan) under a :class:`RiichiRules` preset: four players, or three
    with ``rules.players == 3`` (three hands per wind round, the 108-tile set)."""

    def __init__(
        self,
        rules: RiichiRules = TENHOU,
        *,
        seed: int = 0,
        names: Sequence[str] | None = None,
        scorer: Scorer | None = None,
        wall_source: WallSource | None = None,
        scores: Sequence[int] | None = None,
        start: tuple[int, int, int, int] = (0, 0, 0, 0),
        engine: Engine = "auto",
    ) -> None:
        """``start`` = (round wind, kyoku, honba, deposits) lets a game begin mid-way, as
        one-round records and scenario tests do.  ``engine`` picks the round (:data:`Engine`):
        by default the compiled table where it is built and proven for the rules, which no
        caller can tell from the Python round but by speed (``game.round`` is still a
        :class:`RiichiRound`, built on demand)."""
        n = rules.players
        if names is None:
            names = "ABCD"[:n]
        if len(names) != n:
            raise ValueError(f"{len(names)} names for {n} players")
        if scores is not None and len(scores) != n:
            raise ValueError(f"{len(scores)} scores for {n} players")
        self.rules = rules
        self.players = n
        self.seed = seed
        self.scorer = scorer or default_scorer()
        self.tileset = self.tileset_for(rules)
        self.wall_source = wall_source or self._seeded_wall
        self.scores = list(scores) if scores is not None else [rules.starting_points] * n
        self.events: list[Event] = [Event("start_game", names=tuple(names))]
        self.bakaze, self.kyoku, self.honba, self.kyotaku = start
        self.hand_index = 0
        self.compiled = self._use_compiled(engine, rules, scorer)
        #: The hand in play, on whichever round steps it (see :attr:`round`).
        self.current: RiichiRound | CompiledRound | None = None
        self.results: list[RoundResult] = []
        self._start_round()

    @staticmethod
    def _use_compiled(engine: Engine, rules: RiichiRules, scorer: Scorer | None) -> bool:
        """Whether the hands run on the compiled table.  ``auto`` never changes a game: it
        takes the compiled table only where it is proven for the rules (and the scorer is the
        default one it agrees with), else the Python round."""
        if engine == "python":
            return False
        if engine not in ("compiled", "auto"):
            raise ValueError(f"unknown engine {engine!r}; known: python, compiled, auto")
        usable = compiled_round.available() and compiled_round.covers(rules) and scorer is None
        if engine == "compiled" and not usable:
            why = ("is not built or is switched off (TENPAI_PURE_PYTHON)"
                   if not compiled_round.available() else
                   "takes the default scorer only" if scorer is not None else
                   f"is not proven for the rules {rules.name!r}")
            raise ValueError(f"the compiled table {why}")
        return usable

    # ------------------------------------------------------------------ walls
    @staticmethod
    def tileset_for(rules: RiichiRules) -> list[int]:
        """The tile codes the rules play with: 136 (red fives included or not), or for three
        players 108 (2m-8m removed; the red fives of pinzu and souzu)."""
        if rules.players == 4:
            return standard_tileset(red_fives=rules.red_fives)
        tiles = standard_tileset(red_fives=3 if rules.red_fives else 0)
        return [t for t in tiles if not 1 <= T.kind_of(t) <= 7]

    def _seeded_wall(self, index: int, key: RoundKey) -> RoundWall:
        return RoundWall.from_shuffled(hand_shuffle(self.tileset, self.seed, index), self.players)

    # ------------------------------------------------------------------ GameFlow
    @property
    def round(self) -> RiichiRound | None:
        """The hand in play as a Python :class:`RiichiRound` (what search worlds and tools
        that read the engine's state take); None once the game is over.  On the compiled
        table it is built on the first request and kept up to date from then on
        (:func:`~tenpai.rules.riichi.compiled_round.reference_round`): readers of cheap facts
        (winds, honba, scores, pending decisions, events) read :attr:`current` instead, which
        both rounds answer without it."""
        rnd = self.current
        if rnd is None or isinstance(rnd, RiichiRound):
            return rnd
        return rnd.python_round()

    def pending(self) -> Sequence[Decision]:
        return [] if self.current is None else self.current.pending()

    def step(self, answers: Mapping[int, Event]) -> None:
        rnd = self.current
        assert rnd is not None
        rnd.step(answers)
        if rnd.done:
            self._finish_round(rnd)

    # ------------------------------------------------------------------ progression
    def _start_round(self) -> None:
        key = (self.bakaze, self.kyoku, self.honba)
        wall = self.wall_source(self.hand_index, key)
        cls = CompiledRound if self.compiled else RiichiRound
        self.current = cls(
            self.rules,
            wall,
            bakaze=self.bakaze,
            kyoku=self.kyoku,
            honba=self.honba,
            kyotaku=self.kyotaku,
            scores=self.scores,
            scorer=self.scorer,
            emit=self.events.append,
            hand_index=self.hand_index,
        )

    def _finish_round(self, rnd: RiichiRound | CompiledRound) -> None:
        result = rnd.result
        assert result is not None
        self.results.append(result)
        self.scores = list(rnd.scores)
        self.kyotaku = rnd.kyotaku
        self.hand_index += 1
        following = next_hand(self.rules, (self.bakaze, self.kyoku, self.honba), self.scores,
                              result.kind, result.winners, result.tenpai)
        if following is None:
            self._end_game()
            return
        self.bakaze, self.kyoku, self.honba = following
        self._start_round()

    def _end_game(self) -> None:
        self.scores = settle_deposits(self.rules, self.scores, self.kyotaku)
        self.kyotaku = 0
        self.current = None
        self._end_with(self.scores)
