"""The one-player leaf (``TENPAI_SEARCH_LEAF``): passive opponents, both backends equal, the
``auto`` rule, the setting, and the default search unchanged."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import pytest

from tenpai import tiles as T
from tenpai.agents.efficiency import EfficiencyAgent
from tenpai.engine.flow import Decision
from tenpai.engine.snapshot import clone
from tenpai.events import Event
from tenpai.rules.riichi import rollout
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.search.agent import SearchAgent, make_search_agent
from tenpai.search.leaf_agreement import LeafComparison, summarise
from tenpai.search.leaves import leaf_for, threatened
from tenpai.search.passive import PassivePolicy, solo_seat
from tenpai.search.playout import PythonPlayout
from tenpai.search.playout_backends import make_backend
from tenpai.search.prior import AgentPrior
from tenpai.search.settings import SearchSettings

from .helpers import find, play_last_hand
from .rollout_worlds import crafted, worlds

built = pytest.mark.skipif(not rollout.available(), reason="compiled rollout core not built")


def _two_ready_opponents() -> RiichiRound:
    """Seat 0 (the dealer, the searching seat) has drawn a 4p; seats 1 and 2 are ready on 4p
    (all simples, closed: a ron or tsumo with a yaku), and seat 1's first draw is the last 4p."""
    world = crafted(["111222333z44z5z6z", "234567m234567s4p", "234567m234567s4p",
                     "189m13589p189s77z"], "4p4p")
    assert world.phase == "act" and world.turn == 0
    return world


def _discard(world: RiichiRound, tile: str) -> Event:
    code = T.parse(tile)[0]
    d = next(x for x in world.pending() if x.seat == world.turn)
    return next(e for e in d.legal if e.type == "dahai" and e.pai == code)


def _pass_claims(world: RiichiRound) -> None:
    """Every seat passes a claim window (if there is one)."""
    if world.phase == "claim":
        world.step({d.seat: next(e for e in d.legal if e.type == "none")
                    for d in world.pending()})


class _Recorder:
    """A playout watch: what the seats other than ``seat`` answered, and the wins they let go."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.answers: Counter[str] = Counter()
        self.wins_passed = 0

    def __call__(self, rnd: RiichiRound, pending: Sequence[Decision],
                 answers: Mapping[int, Event]) -> None:
        for d in pending:
            if d.seat == self.seat:
                continue
            a = answers[d.seat]
            self.answers["tsumogiri" if a.type == "dahai" and a.tsumogiri else a.type] += 1
            self.wins_passed += any(e.type == "hora" for e in d.legal)


def test_solo_ends_in_our_win_or_a_draw_and_the_others_only_let_their_draws_go() -> None:
    world = _two_ready_opponents()
    four = {0: _discard(world, "4p")}
    # the full playout: our 4p is the others' ron
    full = PythonPlayout("greedy-fold").play_out_watched(world, four, 0)
    assert full.result is not None and full.result.kind == "hora"
    assert set(full.result.winners) <= {1, 2} and full.result.winners
    # solo: the two ready seats pass the ron, seat 1 lets its tsumo go, nobody calls
    watch = _Recorder(0)
    rnd = PythonPlayout("greedy-fold", solo=True).play_out_watched(world, four, 0, watch)
    r = rnd.result
    assert r is not None
    assert (r.kind == "hora" and list(r.winners) == [0]) or r.kind == "exhaustive"
    assert set(watch.answers) <= {"tsumogiri", "none"}, watch.answers
    assert watch.wins_passed >= 3 and watch.answers["tsumogiri"] >= 1
    assert not any(rnd.riichi[1:]) and not any(rnd.melds[1:])


def test_solo_on_seeded_worlds_never_lets_another_seat_win_call_or_declare() -> None:
    backend = PythonPlayout("fast-kan-fold", solo=True)  # ours may call and kan
    ends: Counter[str] = Counter()
    for world in worlds("tenhou", 31, every=29, mixed=True):
        d = next(iter(world.pending()))
        first = {d.seat: EfficiencyAgent(1).act(d.observation, d.legal)}
        watch = _Recorder(d.seat)
        rnd = backend.play_out_watched(world, first, 3, watch)
        r = rnd.result
        assert r is not None
        ends[r.kind] += 1
        assert r.kind in ("hora", "exhaustive"), r.kind
        if r.kind == "hora":
            assert list(r.winners) == [d.seat]
        assert set(watch.answers) <= {"tsumogiri", "none"}, watch.answers
    assert ends["hora"] >= 3 and ends["exhaustive"] >= 3, ends


def test_passive_policy_and_the_solo_seat() -> None:
    world = _two_ready_opponents()
    world.step({0: _discard(world, "6z")})
    _pass_claims(world)
    d = world.pending()[0]
    assert d.seat == 1 and any(e.type == "hora" for e in d.legal)  # seat 1 may tsumo
    a = PassivePolicy().act(d.observation, d.legal)
    assert a.type == "dahai" and a.tsumogiri and a.pai == T.parse("4p")[0]
    assert solo_seat({2: a}) == 2
    with pytest.raises(ValueError, match="plays for one seat"):
        solo_seat({1: a, 2: a})


@built
def test_compiled_solo_equals_the_python_solo_on_seeded_worlds() -> None:
    from tenpai.search.compiled_playout import CompiledPlayout

    seen: Counter[str] = Counter()
    for policy, preset, seed in (("greedy-fold", "tenhou", 41), ("fast", "tenhou", 42),
                                 ("fast-kan-fold", "tenhou_sanma", 43),
                                 ("greedy-fold", "mahjong_soul", 44)):
        compiled = CompiledPlayout(policy, solo=True)
        python = PythonPlayout(policy, solo=True)
        for world in worlds(preset, seed, every=17, mixed=seed % 2 == 0):
            for d in world.pending():
                cands = [{d.seat: e} for e in d.legal][:3]
                many = compiled.play_out_many(world, cands, [seed])
                for first, ends in zip(cands, many):
                    want = python.play_out(clone(world), first, seed)
                    assert ends[0] == want, (policy, preset, seed, first)
                    seen[policy] += 1
                    gained = [want.scores[s] - want.start_scores[s] for s in range(world.players)]
                    seen["searching seat won" if gained[d.seat] > 0 else "other"] += 1
    assert min(seen[p] for p in ("greedy-fold", "fast", "fast-kan-fold")) > 40, seen
    assert seen["searching seat won"] > 30 and seen["other"] > 30, seen


@built
def test_compiled_passive_never_wins_where_tsumogiri_does() -> None:
    world = _two_ready_opponents()
    state = rollout.export_state(world)
    four = T.parse("4p")[0]
    full = rollout.run(state, world.rules, ["greedy-fold", "tsumogiri", "tsumogiri", "tsumogiri"],
                       [0], first_discard=four)[0]
    assert rollout.KINDS[int(full[0])] == "hora" and int(full[1]) & 0b0110
    solo = rollout.run(state, world.rules, ["greedy-fold", "passive", "passive", "passive"],
                       [0], first_discard=four)[0]
    assert rollout.KINDS[int(solo[0])] in ("hora", "exhaustive")
    assert int(solo[1]) in (0, 1)  # no winner, or seat 0
    # seat 1 to move with its winning 4p drawn: tsumogiri wins, passive lets it go
    world.step({0: _discard(world, "6z")})
    _pass_claims(world)
    assert world.phase == "act" and world.turn == 1
    state = rollout.export_state(world)
    assert rollout.decide(state, world.rules, "tsumogiri") == ("hora", four)
    assert rollout.decide(state, world.rules, "passive") == ("dahai", four)


def _meld_count(rnd: RiichiRound, seat: int) -> int:
    return sum(1 for m in rnd.melds[seat] if m.is_open)


def test_auto_takes_solo_only_where_nobody_threatens() -> None:
    quiet = _two_ready_opponents()  # ready, but closed and silent
    assert not threatened(quiet, 0)
    assert leaf_for("auto", quiet, 0) == "solo"
    assert leaf_for("playout", quiet, 0) == "playout" and leaf_for("solo", quiet, 0) == "solo"
    # seat 1 declares riichi: threatening from its declaration on (its discard still in play)
    rnd = _two_ready_opponents()
    rnd.step({0: _discard(rnd, "6z")})
    _pass_claims(rnd)
    d = rnd.pending()[0]
    reach = next(e for e in d.legal if e.type == "reach")
    rnd.step({1: reach})
    assert rnd.reach_pending == 1 or rnd.riichi[1]
    assert threatened(rnd, 0) and leaf_for("auto", rnd, 0) == "playout"
    assert leaf_for("auto", rnd, 1) == "solo"  # its own riichi is no threat to itself
    # open melds: one is not a threat, two are
    def opponents(r: RiichiRound, seat: int) -> list[int]:
        return [s for s in range(r.players) if s != seat]

    one, d1 = find(lambda r, d: any(_meld_count(r, s) == 1 for s in opponents(r, d.seat))
                   and not any(_meld_count(r, s) > 1 or r.riichi[s] or r.reach_pending == s
                               for s in opponents(r, d.seat)))
    assert leaf_for("auto", one, d1.seat) == "solo"
    two, d2 = find(lambda r, d: any(_meld_count(r, s) >= 2 for s in opponents(r, d.seat))
                   and not any(r.riichi) and r.reach_pending is None)
    assert leaf_for("auto", two, d2.seat) == "playout"


def _agent(leaf: str, seed: int = 4) -> SearchAgent:
    settings = SearchSettings(budget_ms=1e6, worlds=3, top_k=2, z=0.0, leaf=leaf)
    return SearchAgent(AgentPrior(EfficiencyAgent(seed), 0.5), settings=settings, seed=seed)


def test_the_agent_logs_the_leaf_of_each_searched_decision() -> None:
    for leaf, allowed in (("playout", {"playout"}), ("solo", {"solo"}),
                          ("auto", {"solo", "playout"})):
        agent = _agent(leaf)
        play_last_hand(agent, 4)
        searched = [s for s in agent.log if s.searched]
        assert searched and {s.leaf for s in searched} <= allowed, (leaf, agent.log)
        assert all(s.leaf == "" for s in agent.log if not s.searched)
    assert "leaf=solo" in _agent("solo").identity


def test_the_default_leaf_is_the_full_playout_and_changes_nothing() -> None:
    """The default settings value every candidate by the settings' own backend, world by world
    as a full playout does (the values recomputed here by hand), and play the same game as an
    explicit ``leaf=playout``; the solo leaf plays another game (so the check can fail)."""
    assert SearchSettings().leaf == "playout"
    default = SearchAgent(AgentPrior(EfficiencyAgent(4), 0.5),
                          settings=SearchSettings(budget_ms=1e6, worlds=3, top_k=2, z=0.0),
                          seed=4)
    events = play_last_hand(default, 4)
    assert events == play_last_hand(_agent("playout"), 4)
    assert events != play_last_hand(_agent("solo"), 4)
    # the values table of one searched decision, as the full playout defines it
    rnd, d = find(lambda r, d: d.seat == r.turn and r.phase == "act"
                  and sum(e.type == "dahai" for e in d.legal) > 5)
    pa = default.prior.answer_batch([(d.observation, d.legal)])[0]
    cands = default.candidates(pa)
    values, _, _ = default.world_values(rnd, d.seat, cands)
    value = default.values[4]
    full = make_backend(default.settings.policy)
    by_hand = []
    for w in range(3):
        seed = default.world_seed(rnd, d.seat, w)
        world = default.sampler.sample(rnd, d.seat, seed)
        by_hand.append([value.value(full.play_out(world.round, {d.seat: c.action}, seed), d.seat)
                        for c in cands])
    assert values == by_hand


@pytest.mark.parametrize("value", ["solo", "auto", "playout"])
def test_the_leaf_setting_is_read(value: str) -> None:
    assert SearchSettings.from_env({"TENPAI_SEARCH_LEAF": value}).leaf == value


@pytest.mark.parametrize("bad", ["Solo", "rollout", "1"])
def test_a_bad_leaf_is_one_line_naming_the_variable(bad: str) -> None:
    with pytest.raises(ValueError, match=r"^TENPAI_SEARCH_LEAF must be playout, solo, auto, "
                                         rf"got '{bad}'$"):
        make_search_agent(0, {"TENPAI_SEARCH_LEAF": bad})


def test_the_arena_refuses_a_bad_leaf_with_exit_2(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from tenpai.cli.main import app

    monkeypatch.setenv("TENPAI_SEARCH_LEAF", "psychic")
    r = CliRunner().invoke(app, ["arena", "--agents", "search,efficiency,efficiency,efficiency",
                                 "--games", "4", "--workers", "1", "--no-progress"])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert "SEARCH_LEAF must be playout, solo, auto" in r.output


def _row(auto_solo: bool, playout: tuple[float, ...], solo: tuple[float, ...],
         other: tuple[float, ...], choices: tuple[int, int, int]) -> LeafComparison:
    return LeafComparison(auto_solo, 0, 4, len(playout), choices[0], choices[1], playout, solo,
                          0.2, 0.1, choices[2], other)


def test_the_agreement_figures_of_a_few_comparisons() -> None:
    rows = [_row(True, (1.0, 2.0, 3.0), (1.5, 2.5, 3.5), (1.0, 3.0, 2.0), (2, 2, 1)),
            _row(True, (0.0, 1.0, 0.5), (0.0, 0.2, 0.9), (0.0, 1.0, 0.6), (0, 2, 0)),
            _row(False, (5.0, 4.0, 3.0), (5.0, 4.0, 3.0), (5.0, 4.0, 3.0), (0, 0, 0))]
    s = summarise(rows)
    assert s["decisions"] == 3
    assert s["same_choice"] == round(2 / 3, 3) and s["same_best_mean"] == round(2 / 3, 3)
    assert s["changed_by_playout"] == round(1 / 3, 3) and s["changed_by_solo"] == round(2 / 3, 3)
    assert s["other_worlds_same_choice"] == round(2 / 3, 3)
    assert s["cpu_ratio_solo_to_playout"] == 0.5
    assert s["cpu_per_leaf_median_ms"] == {"playout": 16.667, "solo": 8.333}
    assert summarise([]) == {"decisions": 0}


@built
def test_the_rollout_bench_times_the_solo_leaf_beside_the_playout() -> None:
    from tenpai.bench.rollout import run_rollout_bench

    bench = run_rollout_bench(worlds=2, seeds=1, python_worlds=1, repeat=2)
    assert {"c:greedy-fold+solo", "python:greedy-fold+solo"} <= set(bench.rates)
    assert bench.summary()["greedy-fold solo / playout"] > 0
