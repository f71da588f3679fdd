"""Compiled playouts on to the end of the game: each hand in C, the game's flow in Python.

A search that values a hand's end only through a placement model guesses what the rest of
the game does with the points; this module plays the rest of the game instead.  Each hand is
played inside ``_rollout.c`` by a compiled policy (:func:`tenpai.rules.riichi.rollout.run`);
between hands :func:`tenpai.rules.riichi.game.next_hand` -- the function :class:`RiichiGame`
itself calls -- says which hand follows (dealer repeat, honba, the end of the game: length,
target points, bust, the last dealer stopping on top, the west extension), and
:func:`~tenpai.rules.riichi.game.settle_deposits` gives the sticks left on the table to the
first place, as the game does.  A later hand is dealt from a fresh wall drawn from the
playout's seed, so the same seeds give the same arrays, bit for bit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from tenpai.engine.wall import SplitMix64, seeded_shuffle
from tenpai.rules.riichi import rollout
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.rules.riichi.flow.wall import RoundWall
from tenpai.rules.riichi.game import (
    RiichiGame,
    default_scorer,
    next_hand,
    rank_order,
    settle_deposits,
)
from tenpai.rules.riichi.rollout import RolloutStateError

__all__ = ["GamePlayouts", "play_to_end"]

_SEED_MASK = (1 << 64) - 1


@dataclass(frozen=True)
class GamePlayouts:
    """One row per playout (seats in table order, ``players`` columns)."""

    #: Final scores, the deposits left on the table already given to the first place.
    scores: np.ndarray
    #: Final places (0 = first), ties to the seat nearer the first dealer, as the game ranks.
    ranks: np.ndarray
    #: Hands played in the playout, the one in progress included.
    hands: np.ndarray


def play_to_end(
    source: RiichiGame | RiichiRound,
    policies: str | Sequence[str],
    seeds: Sequence[int],
    *,
    first_discard: int | None = None,
) -> GamePlayouts:
    """Play the hand in progress and every later hand to the end of the game, once per seed.

    ``source`` is a game (its hand in play) or a round (a sampled world: a round carries its
    rules, winds, honba, deposits and scores, all the game context the flow needs).
    ``policies`` and ``first_discard`` are :func:`~tenpai.rules.riichi.rollout.run`'s, for
    every hand (``first_discard`` for the first only).  Raises
    :class:`~tenpai.rules.riichi.rollout.RolloutUnavailable` without the compiled core and
    :class:`~tenpai.rules.riichi.rollout.RolloutStateError` for a game that is over, a game
    scored by another scorer than the core's, or a round the core cannot start from.
    """
    if isinstance(source, RiichiGame):
        if source.done:
            raise RolloutStateError("the game is over: there is no hand to play on from")
        if source.scorer is not default_scorer():
            raise RolloutStateError("the compiled core scores with the default scorer only; "
                                    "this game has another")
        rnd = source.round
        assert rnd is not None
    elif isinstance(source, RiichiRound):
        rnd = source
    else:
        raise RolloutStateError(f"play_to_end takes a RiichiGame or a RiichiRound, not "
                                f"{type(source).__name__}")
    if rnd.done:
        raise RolloutStateError("the round is over: a playout starts in a hand in progress")
    rules = rnd.rules
    n = rules.players
    seeds = [int(s) & _SEED_MASK for s in seeds]
    first_rows = rollout.run(rollout.export_state(rnd), rules, policies, seeds, first_discard)
    key0 = (rnd.bakaze, rnd.kyoku, rnd.honba)
    tileset = RiichiGame.tileset_for(rules)
    scorer = default_scorer()
    count = len(first_rows)
    scores = np.zeros((count, n), dtype=np.int32)
    ranks = np.zeros((count, n), dtype=np.int8)
    hands = np.zeros(count, dtype=np.int32)
    for i, seed in enumerate(seeds):
        row = first_rows[i]
        key = key0
        played = 1
        stream = SplitMix64(seed)
        while True:
            final, kyotaku = [int(x) for x in row[5:5 + n]], int(row[4])
            kind = rollout.KINDS[int(row[0])]
            winners = [s for s in range(n) if int(row[1]) >> s & 1]
            tenpai = [bool(int(row[2]) >> s & 1) for s in range(n)]
            following = next_hand(rules, key, final, kind, winners, tenpai)
            if following is None:
                break
            key = following
            wall = RoundWall.from_shuffled(seeded_shuffle(tileset, stream.next()), n)
            fresh = RiichiRound(rules, wall, bakaze=key[0], kyoku=key[1], honba=key[2],
                                kyotaku=kyotaku, scores=final, scorer=scorer)
            row = rollout.run(rollout.export_state(fresh), rules, policies, [stream.next()])[0]
            played += 1
        settled = settle_deposits(rules, final, kyotaku)
        scores[i] = settled
        for place, seat in enumerate(rank_order(settled)):
            ranks[i, seat] = place
        hands[i] = played
    return GamePlayouts(scores=scores, ranks=ranks, hands=hands)
