"""Compiled playouts on to the end of the game (:mod:`tenpai.rules.riichi.game_rollout`).

Each hand is played in C; between hands the flow is the game's own (``next_hand``).  The
checks: seeded and bit-identical; points conserved; the ranks the game's; and from chosen
game states (all-last with the dealer on top or behind, nobody at the target, the west round,
a seat about to bust) the playout ends after its first hand exactly when :class:`RiichiGame`,
stepping the same hand with the Python engine and the reference policy, ends the game.
Skipped where the extension is not built (``TENPAI_PURE_PYTHON=1``), except the test that
the unavailable core says so.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from tenpai.agents.efficiency import EfficiencyAgent
from tenpai.rules.riichi import rollout
from tenpai.rules.riichi.game import RiichiGame, rank_order
from tenpai.rules.riichi.game_rollout import play_to_end
from tenpai.rules.riichi.ruleset import PRESETS, RiichiRules

from .rollout_worlds import PRESET_NAMES, reference_agents, worlds

built = pytest.mark.skipif(not rollout.available(), reason="compiled rollout core not built")


@built
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_same_seeds_give_the_same_arrays_and_other_seeds_differ(preset: str) -> None:
    game = RiichiGame(PRESETS[preset], seed=11)
    a = play_to_end(game, "greedy-random", range(40))
    b = play_to_end(game, "greedy-random", range(40))
    c = play_to_end(game, "greedy-random", range(1000, 1040))
    n = game.players
    assert a.scores.shape == (40, n) and a.ranks.shape == (40, n) and a.hands.shape == (40,)
    for x, y in ((a.scores, b.scores), (a.ranks, b.ranks), (a.hands, b.hands)):
        assert x.tobytes() == y.tobytes()
    assert not np.array_equal(a.scores, c.scores)
    # each seed is one playout, whatever the others in the call
    one = play_to_end(game, "greedy-random", [7])
    assert one.scores.tobytes() == a.scores[7].tobytes()
    assert one.hands[0] == a.hands[7]


@built
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_points_are_conserved_and_ranks_follow_the_scores(preset: str) -> None:
    rules = PRESETS[preset]
    # mid-game, with sticks on the table: they end with the first place
    game = RiichiGame(rules, seed=5, start=(0, 1, 2, 2),
                      scores=[rules.starting_points - 1000] * rules.players)
    out = play_to_end(game, "fast-kan", range(60))
    total = (rules.starting_points - 1000) * rules.players + 2 * rules.riichi_deposit
    assert (out.scores.sum(axis=1) == total).all()
    assert (out.hands >= 1).all() and out.hands.max() > 3
    for scores, ranks in zip(out.scores.tolist(), out.ranks.tolist()):
        order = rank_order(scores)
        assert [order.index(s) for s in range(rules.players)] == ranks
        assert sorted(ranks) == list(range(rules.players))


def test_ties_go_to_the_seat_nearer_the_first_dealer() -> None:
    assert rank_order([25_000, 30_000, 25_000, 20_000]) == [1, 0, 2, 3]
    assert rank_order([35_000, 35_000, 35_000]) == [0, 1, 2]


def _spread(total: int, fixed: dict[int, int], n: int) -> tuple[int, ...]:
    """Scores of ``n`` seats summing to ``total``: the ``fixed`` seats as given, the others
    sharing the rest (seat order breaks the remainder)."""
    free = [s for s in range(n) if s not in fixed]
    share, extra = divmod(total - sum(fixed.values()), len(free))
    scores = [fixed.get(s, share) for s in range(n)]
    scores[free[0]] += extra
    return tuple(scores)


def _scenarios(n: int, start_pts: int, target: int) -> dict[str, tuple[tuple[int, ...],
                                                                       tuple[int, int]]]:
    """Game states (scores, (wind, kyoku)) whose next hand decides the end of the game."""
    last = n - 1  # the dealer of a wind round's last hand
    total = n * start_pts
    return {
        "all-last, dealer on top": (_spread(total, {last: target + 15_000}, n), (1, last)),
        "all-last, dealer behind": (_spread(total, {last: 10_000}, n), (1, last)),
        "all-last, nobody at the target": ((start_pts,) * n, (1, last)),
        "west, nobody at the target": ((start_pts,) * n, (2, last)),
        "east 2, a seat about to bust": (_spread(total, {0: 500}, n), (0, 1)),
    }


def _first_hands(rules: RiichiRules, scores: tuple[int, ...], start: tuple[int, int, int],
                 per_kind: int) -> dict[str, list[int]]:
    """Game seeds whose first hand (played by ``greedy`` in C) ends each way that decides the
    flow differently: a dealer win or not, a draw with the dealer tenpai or not."""
    found: dict[str, list[int]] = {}
    for seed in range(400):
        game = RiichiGame(rules, seed=seed, scores=scores, start=(*start, 0), engine="python")
        rnd = game.round
        assert rnd is not None
        row = rollout.run(rollout.export_state(rnd), rules, "greedy", [seed])[0]
        kind = rollout.KINDS[int(row[0])]
        dealer_in = bool(int(row[1 if kind == "hora" else 2]) >> rnd.oya & 1)
        end = kind if kind == "abortive" else f"{kind}, dealer {'in' if dealer_in else 'out'}"
        seeds = found.setdefault(end, [])
        if len(seeds) < per_kind:
            seeds.append(seed)
    return found


@built
def test_the_game_ends_after_the_first_hand_exactly_when_the_game_ends_it() -> None:
    seen: Counter[tuple[str, str, bool]] = Counter()
    for preset in PRESET_NAMES:
        rules = PRESETS[preset]
        n = rules.players
        for name, (scores, (wind, kyoku)) in _scenarios(n, rules.starting_points,
                                                          rules.target_points).items():
            assert sum(scores) == n * rules.starting_points
            for end, seeds in _first_hands(rules, scores, (wind, kyoku, 0), 3).items():
                for seed in seeds:
                    game = RiichiGame(rules, seed=seed, scores=scores,
                                      start=(wind, kyoku, 0, 0), engine="python")
                    out = play_to_end(game, "greedy", [seed])
                    agents = reference_agents("greedy", n)
                    while not game.results:  # the same hand in the Python engine
                        game.step({d.seat: agents[d.seat].act(d.observation, d.legal)
                                   for d in game.pending()})
                    ended = game.done
                    assert (int(out.hands[0]) == 1) == ended, (preset, name, seed)
                    if ended:
                        assert tuple(out.scores[0].tolist()) == game.final_scores, (preset, seed)
                    seen[(name, end, ended)] += 1
    # every way the flow can go from these states was met
    want = [
        ("all-last, dealer on top", "hora, dealer in", True),
        ("all-last, dealer on top", "exhaustive, dealer in", True),
        ("all-last, dealer on top", "hora, dealer out", True),
        ("all-last, dealer behind", "hora, dealer in", False),
        ("all-last, dealer behind", "exhaustive, dealer in", False),
        ("all-last, dealer behind", "hora, dealer out", True),
        ("all-last, dealer behind", "abortive", False),
        ("all-last, nobody at the target", "exhaustive, dealer out", False),
        ("all-last, nobody at the target", "hora, dealer out", False),
        ("west, nobody at the target", "exhaustive, dealer out", True),
        ("east 2, a seat about to bust", "hora, dealer out", True),
        ("east 2, a seat about to bust", "hora, dealer out", False),
    ]
    missing = [w for w in want if not seen[w]]
    assert not missing, (missing, seen)


@built
def test_what_it_cannot_play_is_refused() -> None:
    game = RiichiGame(PRESETS["tenhou"], seed=1, engine="python")
    other = RiichiGame(PRESETS["tenhou"], seed=1, engine="python",
                       scorer=lambda *a, **k: None)
    with pytest.raises(rollout.RolloutStateError, match="default scorer"):
        play_to_end(other, "greedy", [1])
    with pytest.raises(rollout.RolloutStateError, match="unknown rollout policy"):
        play_to_end(game, "nonsense", [1])
    with pytest.raises(rollout.RolloutStateError, match="RiichiGame or a RiichiRound"):
        play_to_end("tenhou", "greedy", [1])  # type: ignore[arg-type]
    over = RiichiGame(PRESETS["tenhou"], seed=1, scores=[-1000, 40_000, 31_000, 30_000],
                      start=(1, 3, 0, 0), engine="python")
    agents = reference_agents("greedy", 4)
    while not over.done:
        over.step({d.seat: agents[d.seat].act(d.observation, d.legal) for d in over.pending()})
    with pytest.raises(rollout.RolloutStateError, match="game is over"):
        play_to_end(over, "greedy", [1])


def test_without_the_core_it_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rollout._core, "module", None)
    game = RiichiGame(PRESETS["tenhou"], seed=1, engine="python")
    with pytest.raises(rollout.RolloutUnavailable, match="build_ext --inplace"):
        play_to_end(game, "greedy", [1])


@built
def test_a_sampled_world_plays_on_from_its_own_game_context() -> None:
    """A round (a search world, mid-hand, any exportable phase) carries the winds, honba,
    deposits and scores the flow needs; a hand the core cannot start from is refused."""
    checked = ended = 0
    for preset in PRESET_NAMES:
        rules = PRESETS[preset]
        for world in worlds(preset, 3, every=11):
            out = play_to_end(world, "fast", range(4))
            total = sum(world.scores) + world.kyotaku * rules.riichi_deposit
            assert (out.scores.sum(axis=1) == total).all()
            first = rollout.run(rollout.export_state(world), rules, "fast", range(4))
            for row, hands, scores in zip(first, out.hands, out.scores.tolist()):
                if hands == 1:  # the game ended with this hand: its scores, sticks settled
                    final = [int(x) for x in row[5:5 + rules.players]]
                    kyotaku = int(row[4])
                    final[rank_order(final)[0]] += kyotaku * rules.riichi_deposit
                    assert scores == final
                    ended += 1
            checked += 1
    assert checked > 30 and ended > 5, (checked, ended)
    game = RiichiGame(PRESETS["tenhou"], seed=4, engine="python")
    agents = [EfficiencyAgent(s) for s in range(4)]
    while not game.done:
        rnd = game.round
        assert rnd is not None
        if rnd.reach_pending is not None and rnd.phase == "discard":
            break
        game.step({d.seat: agents[d.seat].act(d.observation, d.legal) for d in game.pending()})
    assert rnd is not None and rnd.reach_pending is not None, "no riichi declared in the game"
    with pytest.raises(rollout.RolloutStateError, match="after a riichi declaration"):
        play_to_end(game, "greedy", [1])
