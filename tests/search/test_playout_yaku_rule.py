"""The open-hand yaku rule of the playouts (``TENPAI_SEARCH_PLAYOUT_YAKU``): the kinds it keeps
out of the discard choice, and the compiled core answering and ending hands as the Python
reference does with it, for every policy that takes it."""

from __future__ import annotations

from collections import Counter
from types import SimpleNamespace

import pytest

from tenpai import tiles as T
from tenpai.engine.meld import Meld, MeldType
from tenpai.engine.snapshot import clone
from tenpai.rules.riichi import rollout
from tenpai.search.compiled_playout import CompiledPlayout
from tenpai.search.playout import PythonPlayout
from tenpai.search.playout_policies import FAST_POLICIES
from tenpai.search.policies import FastPolicy, yaku_avoid
from tenpai.search.settings import SearchSettings

from .rollout_worlds import PRESET_NAMES, after_calls, compiled, reference, reference_agents
from .test_compiled_playout import _differential

built = pytest.mark.skipif(not rollout.available(), reason="compiled rollout core not built")

SOUTH = 28


def _obs(hand: str, *melds: tuple[MeldType, str]) -> SimpleNamespace:
    """The fields of an observation the rule reads: seat 1 (South) of an East round, its
    concealed ``hand`` and its open ``melds`` (type, tiles)."""
    mine = [Meld(kind, tuple(T.parse(tiles)), called=T.parse(tiles)[0], target=0)
            for kind, tiles in melds]
    return SimpleNamespace(seat=1, seat_wind=SOUTH, bakaze=0,
                           counts=T.counts34(T.parse(hand)), melds=[[], mine, [], []])


def _kinds(text: str) -> frozenset[int]:
    return frozenset(T.kind_of(t) for t in T.parse(text))


def test_a_closed_hand_or_a_secured_yaku_avoids_nothing() -> None:
    assert yaku_avoid(_obs("19m1p5566z123456s")) == frozenset()
    assert yaku_avoid(_obs("19m1p66z1234s", ("pon", "555z"))) == frozenset()  # a haku pon
    assert yaku_avoid(_obs("19m1p66z1234s", ("pon", "222z"))) == frozenset()  # seat wind
    assert yaku_avoid(_obs("19m1p66z1234s", ("pon", "111z"))) == frozenset()  # round wind
    assert yaku_avoid(_obs("19m1p666z234s", ("chi", "345p"))) == frozenset()  # hatsu triplet
    assert yaku_avoid(_obs("19m1p66z1234s", ("pon", "333z"))) == _kinds("6z")  # West: no yaku


def test_simple_melds_take_the_all_simples_route() -> None:
    # the simples are kept: every non-simple goes first, a value pair too (all simples is
    # the route)
    assert yaku_avoid(_obs("19m1p55z23456s", ("chi", "345p"))) == _kinds("23456s")


def test_a_value_pair_is_kept_without_another_route() -> None:
    assert yaku_avoid(_obs("19m1p55z33z345s", ("chi", "123p"))) == _kinds("5z")
    assert yaku_avoid(_obs("19m1p5z33z3456s", ("chi", "123p"))) == frozenset()  # no pair


def test_the_setting_is_refused_for_a_policy_without_the_rule() -> None:
    with pytest.raises(ValueError, match=r"^TENPAI_SEARCH_PLAYOUT_YAKU=ties needs a policy of"):
        SearchSettings.from_env({"TENPAI_SEARCH_PLAYOUT_YAKU": "ties",
                                 "TENPAI_SEARCH_POLICY": "efficiency"})
    with pytest.raises(ValueError, match=r"^TENPAI_SEARCH_PLAYOUT_YAKU must be off, strict, "
                                         r"ties, got 'yes'$"):
        SearchSettings.from_env({"TENPAI_SEARCH_PLAYOUT_YAKU": "yes"})
    with pytest.raises(ValueError, match="open-hand yaku rule"):
        PythonPlayout("defensive", yaku="strict")
    with pytest.raises(ValueError, match="unknown yaku rule 'on'"):
        FastPolicy(0, yaku="on")
    if rollout.available():
        with pytest.raises(rollout.RolloutStateError, match="unknown yaku rule 'on'"):
            rollout.decide((), "tenhou", "greedy", yaku="on")
    settings = SearchSettings.from_env({"TENPAI_SEARCH_PLAYOUT_YAKU": "strict"})
    assert settings.playout_yaku == "strict" and "playout_yaku=strict" in settings.describe()


@built
@pytest.mark.parametrize("rule", ["strict", "ties"])
def test_compiled_discards_after_calls_follow_the_rule_as_the_reference(rule: str) -> None:
    """Discards owed after the chis and pons of ``random`` agents (open hands, many without a
    yaku): every policy's compiled answer with the rule is its reference's, and the rule
    changes the answer often enough to be tested."""
    seen: Counter[str] = Counter()
    for seed in range(4):
        for preset in PRESET_NAMES:
            for world in after_calls(preset, seed):
                state = rollout.export_state(world)
                d = world.pending()[0]
                for policy in FAST_POLICIES:
                    agent = reference_agents(policy, world.players, yaku=rule)[d.seat]
                    want = agent.act(d.observation, d.legal)
                    got = rollout.decide(state, world.rules, policy, yaku=rule)
                    assert got == ("dahai", want.pai), (preset, seed, policy)
                    if got != rollout.decide(state, world.rules, policy):
                        seen[f"changed:{policy}"] += 1
                seen["positions"] += 1
    assert seen["positions"] > 200, seen
    assert min(seen[f"changed:{p}"] for p in FAST_POLICIES) > 20, seen


@built
@pytest.mark.parametrize("rule", ["strict", "ties"])
@pytest.mark.parametrize("policies", [("greedy", "greedy-fold"), ("fast", "fast-fold"),
                                      ("fast-kan", "fast-kan-fold")])
def test_worlds_with_the_rule_end_as_in_the_python_engine(policies: tuple[str, str],
                                                          rule: str) -> None:
    seen = _differential(300, range(40), every=5, policies=policies, yaku=rule)
    assert seen["worlds"] == 300
    assert seen["open melds in the world"] > 20, seen


@built
@pytest.mark.parametrize("rule", ["strict", "ties"])
def test_hands_after_calls_end_as_in_the_python_engine_with_the_rule(rule: str) -> None:
    """Whole hands from the discards owed after random agents' calls, with every policy:
    the open hands the rule is for."""
    seen: Counter[str] = Counter()
    for seed in range(2):
        for preset in PRESET_NAMES:
            for i, world in enumerate(after_calls(preset, seed)):
                policy = tuple(FAST_POLICIES)[i % len(FAST_POLICIES)]
                row = rollout.run(rollout.export_state(world), world.rules, policy, [seed],
                                  yaku=rule)[0]
                want = reference(world, policy, yaku=rule)
                assert compiled(row, world.players) == want, (preset, seed, policy, i)
                seen[want[0]] += 1
    assert sum(seen.values()) > 100 and seen["hora"] > 10, seen


@built
@pytest.mark.parametrize("rule", ["strict", "ties"])
@pytest.mark.parametrize("policy", ["greedy-fold", "fast-fold"])
def test_call_candidates_end_alike_in_both_backends_with_the_rule(policy: str,
                                                                  rule: str) -> None:
    """A searched call and the pass, stepped in Python and played on in the core with the
    rule, end as the Python playout with the rule."""
    from .test_call_offers import _call_worlds

    fast = CompiledPlayout(policy, yaku=rule)
    slow = PythonPlayout(policy, yaku=rule)
    for rnd, d, call in _call_worlds(12):
        passing = next(e for e in d.legal if e.type == "none")
        for first in ({d.seat: call}, {d.seat: passing}):
            assert fast.play_out(rnd, first, 3) == slow.play_out(clone(rnd), first, 3)
