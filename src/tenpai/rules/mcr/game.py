"""A whole MCR game: hands in order, seat changes between rounds, scores by player.

:class:`MCRGame` is the :class:`~tenpai.engine.flow.GameFlow` the runner, the arena and the
replay drive.  ``mcr_official`` plays four prevalent-wind rounds of four hands, the dealer
moving on every hand and the players changing seats between rounds
(:mod:`tenpai.rules.mcr.flow.seating`); ``botzone`` plays one hand with position = player.

Inside a hand everything (events, observations, legal actions) is in table positions;
``pending()`` names the *player* who must decide and ``step()`` takes answers by player, so an
agent list indexed by player stays right when seats change.  Walls come from a seed (the n-th
hand of a game always gets the n-th wall of that seed) or from a ``wall_source`` callback that
the replay uses to reproduce a record's tiles.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from tenpai.engine.flow import Decision, GameEnd
from tenpai.engine.wall import SplitMix64, hand_shuffle, standard_tileset
from tenpai.events import Event
from tenpai.rules.mcr.flow.round import HandResult, MCRRound
from tenpai.rules.mcr.flow.rules import MCR_OFFICIAL, MCRRules
from tenpai.rules.mcr.flow.seating import dealer_position, players_at
from tenpai.rules.mcr.flow.wall import MCRWall, SeatWalls, SharedWall

__all__ = ["HandKey", "MCRGame", "WallSource", "tileset_for"]

HandKey = tuple[int, int, int]
"""(prevalent wind 0-3, hand number in the round 0-3, dealer position) of a hand to start."""

WallSource = Callable[[int, HandKey], MCRWall]


def tileset_for(rules: MCRRules) -> list[int]:
    """The tile codes a preset plays with: 136 tiles, plus the 8 flowers when it uses them."""
    return standard_tileset(red_fives=0, flowers=rules.flowers)


class MCRGame(GameEnd):
    """Four players, one MCR game under an :class:`MCRRules` preset."""

    def __init__(
        self,
        rules: MCRRules = MCR_OFFICIAL,
        *,
        seed: int = 0,
        names: Sequence[str] = ("A", "B", "C", "D"),
        wall_source: WallSource | None = None,
        prevalent_wind: int | None = None,
    ) -> None:
        """``prevalent_wind`` fixes the wind of a one-hand game (Botzone draws it at random:
        without it the seed does); a full game always starts in East."""
        if len(names) != 4:
            raise ValueError(f"MCRGame needs four names, got {len(names)}")
        if prevalent_wind is not None and not 0 <= prevalent_wind <= 3:
            raise ValueError(f"prevalent_wind must be 0-3, got {prevalent_wind}")
        self.rules = rules
        self.seed = seed
        self.tileset = tileset_for(rules)
        self.wall_source = wall_source or self._seeded_wall
        self.scores = [0, 0, 0, 0]
        self.events: list[Event] = [Event("start_game", names=tuple(names))]
        if rules.full_game:
            self.round_wind = 0
        elif prevalent_wind is not None:
            self.round_wind = prevalent_wind
        else:
            self.round_wind = SplitMix64(seed ^ 0x3A11D).below(4)
        self.hand_in_round = 0
        self.hand_index = 0
        self.round: MCRRound | None = None
        self.results: list[HandResult] = []
        self.seating: tuple[int, ...] = (0, 1, 2, 3)
        self._position = [0, 1, 2, 3]
        self._start_hand()

    # ------------------------------------------------------------------ walls
    def _seeded_wall(self, index: int, key: HandKey) -> MCRWall:
        tiles = hand_shuffle(self.tileset, self.seed, index)
        if self.rules.per_seat_walls:
            return SeatWalls.from_shuffled(tiles)
        return SharedWall.from_shuffled(tiles, dealer=key[2])

    # ------------------------------------------------------------------ GameFlow
    def player_at(self, position: int) -> int:
        """The player sitting at a table position in the current hand."""
        return self.seating[position]

    def position_of(self, player: int) -> int:
        return self._position[player]

    def pending(self) -> Sequence[Decision]:
        """Decisions of the current hand, each naming the *player* who must make it."""
        if self.round is None:
            return []
        pending = self.round.pending()
        if self.seating == (0, 1, 2, 3):
            return pending
        return [Decision(self.seating[d.seat], d.legal, d.observation) for d in pending]

    def step(self, answers: Mapping[int, Event]) -> None:
        """Apply one answer per pending player (actions carry table positions, as offered)."""
        assert self.round is not None, "the game is over"
        if self.seating != (0, 1, 2, 3):
            answers = {self._position[p]: a for p, a in answers.items()}
        self.round.step(answers)
        if self.round.done:
            self._finish_hand(self.round)

    # ------------------------------------------------------------------ progression
    def _start_hand(self) -> None:
        rotate = self.rules.seat_rotation
        self.seating = players_at(self.round_wind, rotate) if self.rules.full_game else (0, 1, 2, 3)
        for pos, player in enumerate(self.seating):
            self._position[player] = pos
        dealer = (dealer_position(self.round_wind, self.hand_in_round, rotate)
                  if self.rules.full_game else 0)
        key = (self.round_wind, self.hand_in_round, dealer)
        wall = self.wall_source(self.hand_index, key)
        self.round = MCRRound(
            self.rules, wall, dealer=dealer, prevalent_wind=self.round_wind,
            hand_number=self.hand_in_round,
            scores=[self.scores[p] for p in self.seating],
            seating=self.seating if self.rules.full_game else None,
            emit=self.events.append,
        )

    def _finish_hand(self, rnd: MCRRound) -> None:
        result = rnd.result
        assert result is not None
        self.results.append(result)
        for pos, player in enumerate(self.seating):
            self.scores[player] += result.deltas[pos]
        self.hand_index += 1
        self.hand_in_round += 1
        if self.hand_in_round == 4:
            self.hand_in_round = 0
            self.round_wind += 1
        if not self.rules.full_game or self.round_wind == 4:
            self.round = None
            self._end_with(self.scores)
            return
        self._start_hand()
