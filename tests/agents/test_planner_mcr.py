"""The MCR fan planner on hand-made hands, its odds model, and the `planner` agent in games."""

from __future__ import annotations

from collections.abc import Callable
from math import comb

import pytest

from tenpai.agents import make_agent
from tenpai.agents.planner import PlannerAgent, PlannerError, plan_state
from tenpai.arena.games import make_game
from tenpai.events import Event
from tenpai.rules.mcr import Meld
from tenpai.rules.mcr.game import MCRGame
from tenpai.rules.mcr.plan import (
    FAN_CAP,
    OddsError,
    PlanError,
    PlanState,
    best_by_discard,
    best_target,
    completion_probability,
    plan,
)
from tenpai.tiles import parse_counts


def _kind(text: str) -> int:
    return parse_counts(text).index(1)


def _fan_names(t: object) -> set[str]:
    return {name for name, _ in t.fans}  # type: ignore[attr-defined]


def test_one_tile_from_a_pure_straight_names_the_tile_and_its_odds() -> None:
    # 123 456 78m + 234s + 55p: 9m completes a pure straight (6m would only make 678m)
    counts = parse_counts("12345678m234s55p")
    live = [4 - c for c in counts]
    live[_kind("9m")] = 3  # one 9m already discarded
    state = PlanState(tuple(counts), live=tuple(live), draws=12)
    targets = plan(state)
    straight = [t for t in targets if "Pure Straight" in _fan_names(t)]
    assert straight, [t.describe() for t in targets[:5]]
    best = straight[0]
    assert best.needed == ((_kind("9m"), 1),)
    assert best.points >= 16 and best.points >= 8
    # one kind, three live copies: P = 1 - C(U-3, D) / C(U, D)
    u = state.unseen
    assert best.probability == pytest.approx(1 - comb(u - 3, 12) / comb(u, 12))
    assert targets[0].value == max(t.value for t in targets)


def test_every_target_reaches_eight_fans_and_needs_live_tiles(
        hand_state: Callable[..., PlanState]) -> None:
    for text in ("12345678m234s55p", "1122m3344p5566s7z", "19m19p19s1234567z",
                 "258m369p147s11z44p"):
        state = hand_state(text)
        for t in plan(state):
            assert t.points >= 8
            assert 0.0 < t.probability <= 1.0
            assert all(state.live[k] >= n for k, n in t.needed)
            assert sum(t.hand) == 14
            assert t.missing == sum(t.hand) - (13 - sum(n for _, n in t.excess))


def test_special_shapes_are_targets(hand_state: Callable[..., PlanState]) -> None:
    pairs = plan(hand_state("1122m3344p5566s7z"))
    assert any("Seven Pairs" in _fan_names(t) and t.needed == ((_kind("7z"), 1),)
               for t in pairs)
    orphans = plan(hand_state("19m19p19s1234567z"))
    assert any("Thirteen Orphans" in _fan_names(t) for t in orphans)
    knitted = plan(hand_state("258m369p147s11z44p"))
    assert any("Knitted Straight" in _fan_names(t) for t in knitted)


def test_a_chicken_hand_is_not_a_target_but_its_eight_fan_neighbour_is(
        hand_state: Callable[..., PlanState]) -> None:
    # an open hand: chow 234m, pung 9s (not a value pung); waiting 123p + 78p -> 6p/9p
    melds = (Meld.chow(_kind("2m")), Meld.pung(_kind("9s")))
    state = hand_state("123p78p55s", melds=melds)
    for t in plan(state):
        assert t.points >= 8
        # winning on 6p or 9p now is worth far less than 8 (no fan pattern, open hand)
        assert t.needed not in (((_kind("6p"), 1),), ((_kind("9p"), 1),))


def test_probabilities_are_monotone_in_live_copies_and_draws() -> None:
    k = _kind("5p")
    live = [4] * 34
    previous = 0.0
    for copies in range(0, 5):
        live[k] = copies
        p = completion_probability(((k, 1),), live, 100, 10)
        assert 0.0 <= p <= 1.0
        assert p >= previous
        previous = p
    assert completion_probability(((k, 2),), live, 100, 10) < previous
    by_draws = [completion_probability(((k, 1),), live, 100, d) for d in range(0, 20)]
    assert by_draws == sorted(by_draws) and by_draws[0] == 0.0
    assert completion_probability((), live, 100, 0) == 1.0


def test_joint_probability_is_exact_on_a_small_case() -> None:
    # six unseen tiles, one copy each of kinds a and b, three draws: both drawn in 4 of 20 ways
    live = [0] * 34
    live[0] = live[1] = 1
    assert completion_probability(((0, 1), (1, 1)), live, 6, 3) == pytest.approx(4 / 20)
    # needing more copies than are live is impossible
    assert completion_probability(((0, 2),), live, 6, 3) == 0.0
    with pytest.raises(OddsError):
        completion_probability(((0, 1), (1, 1)), live, 1, 3)  # two live among one unseen


def test_best_by_discard_matches_scoring_everything(hand_state: Callable[..., PlanState]) -> None:
    for text in ("12345678m234s55p7z", "1122m3344p5566s7z1s", "123m456p789s123z55m"):
        state = hand_state(text)
        targets = plan(state)
        assert all(t.points <= FAN_CAP for t in targets)
        fast = best_by_discard(state)
        for k in range(34):
            if not state.concealed[k]:
                continue
            keeping = [t.value for t in targets if t.keeps(k)]
            if keeping:
                assert fast[k].value == pytest.approx(max(keeping)), (text, k)
            else:
                assert k not in fast
    waiting = hand_state("12345678m234s55p")
    top = best_target(waiting)
    assert top is not None and top.value == pytest.approx(plan(waiting)[0].value)


def test_bad_plan_states_are_typed_errors() -> None:
    with pytest.raises(PlanError, match="concealed"):
        PlanState(tuple(parse_counts("123m")))
    with pytest.raises(PlanError, match="live"):
        PlanState(tuple(parse_counts("12345678m234s55p")), live=(5,) * 34)
    with pytest.raises(PlanError, match="draws"):
        PlanState(tuple(parse_counts("12345678m234s55p")), draws=-1)


@pytest.mark.parametrize("preset", ["botzone", "mcr_official"])
def test_planner_plays_legal_moves_through_seeded_games(preset: str) -> None:
    actions = 0
    for seed in range(2):
        game = make_game("mcr", seed, ["p", "e", "p", "e"], {"preset": preset})
        assert isinstance(game, MCRGame)
        agents = [make_agent("planner" if i % 2 == 0 else "efficiency", seed * 4 + i)
                  for i in range(4)]
        hands = 0
        while not game.done and hands < 1:
            answers: dict[int, Event] = {}
            for d in game.pending():
                a = agents[d.seat].act(d.observation, d.legal)
                assert a in d.legal
                answers[d.seat] = a
                actions += 1
            game.step(answers)
            hands = len(game.results)
    assert actions > 50


def test_planner_reads_the_observation() -> None:
    game = make_game("mcr", 2, ["a", "b", "c", "d"], {"preset": "botzone"})
    d = game.pending()[0]
    state = plan_state(d.observation)
    # Botzone: 34-tile seat walls, 13 dealt, and the dealer has made its first draw
    assert sum(state.concealed) == 14 and state.draws == 20
    assert state.unseen == 136 - 14 - sum(d.observation.visible_counts())
    # one shared wall (the Green Book): a quarter of it, rounded up
    # (every draw, flower replacements included, is a tsumo event)
    shared = make_game("mcr", 2, ["a", "b", "c", "d"], {"preset": "mcr_official"})
    drawn = sum(1 for e in shared.events if e.type == "tsumo")
    assert shared.pending()[0].observation.draws_left == (144 - 4 * 13 - drawn + 3) // 4


def test_planner_refuses_riichi() -> None:
    game = make_game("riichi", 1, ["a", "b", "c", "d"], {})
    d = game.pending()[0]
    with pytest.raises(PlannerError):
        PlannerAgent(0).act(d.observation, [e for e in d.legal if e.type != "hora"])


def test_explain_command_for_the_planner() -> None:
    import json

    from typer.testing import CliRunner

    from tenpai.cli.main import app

    args = ["explain", "--agent", "planner", "--hand", "12345678m234s55p7z", "--seen", "9m",
            "--draws", "10"]
    r = CliRunner().invoke(app, [*args, "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["discard"] == "7z"
    assert data["by_discard"]["7z"]["needed"] == "9m"
    assert 0.0 < data["by_discard"]["7z"]["probability"] <= 1.0
    assert ["Pure Straight", 16] in data["by_discard"]["7z"]["fans"]
    text = CliRunner().invoke(app, args)
    assert text.exit_code == 0 and "discard: 7z" in text.output
    for bad in (["--hand", "1234x"], ["--hand", "123m"], ["--hand", "12345678m234s55p7z",
                                                          "--melds", "chi:135m"],
                ["--hand", "12345678m234s55p7z", "--seen", "1111m"], []):
        r = CliRunner().invoke(app, ["explain", "--agent", "planner", *bad])
        assert r.exit_code == 2 and "error" in r.output and "Traceback" not in r.output, bad
