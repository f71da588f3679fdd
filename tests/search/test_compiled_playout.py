"""The compiled rollout core against the Python engine: same worlds, same hand ends.

Every world is a seeded mid-hand table of a game of rule agents (four- and three-player, the
presets tenhou, mahjong_soul and tenhou_sanma); the core plays it with ``greedy`` or
``greedy-fold`` (no calls), or ``fast`` or ``fast-fold`` (chi and pon as the ``efficiency``
agent calls), and the Python engine plays it with the reference policy (:class:`FastPolicy`
without or with calls).  Kind, winners, final scores, deposits and the tenpai seats of a draw
must be equal.  Skipped where the extension is not built (``TENPAI_PURE_PYTHON=1``),
except the test that the unavailable core says so.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from tenpai.engine.agent import Agent
from tenpai.engine.snapshot import clone
from tenpai.events import Event
from tenpai.rules.riichi import rollout
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.search.playout import PythonPlayout
from tenpai.search.playout_policies import POLICIES

from .rollout_worlds import (
    PRESET_NAMES,
    after_calls,
    compiled,
    crafted,
    mangled,
    reference,
    reference_agents,
    worlds,
)

built = pytest.mark.skipif(not rollout.available(), reason="compiled rollout core not built")


def _differential(n_worlds: int, seeds: range, every: int,
                  policies: tuple[str, str] = ("greedy", "greedy-fold"),
                  yaku: str = "off") -> Counter[str]:
    """Compare ``n_worlds`` worlds (policies alternating; ``yaku``: the open-hand yaku rule),
    return what the hands did."""
    seen: Counter[str] = Counter()
    checked = 0
    for seed in seeds:
        for preset in PRESET_NAMES:
            for world in worlds(preset, seed, every=every, mixed=seed % 3 == 2):
                policy = policies[checked % 2]
                want = reference(world, policy, yaku)
                row = rollout.run(rollout.export_state(world), world.rules, policy, [seed],
                                  yaku=yaku)[0]
                got = compiled(row, world.players)
                assert got == want, (preset, seed, policy, checked, rollout.CODES[int(row[3])])
                seen[want[0]] += 1
                seen[f"{preset}:{policy}"] += 1
                if want[0] == "hora" and len(want[1]) > 1:
                    seen["multiple ron"] += 1
                if want[0] == "abortive":
                    seen[rollout.CODES[int(row[3])]] += 1
                if any(m.type != "ankan" for ms in world.melds for m in ms):
                    seen["open melds in the world"] += 1
                if world.kans_by:
                    seen["kans in the world"] += 1
                if any(world.riichi):
                    seen["riichi in the world"] += 1
                checked += 1
                if checked >= n_worlds:
                    seen["worlds"] = checked
                    return seen
    seen["worlds"] = checked
    return seen


@built
def test_two_thousand_worlds_end_as_in_the_python_engine() -> None:
    seen = _differential(2000, range(40), every=5)
    assert seen["worlds"] == 2000
    for preset in PRESET_NAMES:
        for policy in ("greedy", "greedy-fold"):
            assert seen[f"{preset}:{policy}"] > 50, seen
    assert seen["hora"] > 200 and seen["exhaustive"] > 100, seen
    assert seen["open melds in the world"] > 100 and seen["riichi in the world"] > 100, seen


@built
def test_two_thousand_worlds_with_calls_end_as_in_the_python_engine() -> None:
    """``fast`` and ``fast-fold``: chi and pon inside the core, as the reference calls."""
    seen = _differential(2000, range(40), every=5, policies=("fast", "fast-fold"))
    assert seen["worlds"] == 2000
    for preset in PRESET_NAMES:
        for policy in ("fast", "fast-fold"):
            assert seen[f"{preset}:{policy}"] > 50, seen
    assert seen["hora"] > 200 and seen["exhaustive"] > 100, seen


def _along_the_reference(n_worlds: int, policies: tuple[str, str] = ("greedy", "greedy-fold"),
                         seeds: range = range(10_000)) -> Counter[str]:
    """Worlds of games as above, and every draw, claim window and discard after a call the
    Python reference passes through on its way to the hand's end: the reference policy is
    deterministic, so each of those states must end as the whole playout did (one Python
    playout checks dozens of C playouts started at different points)."""
    seen: Counter[str] = Counter()
    checked = base = 0
    for seed in seeds:
        for preset in PRESET_NAMES:
            for world in worlds(preset, seed, every=9, mixed=seed % 3 == 2):
                policy = policies[base % 2]
                base += 1
                rnd = clone(world)
                agents = reference_agents(policy, rnd.players)
                rows = []
                start = len(rnd.events)
                while not rnd.done:
                    if rollout.exportable(rnd):
                        rows.append(rollout.run(rollout.export_state(rnd), rnd.rules, policy,
                                                [seed])[0])
                        if rnd.phase == "discard":
                            seen["discards after a call"] += 1
                    rnd.step({d.seat: agents[d.seat].act(d.observation, d.legal)
                              for d in rnd.pending()})
                for e in rnd.events[start:]:
                    if e.type in ("chi", "pon"):
                        seen[f"{preset}:{e.type}"] += 1
                r = rnd.result
                assert r is not None
                tenpai = tuple(s for s in range(rnd.players)
                               if r.kind == "exhaustive" and r.tenpai[s])
                want = (r.kind, tuple(sorted(r.winners)), tuple(rnd.scores), rnd.kyotaku, tenpai)
                for row in rows:
                    assert compiled(row, rnd.players) == want, (preset, seed, policy, base)
                seen[want[0]] += len(rows)
                seen[f"{preset}:{policy}"] += len(rows)
                checked += len(rows)
                if checked >= n_worlds:
                    seen["worlds"] = checked
                    seen["python playouts"] = base
                    return seen
    seen["worlds"] = checked
    seen["python playouts"] = base
    return seen


@pytest.mark.slow
@built
def test_a_hundred_thousand_worlds_end_as_in_the_python_engine() -> None:
    seen = _along_the_reference(100_000)
    print(dict(seen))
    assert seen["worlds"] >= 100_000


@pytest.mark.slow
@built
def test_a_hundred_thousand_worlds_with_calls_end_as_in_the_python_engine() -> None:
    seen = _along_the_reference(100_000, ("fast", "fast-fold"))
    print(dict(seen))
    assert seen["worlds"] >= 100_000


@built
def test_states_along_playouts_with_calls_end_as_in_the_python_engine() -> None:
    """Every state a ``fast``/``fast-fold`` reference playout passes through, the discards
    owed after its calls included; in three-player games nobody chis."""
    seen = _along_the_reference(4000, ("fast", "fast-fold"), range(100, 10_000))
    assert seen["worlds"] >= 4000
    assert seen["discards after a call"] > 50, seen
    assert seen["tenhou:chi"] + seen["mahjong_soul:chi"] > 5, seen
    assert seen["tenhou_sanma:pon"] > 0 and seen["tenhou_sanma:chi"] == 0, seen


@built
def test_same_seed_same_rows_and_random_ties_follow_the_seed() -> None:
    world = next(w for w in worlds("tenhou", 3) if w.phase == "act" and w.wall.remaining > 50)
    state = rollout.export_state(world)
    seeds = list(range(40))
    for policy in rollout.POLICY_CODES:
        a = rollout.run(state, "tenhou", policy, seeds)
        b = rollout.run(state, "tenhou", policy, seeds)
        assert a.dtype == np.int32 and a.shape == (40, len(rollout.COLUMNS))
        assert np.array_equal(a, b)
    # greedy is deterministic: the seed does not matter; greedy-random's ties do follow it
    greedy = rollout.run(state, "tenhou", "greedy", seeds)
    assert (greedy == greedy[0]).all()
    spread = rollout.run(state, "tenhou", "greedy-random", range(200))
    assert len({tuple(r) for r in spread.tolist()}) > 1
    # every row conserves points: the deltas sum to minus the deposits taken
    for row in spread.tolist():
        scores = row[5:9]
        assert sum(scores) + 1000 * row[4] == sum(world.scores) + 1000 * world.kyotaku


@built
def test_policies_per_seat_and_tsumogiri() -> None:
    world = next(w for w in worlds("tenhou", 5) if w.phase == "act")
    state = rollout.export_state(world)
    rows = rollout.run(state, "tenhou", ["tsumogiri", "greedy", "greedy-fold", "greedy-random"],
                       [1, 2])
    assert rows.shape == (2, 13)
    rows = rollout.run(state, "tenhou", ["fast", "greedy", "fast-fold", "efficiency"], [1])
    assert rows.shape == (1, 13)
    with pytest.raises(rollout.RolloutStateError, match="unknown rollout policy"):
        rollout.run(state, "tenhou", "fold", [1])


def _bad(state: tuple[object, ...], index: int, value: object) -> tuple[object, ...]:
    s = list(state)
    s[index] = value
    return tuple(s)


@built
def test_impossible_states_are_refused_with_a_typed_error() -> None:
    world = next(w for w in worlds("tenhou", 7) if w.phase == "act")
    state = rollout.export_state(world)
    hands = list(state[11])
    seat = next(s for s in range(4) if s != world.turn)
    five = _bad(state, 11, tuple(tuple(h) + ((hands[seat][0],) * 5 if s == seat else ())
                                 for s, h in enumerate(hands)))
    with pytest.raises(rollout.RolloutStateError):
        rollout.run(five, "tenhou", "greedy", [1])
    short = _bad(state, 11, tuple(tuple(h)[:-1] if s == seat else tuple(h)
                                  for s, h in enumerate(hands)))
    with pytest.raises(rollout.RolloutStateError, match="holds 12 tiles, not 13"):
        rollout.run(short, "tenhou", "greedy", [1])
    # a fifth copy spread over the wall and a hand
    k = hands[seat][0]
    live = tuple(state[6]) + (k,) * 4
    with pytest.raises(rollout.RolloutStateError, match="copies of kind"):
        rollout.run(_bad(state, 6, live), "tenhou", "greedy", [1])
    with pytest.raises(rollout.RolloutStateError, match="unknown Riichi preset"):
        rollout.run(state, "tenhou_yonma", "greedy", [1])
    with pytest.raises(rollout.RolloutStateError, match="3 players but the rules are for 4"):
        rollout.run(_bad(state, 0, 3), "tenhou", "greedy", [1])
    with pytest.raises(rollout.RolloutStateError):
        rollout.run(_bad(state, 5, (1, 2)), "tenhou", "greedy", [1])
    with pytest.raises(rollout.RolloutStateError):
        rollout.run(state[:-1], "tenhou", "greedy", [1])
    with pytest.raises(rollout.RolloutStateError, match="drawn must be in"):
        rollout.run(_bad(state, 12, 99), "tenhou", "greedy", [1])
    other = next(t for t in range(34) if not world.counts[world.turn][t])
    with pytest.raises(rollout.RolloutStateError, match="first discard"):
        rollout.run(state, "tenhou", "greedy", [1], first_discard=other)
    claim = next(w for w in worlds("tenhou", 7) if w.phase == "claim")
    with pytest.raises(rollout.RolloutStateError, match="first discard"):
        rollout.run(rollout.export_state(claim), "tenhou", "greedy", [1], first_discard=0)
    with pytest.raises(rollout.RolloutStateError, match="drawn tile is not in"):
        rollout.run(_bad(state, 12, other), "tenhou", "greedy", [1])


@built
def test_fuzzed_states_never_crash_the_interpreter() -> None:
    """Random fields of real states replaced by random values: a row or a RolloutStateError."""
    rng = random.Random(37)
    base = [rollout.export_state(w) for w in worlds("tenhou", 11, every=23)]
    base += [rollout.export_state(w) for w in worlds("tenhou_sanma", 12, every=23)]
    junk: list[object] = [-5, 0, 1, 3, 4, 37, 200, 10**30, None, "x", (), (1, 2, 3), ((),),
                          tuple(range(40)), ((0, (1, 2, 3)),), 2.5]
    played = refused = 0
    for _ in range(1500):
        state = mangled(rng.choice(base), rng, junk)
        preset = "tenhou_sanma" if state[0] == 3 else "tenhou"
        try:
            rows = rollout.run(state, preset, "greedy-fold", [rng.randrange(10)])
        except rollout.RolloutStateError:
            refused += 1
        except RuntimeError as err:  # a consistent-looking state the hand cannot finish
            assert "could not be played" in str(err)
        else:
            assert rows.shape == (1, 13)
            played += 1
    assert refused > 500 and played > 20


@built
def test_compiled_playout_equals_the_python_playout() -> None:
    from tenpai.search.compiled_playout import CompiledPlayout

    backend = CompiledPlayout("greedy-fold")
    python = PythonPlayout("greedy-fold")
    compared = 0
    for world in worlds("tenhou", 21, every=11):
        decision = next((d for d in world.pending() if d.seat == world.turn), None)
        if world.phase != "act" or decision is None:
            continue
        candidates = [{world.turn: e} for e in decision.legal if e.type in ("dahai", "reach")][:3]
        many = backend.play_out_many(world, candidates, [5, 6])
        for first, ends in zip(candidates, many):
            want = python.play_out(clone(world), first, 5)
            assert ends[0] == want == ends[1]
            compared += 1
    assert compared > 30


def test_unbuilt_core_says_how_to_build_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from tenpai.search.compiled_playout import CompiledPlayout

    monkeypatch.setattr(rollout._core, "module", None)
    assert not rollout.available()
    with pytest.raises(rollout.RolloutUnavailable, match="build_ext --inplace"):
        CompiledPlayout("greedy")
    with pytest.raises(rollout.RolloutUnavailable):
        rollout.run((), "tenhou", "greedy", [1])


def test_reference_policies_are_registered() -> None:
    assert {"greedy", "greedy-fold"} <= set(POLICIES)
    agent = POLICIES["greedy"](0)
    assert agent.name == "greedy"
    legal = (Event("pon", actor=1, target=0, pai=5, consumed=(5, 5)), Event("none"))
    assert agent.act(None, legal).type == "none"


@built
@pytest.mark.parametrize("policy", ["c:greedy-fold", "c:fast-fold"])
def test_search_settings_choose_the_compiled_backend_and_it_searches(policy: str) -> None:
    from tenpai.agents.efficiency import EfficiencyAgent
    from tenpai.rules.riichi.game import RiichiGame
    from tenpai.search.agent import SearchAgent
    from tenpai.search.compiled_playout import CompiledPlayout
    from tenpai.search.prior import AgentPrior
    from tenpai.search.settings import SearchSettings

    from .helpers import TONPUU

    settings = SearchSettings.from_env({"TENPAI_SEARCH_POLICY": policy,
                                        "TENPAI_SEARCH_WORLDS": "3",
                                        "TENPAI_SEARCH_BUDGET_MS": "1000000"})
    agent = SearchAgent(AgentPrior(EfficiencyAgent(1), 0.5), settings=settings, seed=1)
    assert isinstance(agent.backend, CompiledPlayout) and agent.backend.name == policy
    game = RiichiGame(TONPUU, seed=1, start=(0, 3, 0, 0))
    others = EfficiencyAgent(2)
    steps = 0
    while not game.done and steps < 400:
        answers = {}
        for d in game.pending():
            a = (agent if d.seat == 0 else others).act(d.observation, d.legal)
            assert a in d.legal
            answers[d.seat] = a
        game.step(answers)
        steps += 1
    assert sum(s.searched for s in agent.log) > 3


def test_compiled_policy_setting_without_the_core_is_a_one_line_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tenpai.search.settings import SearchSettings

    monkeypatch.setattr(rollout._core, "module", None)
    monkeypatch.setenv("TENPAI_PURE_PYTHON", "1")
    with pytest.raises(ValueError, match="POLICY=c:greedy: the compiled rollout core") as raised:
        SearchSettings(policy="c:greedy")
    assert "is switched off (TENPAI_PURE_PYTHON is set)" in str(raised.value)
    assert str(raised.value).endswith("or use its Python reference greedy")
    with pytest.raises(ValueError, match="unknown playout policy 'c:fold'"):
        SearchSettings(policy="c:fold")


@built
def test_four_winds_abort_as_in_the_python_engine() -> None:
    from .rollout_worlds import crafted

    # ready hands and no points for riichi: each seat's best discard is the East it draws
    world = crafted(["123456789m123p5p", "123456789m123p6p", "123456789s456p7p",
                     "123456789s456p8p"], "1z1z1z1z", scores=(500,) * 4)
    for policy in ("greedy", "greedy-fold"):
        row = rollout.run(rollout.export_state(world), world.rules, policy, [0])[0]
        assert compiled(row, 4) == reference(world, policy)
        assert rollout.CODES[int(row[3])] == "four_winds"


@built
@pytest.mark.parametrize("preset", ["tenhou", "mahjong_soul"])
@pytest.mark.parametrize("third", ["234567m234567s4p", "234567m234567s9p"])
def test_several_rons_on_one_discard_as_in_the_python_engine(preset: str, third: str) -> None:
    """Two or three seats win on the dealer's 4p: triple ron aborts under tenhou and pays all
    three under mahjong_soul; honba and deposits go to the first winner after the discarder."""
    from tenpai import tiles as T

    from .rollout_worlds import crafted

    world = crafted(["111222333z44z5z6z", "234567m234567s4p", "234567m234567s4p", third], "4p",
                    preset, honba=2, kyotaku=1)
    d = world.pending()[0]
    four = T.parse("4p")[0]
    world.step({0: next(e for e in d.legal if e.type == "dahai" and e.pai == four)})
    assert world.phase == "claim"
    want_rons = 3 if third.endswith("4p") else 2
    assert len(world.pending()) == want_rons
    for policy in ("greedy", "greedy-fold"):
        want = reference(world, policy)
        row = rollout.run(rollout.export_state(world), world.rules, policy, [0])[0]
        assert compiled(row, 4) == want
        if want_rons == 3 and preset == "tenhou":
            assert want[0] == "abortive" and rollout.CODES[int(row[3])] == "triple_ron"
        else:
            assert want[0] == "hora" and len(want[1]) == want_rons and want[3] == 0


@built
def test_nagashi_mangan_as_in_the_python_engine() -> None:
    """Seat 1 is dealt and draws only terminals and honours and (scripted) discards only those;
    six tiles before the end the core and the Python engine finish the hand: nagashi mangan
    is paid instead of the tenpai payments."""
    from tenpai import tiles as T
    from tenpai.search.policies import FastPolicy

    from .rollout_worlds import crafted

    outer = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
    rng = random.Random(113)  # a deal where nobody wins before the wall runs out
    th = [k for k in outer for _ in range(4)]
    rng.shuffle(th)
    simple = [k for k in range(34) if k not in outer for _ in range(4)]
    for red, k in ((34, 4), (35, 13), (36, 22)):
        simple[simple.index(k)] = red
    rng.shuffle(simple)
    rest = simple[39:] + th[30:]
    rng.shuffle(rest)
    draws: list[int] = []
    for i in range(17):
        draws += [rest.pop(), th[13 + i], rest.pop(), rest.pop()]
    hands = [simple[0:13], th[:13], simple[13:26], simple[26:39]]
    world = crafted([T.to_compact(h) for h in hands], T.to_compact(draws, sort=False),
                    scores=(500,) * 4)
    agents = [FastPolicy(s, calls=False) for s in range(4)]
    while world.wall.remaining > 6:
        answers = {}
        for d in world.pending():
            if d.seat == 1:
                answers[1] = next(e for e in d.legal if (e.type == "dahai" and e.pai is not None
                                                         and T.kind_of(e.pai) in outer)
                                  or e.type == "none")
            else:
                answers[d.seat] = agents[d.seat].act(d.observation, d.legal)
        world.step(answers)
    assert not world.done and world.phase in ("act", "claim")
    for policy in ("greedy", "greedy-fold"):
        want = reference(world, policy)
        row = rollout.run(rollout.export_state(world), world.rules, policy, [0])[0]
        assert compiled(row, 4) == want
        assert rollout.CODES[int(row[3])] == "nagashi_mangan"
        assert want[2][1] - 500 == 8000  # a mangan tsumo by a non-dealer, no tenpai payment


def _python_answer(world: RiichiRound, agent: Agent) -> tuple[str, int] | None:
    """The agent's answer at a draw as ``rollout.decide`` reports it (riichi: the discard that
    follows), or None when it is something the compiled policies never do (a kan, a North)."""
    w = clone(world)
    d = w.pending()[0]
    a = agent.act(d.observation, d.legal)
    if a.type in ("hora", "dahai"):
        assert a.pai is not None
        return (a.type, a.pai)
    if a.type == "reach":
        w.step({d.seat: a})
        d2 = w.pending()[0]
        discard = agent.act(d2.observation, d2.legal).pai
        assert discard is not None
        return ("reach", discard)
    return None


@built
def test_compiled_policies_answer_as_the_python_agents_position_by_position() -> None:
    """``efficiency`` against the ``efficiency`` agent (its discard and riichi choice), and the
    two greedy policies against their references, at every third draw of seeded games."""
    from tenpai.agents.efficiency import EfficiencyAgent
    from tenpai.search.policies import FastPolicy

    agents: dict[str, Agent] = {
        "efficiency": EfficiencyAgent(0), "greedy": FastPolicy(0, calls=False),
        "greedy-fold": FastPolicy(0, fold=True, calls=False)}
    seen: Counter[str] = Counter()
    for seed, preset in ((0, "tenhou"), (1, "mahjong_soul"), (2, "tenhou_sanma")):
        for world in worlds(preset, seed, every=3, mixed=seed == 2):
            if world.phase != "act":
                continue
            state = rollout.export_state(world)
            for name, agent in agents.items():
                want = _python_answer(world, agent)
                if want is None:
                    seen["skipped"] += 1
                    continue
                assert rollout.decide(state, world.rules, name) == want, (preset, seed, name)
                seen[name] += 1
                seen[want[0]] += 1
    assert min(seen["efficiency"], seen["greedy"], seen["greedy-fold"]) > 300, seen
    assert seen["reach"] > 10 and seen["hora"] > 5, seen
    # whole hands with the efficiency policy: legal rows, same seed same rows
    world = next(w for w in worlds("tenhou", 4) if w.phase == "act")
    rows = rollout.run(rollout.export_state(world), "tenhou", "efficiency", range(4))
    assert (rows == rows[0]).all()


def _play_reference(world: RiichiRound, policy: str) -> tuple[RiichiRound, list[Event]]:
    """The reference playout of ``world`` and the events it added."""
    rnd = clone(world)
    agents = reference_agents(policy, rnd.players)
    start = len(rnd.events)
    while not rnd.done:
        rnd.step({d.seat: agents[d.seat].act(d.observation, d.legal) for d in rnd.pending()})
    return rnd, list(rnd.events[start:])


def _answer(world: RiichiRound, seat: int, kind: str, tile: str) -> None:
    """Step ``world`` with ``seat``'s legal action of that type on that tile (kind for calls)."""
    from tenpai import tiles as T

    t = T.parse(tile)[0]
    d = next(d for d in world.pending() if d.seat == seat)
    e = next(e for e in d.legal if e.type == kind and e.pai is not None
             and (e.pai == t if kind == "dahai" else T.kind_of(e.pai) == T.kind_of(t)))
    world.step({seat: e})


def _tsumogiri_or_pass(world: RiichiRound) -> None:
    """One step: the seat to move discards its draw; a claim window passes."""
    if world.phase == "claim":
        world.step({})
        return
    d = world.pending()[0]
    world.step({d.seat: next(e for e in d.legal if e.type == "dahai" and e.tsumogiri)})


def _tsumogiri_to(world: RiichiRound, seat: int) -> None:
    """Discard draws and pass claim windows until ``seat`` is to act on its draw (a function,
    so the caller's checks of ``world.phase`` afterwards are not narrowed by the loop's)."""
    while not (world.phase == "act" and world.turn == seat):
        _tsumogiri_or_pass(world)


@built
def test_kuikae_bans_the_discard_after_a_call_as_in_the_python_engine() -> None:
    """Discards owed after the chis and pons of ``random`` agents: the compiled policies answer
    as their references (``efficiency`` as the agent), and where the kuikae ban decides (the
    same state without its ban gets another answer) they keep to it."""
    from tenpai.agents.efficiency import EfficiencyAgent
    seen: Counter[str] = Counter()
    for seed in range(4):
        for preset in PRESET_NAMES:
            for world in after_calls(preset, seed):
                state = rollout.export_state(world)
                assert state[-1] == tuple(world.banned_discards)
                d = world.pending()[0]
                allowed = {e.pai for e in d.legal}
                for policy in ("fast", "fast-fold", "greedy", "efficiency"):
                    agent = (EfficiencyAgent(0) if policy == "efficiency"
                             else reference_agents(policy, world.players)[d.seat])
                    want = agent.act(d.observation, d.legal)
                    got = rollout.decide(state, world.rules, policy)
                    assert got == ("dahai", want.pai), (preset, seed, policy)
                    free = rollout.decide((*state[:-1], ()), world.rules, policy)
                    if free[1] != want.pai:
                        assert free[1] not in allowed  # only the ban kept it from that tile
                        seen["kuikae decided"] += 1
                seen["positions"] += 1
                # tsumogiri has no drawn tile to throw here: it discards as greedy does
                assert (rollout.decide(state, world.rules, "tsumogiri")
                        == rollout.decide(state, world.rules, "greedy"))
                assert rollout.run(state, world.rules, "tsumogiri", [0]).shape == (1, 13)
                if seen["positions"] % 7 == 0:  # and the hand played on from there
                    for policy in ("fast", "fast-fold"):
                        row = rollout.run(state, world.rules, policy, [seed])[0]
                        assert compiled(row, world.players) == reference(world, policy)
    assert seen["positions"] > 200 and seen["kuikae decided"] > 10, seen


@built
def test_pao_is_paid_after_the_third_dragon_pon() -> None:
    """Seat 1 has ponned haku and hatsu from the dealer, who now discards chun: the core
    pons it (the fast policy's choice), seat 1 draws its tanki and wins daisangen, and the
    dealer pays the whole yakuman (tenhou: pao covers the whole hand)."""
    world = crafted(["567z19m19p1s448s23z", "556677z234m5p2z19s", "258m28p258s11z36p4z",
                     "369m37p368s14z4p3z3z"], "9s2z9s7s9s7s1m4s1p4s5p")
    _answer(world, 0, "dahai", "5z")
    _answer(world, 1, "pon", "5z")
    _answer(world, 1, "dahai", "1s")
    _tsumogiri_to(world, 0)
    _answer(world, 0, "dahai", "6z")
    _answer(world, 1, "pon", "6z")
    _answer(world, 1, "dahai", "9s")
    _tsumogiri_to(world, 0)
    _answer(world, 0, "dahai", "7z")
    assert world.phase == "claim" and world.pao == [None] * 4
    rnd, events = _play_reference(world, "fast")
    calls = [(e.type, e.actor, e.target) for e in events if e.type in ("pon", "hora")]
    assert calls[0] == ("pon", 1, 0) and calls[-1] == ("hora", 1, 1), calls
    assert rnd.pao[1] == 0
    want = reference(world, "fast")
    assert want[2][0] == 25_000 - 32_000  # the dealer pays the non-dealer's yakuman tsumo
    for policy in ("fast", "fast-fold"):
        row = rollout.run(rollout.export_state(world), world.rules, policy, [0])[0]
        assert compiled(row, 4) == want


@built
def test_ron_beats_pon_in_a_claim_window() -> None:
    """The dealer's 5p: seat 2 would pon it (its fast answer) and seat 3 wins on it; the ron
    takes the tile, in the core as in the engine."""
    from tenpai import tiles as T

    world = crafted(["5p19m19p19s123456z", "23m34p6789s234z77z", "55p234m678m345s2p8p",
                     "234m567m34p678s22s"], "1z")
    _answer(world, 0, "dahai", "5p")
    agents = reference_agents("fast", 4)
    answers = {d.seat: agents[d.seat].act(d.observation, d.legal).type
               for d in world.pending()}
    assert answers == {1: "none", 2: "pon", 3: "hora"}
    for policy in ("fast", "fast-fold"):
        want = reference(world, policy)
        assert want[:2] == ("hora", (3,))
        row = rollout.run(rollout.export_state(world), world.rules, policy, [0])[0]
        assert compiled(row, 4) == want
    last = world.last_discard
    assert last is not None and T.parse("5p")[0] == last[1]


@built
def test_a_call_breaks_ippatsu() -> None:
    """Seat 1 declares (double) riichi on a chun that seat 3 pons; seat 1 then draws its
    winning tile: no ippatsu in the engine, and the same points from the core."""
    world = crafted(["19m19p19s12346z8p5p", "123m456m789p23s55z", "347m367p4679s44z6z",
                     "77z234m456p678s1z9m"], "9m7z1z4s")
    _tsumogiri_to(world, 1)
    d = world.pending()[0]
    world.step({1: next(e for e in d.legal if e.type == "reach")})
    _answer(world, 1, "dahai", "7z")
    assert world.phase == "claim" and world.reach_pending == 1
    _, events = _play_reference(world, "fast")
    assert [(e.type, e.actor) for e in events if e.type in ("pon", "hora")] == [
        ("pon", 3), ("hora", 1)]
    (hora,) = [e for e in events if e.type == "hora"]
    assert hora.yaku is not None and {y for y, _ in hora.yaku} == {"menzen_tsumo",
                                                                   "double_riichi"}
    want = reference(world, "fast")
    row = rollout.run(rollout.export_state(world), world.rules, "fast", [0])[0]
    assert compiled(row, 4) == want


@built
def test_search_settings_take_the_compiled_fast_policies() -> None:
    from tenpai.search.compiled_playout import CompiledPlayout
    from tenpai.search.playout_backends import make_backend
    from tenpai.search.settings import SearchSettings

    for name in ("c:fast", "c:fast-fold", "c:fast-kan", "c:fast-kan-fold"):
        settings = SearchSettings.from_env({"TENPAI_SEARCH_POLICY": name})
        backend = make_backend(settings.policy)
        assert isinstance(backend, CompiledPlayout) and backend.name == name
    with pytest.raises(ValueError, match="unknown playout policy 'c:efficiency'"):
        SearchSettings(policy="c:efficiency")


@built
def test_compiled_fast_playout_equals_the_python_playout() -> None:
    """Candidates at draws and at claim windows (chi, pon, pass): the Python prefix with
    calls, then the core, end as the Python playout does."""
    from tenpai.search.compiled_playout import CompiledPlayout

    backend = CompiledPlayout("fast")
    python = PythonPlayout("fast")
    seen: Counter[str] = Counter()
    for world in worlds("tenhou", 23, every=6):
        for d in world.pending():
            candidates = [{d.seat: e} for e in d.legal
                          if e.type in ("dahai", "reach", "chi", "pon", "none")][:3]
            if not candidates:
                continue
            many = backend.play_out_many(world, candidates, [5])
            for first, ends in zip(candidates, many):
                assert ends[0] == python.play_out(clone(world), first, 5)
                seen[next(iter(first.values())).type] += 1
    assert seen["dahai"] > 30 and seen["chi"] + seen["pon"] > 3, seen


@built
def test_bench_rollout_times_fast_beside_the_others() -> None:
    """``tenpai bench rollout``'s sides include ``fast`` in C and in Python, interleaved."""
    from tenpai.bench.rollout import run_rollout_bench

    bench = run_rollout_bench(worlds=2, seeds=1, python_worlds=1, repeat=2)
    assert {"c:fast", "python:fast", "c:greedy", "python:greedy"} <= set(bench.rates)
    assert all(len(v) == 2 and min(v) > 0 for v in bench.rates.values())
    assert bench.summary()["fast speed-up"] > 0
