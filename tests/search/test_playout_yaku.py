"""``tenpai.search.playout_yaku``: the yaku test of a ready hand, the watch that sees a win
refused for lack of a yaku, and the figures of a tiny seeded case."""

from __future__ import annotations

import pytest

from tenpai import tiles as T
from tenpai.agents.efficiency import EfficiencyAgent
from tenpai.engine.meld import Meld
from tenpai.events import Event
from tenpai.rules.riichi import rollout
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.rules.riichi.game import RiichiGame
from tenpai.search.playout_yaku import (
    GROUPS,
    call_offers,
    figures,
    play_offers,
    seat_watch,
    wins_with_a_yaku,
)
from tenpai.search.prior import AgentPrior

from .helpers import TONPUU

FIVE_MAN = 4


def _seat_one(concealed: str, chi: str | None) -> RiichiRound:
    """The first table of a seeded game with seat 1's hand replaced: ``concealed`` tiles and
    one chi of the ``chi`` tiles claimed from seat 0 (or none)."""
    game = RiichiGame(TONPUU, seed=5)
    rnd = game.round
    assert rnd is not None
    hand = T.parse(concealed)
    rnd.hands[1] = hand
    rnd.counts[1] = T.counts34(hand)
    if chi is not None:
        tiles = tuple(T.parse(chi))
        rnd.melds[1] = [Meld("chi", tiles, called=tiles[0], target=0)]
    rnd._hand_changed(1)
    return rnd


# 5m alone waits: with an open 1m2m3m and 7s8s9s there is no yaku; with an open 2m3m4m every
# tile is a simple (all simples); closed, the tsumo is a yaku.
NO_YAKU = ("456p789s234s5m", "123m")
TANYAO = ("456p678s345s5m", "234m")
CLOSED = ("123m456p789s234s5m", None)


@pytest.mark.parametrize(("hand", "expected"), [(NO_YAKU, False), (TANYAO, True),
                                                (CLOSED, True)])
def test_a_ready_hand_wins_with_a_yaku_or_not(hand: tuple[str, str | None],
                                              expected: bool) -> None:
    rnd = _seat_one(*hand)
    assert rnd.waits_of(1) == (FIVE_MAN,)
    assert wins_with_a_yaku(rnd, 1, FIVE_MAN) is expected


@pytest.mark.parametrize(("hand", "missed"), [(NO_YAKU, True), (TANYAO, False)])
def test_the_watch_sees_a_ron_refused_for_lack_of_a_yaku(hand: tuple[str, str | None],
                                                         missed: bool) -> None:
    rnd = _seat_one(*hand)
    assert rnd.phase == "act" and rnd.turn == 0
    watch, flag = seat_watch(1)
    watch(rnd, rnd.pending(), {0: Event("dahai", actor=0, pai=FIVE_MAN)})
    assert flag[0] is missed
    # a discard that is no wait, or the seat's own turn, is never a missed win
    watch, flag = seat_watch(1)
    watch(rnd, rnd.pending(), {0: Event("dahai", actor=0, pai=T.parse("9p")[0])})
    watch(rnd, rnd.pending(), {})
    assert flag[0] is False


def test_a_tiny_seeded_case() -> None:
    """Offers of one seeded efficiency game, two worlds each: the four endings add up, a call
    leaves the hand open, a closed hand passing is never ready without a yaku (the tsumo is
    one), some call playouts lose their yaku here, and the compiled twin agrees."""
    offers = call_offers(range(38970, 38971), EfficiencyAgent(0),
                         AgentPrior(EfficiencyAgent(0)), limit=10)
    assert len(offers) == 10
    assert all(o.call.type in ("chi", "pon") and o.passing.type == "none" for o in offers)
    out = play_offers(offers, worlds=2)
    counts = out["counts"]
    assert set(counts) == set(GROUPS)
    assert sum(c["playouts"] for c in counts.values()) == 10 * 2 * 2
    for c in counts.values():
        assert c["won"] + c["ready_yaku"] + c["ready_no_yaku"] + c["not_ready"] == c["playouts"]
        assert max(c["ready_no_yaku"], c["missed_for_yaku"]) <= c["no_yaku_any"]
    call = counts["call"]
    assert call["playouts"] == 20 and call["open_at_end"] == 20
    assert call["no_yaku_any"] > 0
    assert counts["pass_closed"]["ready_no_yaku"] == 0
    assert counts["pass_closed"]["open_at_end"] == 0
    shares = figures(counts)
    assert shares["call"]["no_yaku_any"] == pytest.approx(call["no_yaku_any"] / 20, abs=1e-4)
    if rollout.available():
        assert out["compiled_equal"] == out["compiled_compared"] == 40
    else:
        assert out["compiled_equal"] is None
