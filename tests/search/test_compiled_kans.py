"""Kans (and three players' Norths) inside the compiled rollouts, against the Python engine.

``fast-kan`` and ``fast-kan-fold`` (:class:`~tenpai.search.policies.FastPolicy` with
``kans=True``) are played on both sides from the same worlds: the kind, winners, final scores,
deposits, tenpai seats and the dora indicators shown at the end must be equal.  Seeded worlds
under the three presets, every state the reference playouts pass through (so states exported
after kans, with a kan dora still to turn, replacement tiles used), and crafted hands for what
seeded hands seldom show: rinshan kaihou, the kan dora of a closed kan at once and of an open
kan only at the next discard, chankan on an added kan, a kokushi robbing a closed kan where the
preset allows it, and the four-kan abort.  Skipped where the extension is not built.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import islice

import pytest

from tenpai import tiles as T
from tenpai.engine.snapshot import clone
from tenpai.events import Event
from tenpai.rules.riichi import rollout
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.rules.riichi.flow.scoring import score_win
from tenpai.rules.riichi.flow.wall import RoundWall
from tenpai.rules.riichi.game import RiichiGame
from tenpai.rules.riichi.ruleset import PRESETS
from tenpai.search.compiled_playout import CompiledPlayout
from tenpai.search.playout import PythonPlayout

from .rollout_worlds import (
    PRESET_NAMES,
    Outcome,
    compiled,
    mangled,
    played,
    reference_agents,
    worlds,
)

built = pytest.mark.skipif(not rollout.available(), reason="compiled rollout core not built")

KAN_POLICIES = ("fast-kan", "fast-kan-fold")
_KANS = ("ankan", "kakan", "daiminkan", "nukidora")


def _outcome(rnd: RiichiRound) -> tuple[Outcome, int]:
    r = rnd.result
    assert r is not None
    tenpai = tuple(s for s in range(rnd.players) if r.kind == "exhaustive" and r.tenpai[s])
    return ((r.kind, tuple(sorted(r.winners)), tuple(rnd.scores), rnd.kyotaku, tenpai),
            len(rnd.dora_markers))


def _compiled(world: RiichiRound, policy: str, seed: int = 0) -> tuple[Outcome, int]:
    row = rollout.run(rollout.export_state(world), world.rules, policy, [seed],
                      indicators=True)[0]
    return compiled(row[: len(rollout.COLUMNS)], world.players), int(row[-1])


def _same(world: RiichiRound, policy: str, seed: int = 0) -> RiichiRound:
    """Play ``world`` on both sides; assert the same end; return the Python side's round."""
    rnd = played(world, policy)
    assert _compiled(world, policy, seed) == _outcome(rnd)
    return rnd


# ---------------------------------------------------------------------------- seeded worlds


def _differential(n_worlds: int, seeds: range, every: int) -> Counter[str]:
    seen: Counter[str] = Counter()
    checked = 0
    for seed in seeds:
        for preset in PRESET_NAMES:
            for world in worlds(preset, seed, every=every, mixed=seed % 3 == 2):
                policy = KAN_POLICIES[checked % 2]
                rnd = played(world, policy)
                want = _outcome(rnd)
                got = _compiled(world, policy, seed)
                assert got == want, (preset, seed, policy, checked)
                seen[want[0][0]] += 1
                seen[f"{preset}:{policy}"] += 1
                seen.update(e.type for e in rnd.events[len(world.events):]
                            if e.type in (*_KANS, "dora"))
                checked += 1
                if checked >= n_worlds:
                    seen["worlds"] = checked
                    return seen
    seen["worlds"] = checked
    return seen


@built
def test_two_thousand_worlds_with_kans_end_as_in_the_python_engine() -> None:
    seen = _differential(2000, range(40, 400), every=3)
    assert seen["worlds"] == 2000
    for preset in PRESET_NAMES:
        for policy in KAN_POLICIES:
            assert seen[f"{preset}:{policy}"] > 50, seen
    assert seen["hora"] > 200 and seen["exhaustive"] > 100, seen
    # kans of every kind were played (Norths at three players), and kan dora turned
    assert min(seen["ankan"], seen["kakan"], seen["daiminkan"]) > 10, seen
    assert seen["nukidora"] > 100 and seen["dora"] > 100, seen


def _along_the_reference(n_states: int, seeds: range) -> Counter[str]:
    """Every draw, claim window and discard after a call that a ``fast-kan``/``fast-kan-fold``
    reference playout passes through, exported and played in C: each must end as the whole
    playout did (the reference is deterministic).  The C policies' answers at each draw are
    also those of the Python reference (:func:`rollout.decide`)."""
    seen: Counter[str] = Counter()
    base = 0
    for seed in seeds:
        for preset in PRESET_NAMES:
            # a few worlds of each game, so that every preset is met early
            for world in islice(worlds(preset, seed, every=9, mixed=seed % 3 == 2), 3):
                policy = KAN_POLICIES[base % 2]
                base += 1
                rnd = clone(world)
                agents = reference_agents(policy, rnd.players)
                rows = []
                while not rnd.done:
                    answers = {d.seat: agents[d.seat].act(d.observation, d.legal)
                               for d in rnd.pending()}
                    if rollout.exportable(rnd):
                        state = rollout.export_state(rnd)
                        rows.append(rollout.run(state, rnd.rules, policy, [seed],
                                                indicators=True)[0])
                        if rnd.kans_by or any(rnd.nukidora):
                            seen["states after a kan or North"] += 1
                        if rnd.pending_dora:
                            seen["states with a kan dora to turn"] += 1
                        if rnd.phase == "act":
                            _same_answer(state, rnd, policy, answers[rnd.turn], seen)
                    rnd.step(answers)
                want = _outcome(rnd)
                for row in rows:
                    got = (compiled(row[: len(rollout.COLUMNS)], rnd.players), int(row[-1]))
                    assert got == want, (preset, seed, policy, base)
                seen["states"] += len(rows)
                if seen["states"] >= n_states:
                    return seen
    return seen


def _same_answer(state: tuple[object, ...], rnd: RiichiRound, policy: str, answer: Event,
                 seen: Counter[str]) -> None:
    action, tile = rollout.decide(state, rnd.rules, policy)
    if answer.type in _KANS:
        seen[f"decided {answer.type}"] += 1
        tiles = answer.consumed if answer.type == "ankan" else (answer.pai,)
        assert (action, tile) == (answer.type, min(t for t in tiles if t is not None))
    else:
        assert action not in _KANS, (action, answer)


@built
def test_states_along_kan_playouts_end_as_in_the_python_engine() -> None:
    seen = _along_the_reference(6000, range(400, 10_000))
    assert seen["states"] >= 6000
    assert seen["states after a kan or North"] > 100, seen
    assert seen["states with a kan dora to turn"] > 0, seen
    assert seen["decided nukidora"] > 10, seen


@pytest.mark.slow
@built
def test_a_hundred_thousand_states_with_kans_end_as_in_the_python_engine() -> None:
    seen = _along_the_reference(100_000, range(10_000, 30_000))
    print(dict(seen))
    assert seen["states"] >= 100_000


# ---------------------------------------------------------------------------- crafted hands


def _round(hands: list[str], draws: str, preset: str = "tenhou", *, dora: str = "",
           rinshan: str = "") -> RiichiRound:
    """A hand whose deal, first draws, dora indicators and replacement tiles are given."""
    rules = PRESETS[preset]
    wall = RoundWall.from_record(RiichiGame.tileset_for(rules), [T.parse(h) for h in hands],
                                 T.parse(draws), T.parse(dora), [], T.parse(rinshan))
    return RiichiRound(rules, wall, bakaze=0, kyoku=0, honba=0, kyotaku=0,
                       scores=(rules.starting_points,) * rules.players, scorer=score_win)


def _step(rnd: RiichiRound, seat: int, kind: str, tile: str | None = None) -> None:
    """Seat ``seat`` answers its pending decision with the legal ``kind`` (of ``tile``)."""
    (d,) = [d for d in rnd.pending() if d.seat == seat]
    pai = T.parse(tile)[0] if tile else None
    e = next(e for e in d.legal if e.type == kind and (pai is None or e.pai == pai))
    rnd.step({seat: e})


def _no_calls(rnd: RiichiRound) -> None:
    """Every seat passes on the claim windows open now (none left open).  A function of its
    own, so the phase is read afresh after a step: a check of ``rnd.phase`` in the test's own
    body would stay narrowed for mypy across the steps that change it."""
    while rnd.phase == "claim":
        rnd.step({})


def _yaku(rnd: RiichiRound) -> set[str]:
    return {y[0] if isinstance(y, tuple) else str(y)
            for e in rnd.events if e.type == "hora" for y in (e.yaku or ())}


@built
@pytest.mark.parametrize("preset", ["tenhou", "mahjong_soul"])
def test_rinshan_kaihou_after_a_closed_kan_whose_dora_turns_at_once(preset: str) -> None:
    # 2222m 456p 678s 345s + 9p: the kan keeps the 9p wait; the replacement tile is the 9p,
    # and the closed kan's indicator (8p) is shown at once: the pair of 9p is two dora more.
    world = _round(["2222m456p678s345s", "13579m13579p135s", "468m2468p2468s77z",
                    "111z333z555z666z7z"], "9p", preset, dora="1z8p", rinshan="9p")
    for policy in KAN_POLICIES:
        rnd = _same(world, policy)
        assert [e.type for e in rnd.events if e.type in _KANS] == ["ankan"]
        assert rnd.result is not None and rnd.result.winners == [0]
        assert "rinshan" in _yaku(rnd) and len(rnd.dora_markers) == 2


@built
@pytest.mark.parametrize("preset", ["tenhou", "mahjong_soul"])
def test_an_open_kans_dora_waits_for_the_discard(preset: str) -> None:
    """Seat 1 calls an open kan on the dealer's 2m and wins on the replacement tile: its
    indicator (5p, making the 6p pair dora) has not turned yet, so it is not counted."""
    world = _round(["2m1379p1379s1133z", "222m456p678s345s6p", "789m789p789s99m45z",
                    "666z777z1345m1p19s"], "5z", preset, dora="2z5p", rinshan="6p")
    _step(world, 0, "dahai", "2m")
    assert world.phase == "claim"
    rnd = _same(world, "fast-kan")
    assert [e.type for e in rnd.events if e.type in _KANS] == ["daiminkan"]
    assert rnd.result is not None and rnd.result.winners == [1]
    assert "rinshan" in _yaku(rnd) and len(rnd.dora_markers) == 1
    # fast (no kans) pons instead and plays on: another hand end, also equal on both sides
    other = _same(world, "fast")
    assert not [e for e in other.events if e.type in _KANS]


@built
def test_chankan_robs_an_added_kan() -> None:
    """Seat 1 pons the dealer's 3p; three tsumogiri later it draws the fourth and adds it to
    the pon: seat 2, ready on 3p/6p with no yaku of its own, robs it (chankan)."""
    world = _round(["3p1379m19s1133z57z", "33p456m678s22s99m1z", "111m567m99s678s45p",
                    "2458m2458p1245s6z"], "4z9p7p8s3p")
    _step(world, 0, "dahai", "3p")
    _step(world, 1, "pon")
    for seat, tile in ((1, "1z"), (2, "9p"), (3, "7p"), (0, "8s")):
        _step(world, seat, "dahai", tile)
        _no_calls(world)
    assert world.phase == "act" and world.turn == 1
    for policy in KAN_POLICIES:
        rnd = _same(world, policy)
        assert [e.type for e in rnd.events[len(world.events):] if e.type in _KANS] == ["kakan"]
        assert rnd.result is not None and rnd.result.winners == [2]
        assert "chankan" in _yaku(rnd)
        # the robbed kan turned no indicator
        assert len(rnd.dora_markers) == 1


@built
@pytest.mark.parametrize("preset", ["tenhou", "mahjong_soul"])
def test_a_kokushi_robs_a_closed_kan_only_where_the_preset_allows(preset: str) -> None:
    world = _round(["1111z123m456p789s", "234567m234567p5s", "19m19p19s234567z9m",
                    "234567s88m88p33s6z"], "5s", preset)
    for policy in KAN_POLICIES:
        rnd = _same(world, policy)
        kinds = [e.type for e in rnd.events if e.type in _KANS]
        assert kinds[:1] == ["ankan"]
        assert rnd.result is not None
        if preset == "mahjong_soul":
            assert rnd.result.winners == [2] and "kokushi" in _yaku(rnd)
        else:
            assert 2 not in rnd.result.winners or "kokushi" not in _yaku(rnd)
            assert any(e.type == "tsumo" for e in rnd.events[rnd.events.index(
                next(e for e in rnd.events if e.type == "ankan")):])


@built
@pytest.mark.parametrize("preset", ["tenhou", "mahjong_soul"])
def test_four_kans_by_two_players_abort_the_hand(preset: str) -> None:
    """The dealer sets down its two honour quads, seat 1 its two: after seat 1's discard
    nobody may draw (suukaikan)."""
    world = _round(["1111z2222z123m45p", "3333z4444z456m78p", "2468m2468p2468s6z",
                    "1357m1357p1357s7z"], "9s5z", preset, rinshan="9m1p1m9s")
    for policy in KAN_POLICIES:
        rnd = _same(world, policy)
        assert [e.type for e in rnd.events if e.type in _KANS] == ["ankan"] * 4
        assert rnd.result is not None and rnd.result.abort == "four_kans"
        assert len(rnd.dora_markers) == 5


@built
def test_compiled_kan_playout_equals_the_python_playout() -> None:
    """``c:fast-kan`` through the search backend: the same hand ends as ``python:fast-kan``,
    for a discard candidate (made inside the core) and for a kan candidate (stepped in
    Python first)."""
    world = _round(["2222m456p678s345s", "13579m13579p135s", "468m2468p2468s77z",
                    "111z333z555z666z7z"], "9p", dora="1z8p", rinshan="9p")
    (d,) = world.pending()
    kan = next(e for e in d.legal if e.type == "ankan")
    discard = next(e for e in d.legal if e.type == "dahai" and e.pai == T.parse("9p")[0])
    c, py = CompiledPlayout("fast-kan"), PythonPlayout("fast-kan")
    for first in ({0: kan}, {0: discard}):
        assert c.play_out(world, first, 3) == py.play_out(world, first, 3)


def _states_after_kans(count: int) -> list[tuple[object, ...]]:
    """Exported states of ``fast-kan`` reference playouts that already hold a kan or a North."""
    out: list[tuple[object, ...]] = []
    for seed in range(400, 10_000):
        for preset in PRESET_NAMES:
            for world in islice(worlds(preset, seed, every=9), 3):
                rnd = clone(world)
                agents = reference_agents("fast-kan", rnd.players)
                while not rnd.done:
                    if rollout.exportable(rnd) and (rnd.kans_by or any(rnd.nukidora)):
                        out.append(rollout.export_state(rnd))
                    rnd.step({d.seat: agents[d.seat].act(d.observation, d.legal)
                              for d in rnd.pending()})
                if len(out) >= count:
                    return out
    return out


@built
def test_fuzzed_states_with_kans_never_crash_the_interpreter() -> None:
    """Fields of states after kans (replacement tiles, kans_by, pending dora…) replaced by
    random values and played with the kan policies: a row or a RolloutStateError."""
    rng = random.Random(3737)
    base = _states_after_kans(200)
    assert len(base) >= 200
    junk: list[object] = [-5, 0, 1, 3, 4, 8, 9, 37, 10**30, None, "x", (), (1, 2, 3), ((),),
                          (0, 0, 0, 0, 0), tuple(range(40)), ((4, (1, 1, 1, 1)),), 2.5]
    played = refused = 0
    for _ in range(1500):
        state = mangled(rng.choice(base), rng, junk)
        preset = "tenhou_sanma" if state[0] == 3 else "mahjong_soul"
        try:
            rows = rollout.run(state, preset, list(KAN_POLICIES)[rng.randrange(2)],
                               [rng.randrange(10)], indicators=True)
        except rollout.RolloutStateError:
            refused += 1
        except RuntimeError as err:  # a consistent-looking state the hand cannot finish
            assert "could not be played" in str(err)
        else:
            assert rows.shape == (1, len(rollout.COLUMNS) + 1)
            played += 1
    assert refused > 500 and played > 20, (refused, played)


@built
@pytest.mark.parametrize("preset", ["tenhou", "mahjong_soul"])
def test_four_kans_by_one_player_play_on(preset: str) -> None:
    """The dealer's three honour quads and a fourth made of replacement tiles: four kans by
    one player do not abort the hand (no fifth is offered), on both sides."""
    world = _round(["1111z2222z3333z4p", "13579m13579p135s", "2468m2468p2468s5z",
                    "12345678m1234p6z"], "4z", preset, rinshan="4z4z4z9m")
    for policy in KAN_POLICIES:
        rnd = _same(world, policy)
        assert [(e.type, e.actor) for e in rnd.events if e.type in _KANS] == [("ankan", 0)] * 4
        assert rnd.result is not None and rnd.result.kind != "abortive"


@built
@pytest.mark.parametrize(("deal", "kans"), [("111m234p567s789s5z", ["ankan"]),
                                            ("1113m456p789s555z", [])])
def test_a_closed_kan_in_riichi_only_where_the_waits_stay(deal: str, kans: list[str]) -> None:
    """The dealer declares riichi, then draws the fourth 1m: with 111m a set apart (waiting on
    5z either way) the kan is declared; with 1113m (2m and 3m, only 3m after a kan) the
    engine does not offer it."""
    world = _round([deal, "2468m2468p2468s6z", "3579m13579p135s4z", "3579m1357p3579s7z"],
                   "9p1z2z3z1m")
    one_m = T.parse("1m")[0]
    for policy in KAN_POLICIES:
        rnd = _same(world, policy)
        reach = next(i for i, e in enumerate(rnd.events) if e.type == "reach")
        assert any(e.type == "tsumo" and e.actor == 0 and e.pai == one_m
                   for e in rnd.events[reach:])
        assert [e.type for e in rnd.events if e.type in _KANS] == kans


@built
def test_no_closed_kan_in_riichi_that_changes_the_waits_even_when_the_count_stays() -> None:
    """The dealer is in riichi on 1113m (2m and 3m); the other three discard the 2m whose
    fourth copy is the dora indicator, and the dealer draws the fourth 1m.  After a kan only 3m
    would be left -- the waits change, so the engine does not offer the kan -- but with every
    2m seen the live effective tiles stay three either way, so the kan rule alone would take
    it: only the core's riichi check (waits unchanged) turns it down here."""
    world = _round(["1113m456p789s555z", "2m468m2468p2468s6z", "2m579m13579p135s4z",
                    "2m579m1357p3579s7z"], "9p1z2z3z1m", dora="2m")
    _step(world, 0, "reach")
    _step(world, 0, "dahai", "9p")
    _no_calls(world)
    for seat in (1, 2, 3):
        _step(world, seat, "dahai", "2m")
        _no_calls(world)  # the dealer lets the 2m go (riichi furiten), nobody calls
    one_m = T.parse("1m")[0]
    assert world.phase == "act" and world.turn == 0 and world.riichi[0]
    (d,) = [d for d in world.pending() if d.seat == 0]
    assert not [e for e in d.legal if e.type == "ankan"]
    state = rollout.export_state(world)
    for policy in KAN_POLICIES:
        assert rollout.decide(state, world.rules, policy) == ("dahai", one_m)
        rnd = _same(world, policy)
        assert not [e for e in rnd.events if e.type in _KANS]
