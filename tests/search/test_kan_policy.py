"""``fast-kan`` and ``fast-kan-fold``: the Python reference policies that declare kans.

Their rule (tenpai.search.policies): a kan (or a North set aside) when the hand after it is no
worse — shanten no higher, at equal shanten no fewer live effective tiles — than the best the
seat can do without it; an open kan also needs a yaku in reach.  Crafted hands check each side
of the rule; seeded hands check that whatever the policy declares the engine accepts.
"""

from __future__ import annotations

from collections import Counter

from tenpai import tiles as T
from tenpai.engine.snapshot import clone
from tenpai.events import Event
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.search.playout_policies import POLICIES
from tenpai.search.policies import FastPolicy

from .rollout_worlds import PRESET_NAMES, crafted, worlds


def _own_answer(rnd: RiichiRound, policy: FastPolicy) -> Event:
    (d,) = rnd.pending()
    return policy.act(d.observation, d.legal)


def test_a_closed_kan_that_keeps_the_wait_is_declared() -> None:
    # 1111m 234p 567s 89s 55z after drawing 9s: without the kan the best is 1m away, ready on
    # 7s (three left); the kan keeps that wait with the same three tiles.
    rnd = crafted(["1111m234p567s8s55z", "123456789p1234z", "123456789s1234z",
                   "2233445566m777z"], "9s")
    a = _own_answer(rnd, FastPolicy(0, kans=True))
    assert a.type == "ankan" and T.kind_of(a.consumed[0]) == 0
    # the policies without kans discard instead
    assert _own_answer(rnd, FastPolicy(0)).type in ("dahai", "reach")


def test_a_closed_kan_that_costs_a_step_is_not_declared() -> None:
    # 1111m 23m 567s 789s 5z 4z: the fourth 1m belongs to 123m; after a kan the hand is
    # one step further from ready.
    rnd = crafted(["1111m23m567s789s5z", "123456789p1234z", "123456789s1234z",
                   "2233445566m777z"], "4z")
    assert _own_answer(rnd, FastPolicy(0, kans=True)).type in ("dahai", "reach")


def _after_discard(hands: list[str], draw: str, tile: str) -> RiichiRound:
    rnd = crafted(hands, draw)
    (d,) = rnd.pending()
    pai = T.parse(tile)[0]
    rnd.step({0: next(e for e in d.legal if e.type == "dahai" and e.pai == pai)})
    return rnd


def test_an_open_kan_of_a_dragon_is_called_and_without_a_yaku_it_is_not() -> None:
    rnd = _after_discard(["7z12345678m1234p", "777z123m456p78s99s",
                          "123456789s1234z", "2233445566m111z"], "9m", "7z")
    (d,) = [d for d in rnd.pending() if d.seat == 1]
    assert {e.type for e in d.legal} >= {"daiminkan", "pon"}
    assert FastPolicy(1, kans=True).act(d.observation, d.legal).type == "daiminkan"
    assert FastPolicy(1).act(d.observation, d.legal).type != "daiminkan"
    # 666m in a hand with terminals: no yaku in reach once open, so no open kan
    rnd = _after_discard(["6m123456789p123z", "666m123m456p78s99s", "123456789s1234z",
                          "2233445588m666z"], "9m", "6m")
    (d,) = [d for d in rnd.pending() if d.seat == 1]
    assert "daiminkan" in {e.type for e in d.legal}
    assert FastPolicy(1, kans=True).act(d.observation, d.legal).type != "daiminkan"


def test_kan_policies_are_registered_and_their_hands_are_legal() -> None:
    """Seeded hands played out with both policies: every kan declared is one the engine
    offered (``step`` checks), and some are declared."""
    assert "fast-kan" in POLICIES and "fast-kan-fold" in POLICIES
    assert POLICIES["fast-kan-fold"](0).name == "fast-kan-fold"
    seen: Counter[str] = Counter()
    for seed in range(3):
        for preset in PRESET_NAMES:
            for i, world in enumerate(worlds(preset, seed, every=40, mixed=seed == 2)):
                rnd = clone(world)
                agents = [FastPolicy(s, fold=i % 2 == 1, kans=True) for s in range(rnd.players)]
                start = len(rnd.events)
                while not rnd.done:
                    rnd.step({d.seat: agents[d.seat].act(d.observation, d.legal)
                              for d in rnd.pending()})
                seen.update(e.type for e in rnd.events[start:])
    assert seen["ankan"] + seen["kakan"] + seen["daiminkan"] > 0, seen
    assert seen["nukidora"] > 0, seen
