"""Nagashi mangan on both Riichi rounds, at four and at three players.

A hand that reaches the exhaustive draw with every discard of one seat a terminal or honour,
none of them called, pays that seat a mangan.  Random and rule-agent games reach it too rarely
for the differential games to speak for it, so one hand is scripted: the dealer holds and draws
only terminals and honours, everybody discards what they draw, nobody calls, wins or sets a
North aside.  Both rounds must agree on every legal action, event, result and score
(``compiled_pairs.play_hand_both``), and the result must be the nagashi mangan.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from compiled_pairs import play_hand_both

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.rules.riichi import compiled_round
from tenpai.rules.riichi.flow.wall import RoundWall
from tenpai.rules.riichi.game import RiichiGame
from tenpai.rules.riichi.ruleset import TENHOU, TENHOU_SANMA, RiichiRules

built = pytest.mark.skipif(not compiled_round.available(), reason="compiled table not built")

DEAD = 14


def _outer_only_wall(rules: RiichiRules, seed: int) -> Callable[[], RoundWall]:
    """The dealer's hand and every one of its draws are terminals or honours; the others get
    the middle tiles first, then what the dead wall leaves of the terminals and honours."""
    n = rules.players

    def make() -> RoundWall:
        tiles = RiichiGame.tileset_for(rules)
        rng = random.Random(seed)
        outer = [t for t in tiles if T.is_terminal_or_honor(T.kind_of(t))]
        middle = [t for t in tiles if not T.is_terminal_or_honor(T.kind_of(t))]
        rng.shuffle(outer)
        rng.shuffle(middle)
        n_live = len(tiles) - 13 * n - DEAD
        dealer_draws = len(range(0, n_live, n))
        dealer, outer = outer[:13], outer[13:]
        draws, outer = outer[:dealer_draws], outer[dealer_draws:]
        dead, outer = outer[:DEAD], outer[DEAD:]
        rest = middle + outer  # the others' hands and draws
        hands = [dealer] + [rest[13 * i: 13 * i + 13] for i in range(n - 1)]
        others = iter(rest[13 * (n - 1):])
        mine = iter(draws)
        live = [next(mine) if i % n == 0 else next(others) for i in range(n_live)]
        return RoundWall(hands=hands, live=live, dora=dead[0:5], ura=dead[5:10],
                         rinshan=dead[10:14], max_replacements=8 if n == 3 else 4)
    return make


def _drawn_tile_only(d: Any) -> Event:
    """Discard the tile just drawn; pass every call, win, North and abortive draw."""
    drawn = d.observation.drawn
    for e in d.legal:
        if e.type == "dahai" and e.pai == drawn:
            return e  # type: ignore[no-any-return]
    for e in d.legal:
        if e.type == "none":
            return e  # type: ignore[no-any-return]
    raise AssertionError(f"seat {d.seat}: nothing to pass or discard in {d.legal}")


@built
@pytest.mark.parametrize("rules", [TENHOU, TENHOU_SANMA], ids=["four", "three"])
def test_nagashi_mangan_is_paid_alike_on_both_rounds(rules: RiichiRules) -> None:
    n = rules.players
    scores = [25_000] * 4 if n == 4 else [35_000] * 3
    rounds = play_hand_both(rules, _outer_only_wall(rules, seed=11), scores, _drawn_tile_only)
    rnd = rounds[0]
    assert rnd.events[-2].type == "ryukyoku" and rnd.events[-2].kind == "nagashi_mangan"
    assert rnd.result.kind == "exhaustive"
    gains = [rnd.scores[s] - scores[s] for s in range(n)]
    # a dealer's mangan as if self-drawn, 4,000 from each other seat; at three players the
    # absent seat's share is nobody's (Tenhou's three-player self-draw loss, as the preset
    # pays a self-drawn win); the hand is a draw, so the riichi stick stays on the table
    assert gains == ([12_000, -4_000, -4_000, -4_000] if n == 4 else [8_000, -4_000, -4_000])
    assert rnd.kyotaku == 1
