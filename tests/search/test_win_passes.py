"""World weights from passed wins: a world whose hand for an opponent could have won on a tile
it let go is impossible; no yaku, furiten or an incomplete hand leave the world alone."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence

import pytest

from tenpai import tiles as T
from tenpai.agents.efficiency import EfficiencyAgent
from tenpai.events import Event
from tenpai.rules.riichi.game import RiichiGame
from tenpai.rules.riichi.ruleset import TENHOU, RiichiRules
from tenpai.search.agent import SearchAgent
from tenpai.search.prior import AgentPrior
from tenpai.search.settings import SearchSettings
from tenpai.search.weights import SummedLikelihood, normalised
from tenpai.search.win_passes import LOG_IMPOSSIBLE, WinChance, WinPassLikelihood, win_chances

from .helpers import HAND0, TONPUU, dahai, find, tile, tiles, tsumo

#: All simples, waiting on 2m or 5m: a ron on either is tanyao.
TANYAO = tiles("2m", "3m", "4m", "5m", "4p", "5p", "6p", "3s", "4s", "5s", "6s", "7s", "8s")
#: Waiting on 9m alone (a single wait, terminals): a ron has no yaku unless in riichi.
NO_YAKU = tiles("1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2s", "3s", "4s", "9m")
#: Far from ready: no waits at all.
JUNK = tiles("1m", "4m", "7m", "1p", "4p", "7p", "1s", "4s", "7s", "E", "S", "W", "N")
#: After a pon of 5p: 23m 456s 678s 22p waits on 1m (no yaku) or 4m (open tanyao).
OPEN_HAND = tiles("2m", "3m", "4s", "5s", "6s", "6s", "7s", "8s", "2p", "2p")


def _start() -> Event:
    return Event("start_kyoku", bakaze=0, kyoku=0, honba=0, kyotaku=0, oya=0,
                 scores=(25000,) * 4, dora_marker=tile("2p"), tehais=(HAND0, None, None, None))


def _head(first: str = "9p") -> list[Event]:
    """Seat 0 throws a North, seat 1 its ``first`` tile from the hand: seat 1's window
    starts after it."""
    return [_start(), tsumo(0), dahai(0, "N"), tsumo(1), dahai(1, first)]


def _weight(events: list[Event], seat1: tuple[int, ...], rules: RiichiRules | None = None
            ) -> float:
    part = WinPassLikelihood()
    world = {1: seat1, 2: JUNK, 3: JUNK}
    return part.log_weights(part.evidence(events, 0, 4, rules), [world])[0]


def test_a_passed_ron_with_a_yaku_makes_the_world_impossible() -> None:
    events = [*_head(), tsumo(2), dahai(2, "5m"), tsumo(3)]
    assert _weight(events, TANYAO) == LOG_IMPOSSIBLE
    assert _weight(events, JUNK) == 0.0             # not ready: nothing passed
    assert _weight(events[:-1], TANYAO) == 0.0      # the claim window is still open


def test_no_yaku_or_furiten_leave_the_world_alone() -> None:
    assert _weight([*_head(), tsumo(2), dahai(2, "9m"), tsumo(3)], NO_YAKU) == 0.0
    # the same tanyao hand, furiten: one of its waits (2m) is in its own river
    assert _weight([*_head("2m"), tsumo(2), dahai(2, "5m"), tsumo(3)], TANYAO) == 0.0


def test_riichi_is_a_yaku_and_the_window_runs_from_the_declaration() -> None:
    riichi = [_start(), tsumo(0), dahai(0, "N"), tsumo(1), Event("reach", actor=1), dahai(1, "9p"),
              Event("reach_accepted", actor=1), tsumo(2), dahai(2, "1p"), tsumo(3), dahai(3, "9m"),
              tsumo(0)]
    assert _weight(riichi, NO_YAKU) == LOG_IMPOSSIBLE
    # later tsumogiri do not end the window of a player in riichi
    later = [*riichi, dahai(0, "S", True), tsumo(1), dahai(1, "E", True), tsumo(2)]
    assert _weight(later, NO_YAKU) == LOG_IMPOSSIBLE
    chance = [c for c in win_chances(later, 0, 4) if c.seat == 1 and c.tile == tile("9m")]
    assert len(chance) == 1 and chance[0].request.riichi


def test_an_opponent_who_let_its_own_winning_draw_go_passed_a_tsumo() -> None:
    # closed: menzen tsumo is a yaku even for the hand without one on a ron
    events = [*_head(), tsumo(2), dahai(2, "1p"), tsumo(3), dahai(3, "1p"), tsumo(0), dahai(0, "S"),
              tsumo(1), dahai(1, "9m", True), tsumo(2)]
    assert _weight(events, NO_YAKU) == LOG_IMPOSSIBLE
    tedashi = [*events[:-2], dahai(1, "9m"), tsumo(2)]  # a hand tile: the window starts after it
    assert _weight(tedashi, NO_YAKU) == 0.0


def _open_head() -> list[Event]:
    pon = Event("pon", actor=1, target=0, pai=tile("5p"), consumed=tiles("5p", "5p"))
    return [_start(), tsumo(0), dahai(0, "5p"), pon, dahai(1, "9s")]


def test_an_open_hand_needs_its_yaku_and_temporary_furiten_counts_any_passed_wait() -> None:
    head = _open_head()
    assert _weight([*head, tsumo(2), dahai(2, "4m"), tsumo(3)], OPEN_HAND) == LOG_IMPOSSIBLE
    assert _weight([*head, tsumo(2), dahai(2, "1m"), tsumo(3)], OPEN_HAND) == 0.0  # no yaku
    # 1m let go (no yaku there) makes it furiten until its own next discard: 4m is no ron
    furiten = [*head, tsumo(2), dahai(2, "1m"), tsumo(3), dahai(3, "4m"), tsumo(0)]
    assert _weight(furiten, OPEN_HAND) == 0.0
    # its own tsumogiri ends the temporary furiten: the next 4m is a ron it passed
    cleared = [*furiten, dahai(0, "S"), tsumo(1), dahai(1, "N", True), tsumo(2), dahai(2, "4m"),
               tsumo(3)]
    assert _weight(cleared, OPEN_HAND) == LOG_IMPOSSIBLE
    # an open hand without a yaku may not tsumo either; with tanyao it may
    tsumo_1m = [*head, tsumo(2), dahai(2, "1p"), tsumo(3), dahai(3, "1p"), tsumo(0), dahai(0, "S"),
                tsumo(1), dahai(1, "1m", True), tsumo(2)]
    assert _weight(tsumo_1m, OPEN_HAND) == 0.0
    tsumo_4m = [*tsumo_1m[:-2], dahai(1, "4m", True), tsumo(2)]
    assert _weight(tsumo_4m, OPEN_HAND) == LOG_IMPOSSIBLE


#: Tenhou's rules without open tanyao (kuitan): an open all-simples hand has no yaku.
NO_KUITAN = dataclasses.replace(TENHOU, open_tanyao=False)


def test_the_tables_rules_judge_the_yaku() -> None:
    passed_4m = [*_open_head(), tsumo(2), dahai(2, "4m"), tsumo(3)]
    assert _weight(passed_4m, OPEN_HAND) == LOG_IMPOSSIBLE  # by default Tenhou's: open tanyao
    assert _weight(passed_4m, OPEN_HAND, TENHOU) == LOG_IMPOSSIBLE
    assert _weight(passed_4m, OPEN_HAND, NO_KUITAN) == 0.0  # no yaku at this table
    # a closed all-simples hand keeps its tanyao there
    passed_5m = [*_head(), tsumo(2), dahai(2, "5m"), tsumo(3)]
    assert _weight(passed_5m, TANYAO, NO_KUITAN) == LOG_IMPOSSIBLE
    # the table's rules win over the part's own
    rules, _ = WinPassLikelihood(TENHOU).evidence(passed_4m, 0, 4, NO_KUITAN)
    assert rules is NO_KUITAN


class _RulesSeen(WinPassLikelihood):
    """The part, recording the rules each weighing judged the yaku by."""

    def __init__(self) -> None:
        super().__init__()
        self.judged_by: list[RiichiRules] = []

    def log_weights(self, evidence: tuple[RiichiRules, Sequence[WinChance]],
                    hands: Sequence[Mapping[int, Sequence[int]]]) -> list[float]:
        self.judged_by.append(evidence[0])
        return super().log_weights(evidence, hands)


def test_the_search_agent_judges_passed_wins_by_its_tables_rules() -> None:
    rules = dataclasses.replace(TONPUU, open_tanyao=False)
    rnd, d = find(lambda r, d: r.phase == "act" and r.turn == d.seat and len(r.events) > 40,
                  range(0, 4), rules=rules)
    assert rnd.rules.open_tanyao is False
    part = _RulesSeen()
    settings = SearchSettings(worlds=2, worlds_mode="weighted", pool=2, weight_win_passes=True)
    agent = SearchAgent(AgentPrior(EfficiencyAgent(5), 0.5), settings=settings, seed=5,
                        weigher=SummedLikelihood([part]))
    agent.weighted_pool(rnd, d.seat)
    assert part.judged_by == [rnd.rules]


def test_a_pool_of_impossible_worlds_still_normalises() -> None:
    part = WinPassLikelihood()
    events = [*_head(), tsumo(2), dahai(2, "5m"), tsumo(3)]
    worlds = [{1: TANYAO, 2: JUNK, 3: JUNK}, {1: TANYAO, 2: JUNK, 3: NO_YAKU}]
    logw = part.log_weights(part.evidence(events, 0, 4), worlds)
    assert logw == [LOG_IMPOSSIBLE, LOG_IMPOSSIBLE]
    other = [-1.0, -2.0]  # another part's log weights decide among them
    assert normalised([a + b for a, b in zip(other, logw)]) == pytest.approx(normalised(other))
    assert all(math.isfinite(w) for w in normalised(logw))


class _NeverWins(EfficiencyAgent):
    """``efficiency`` that lets every win go (so that the table has passed wins to find)."""

    def act(self, observation: object, legal: object) -> Event:
        options = [e for e in legal if e.type != "hora"]  # type: ignore[attr-defined]
        return super().act(observation, options or legal)  # type: ignore[arg-type]


def test_the_engine_and_the_part_agree_on_which_true_hands_passed_a_win() -> None:
    """Agents that never win at a seeded engine table: at every own-turn decision the true
    hands are judged impossible exactly when the engine had offered an opponent a win (ron or
    tsumo) inside its window that it let go; and each chance on which a true hand waited is a
    passed win exactly when the engine offered the win there (not when furiten or without a
    yaku)."""
    from tenpai.hand import waits
    from tenpai.search.call_likelihood import claim_window

    part = WinPassLikelihood(TONPUU)
    agreed = {True: 0, False: 0}
    refused = 0  # possible worlds although a true hand waited on a tile it let go
    for seed in (4, 7):
        game = RiichiGame(TONPUU, seed=seed)
        agent = _NeverWins(seed)
        offers: dict[tuple[int, int], list[int]] = {}  # (hand, seat) -> event indices
        steps = 0
        while not game.done and steps < 400:
            rnd = game.round
            assert rnd is not None
            pending = game.pending()
            for d in pending:
                if any(e.type == "hora" for e in d.legal):
                    offers.setdefault((rnd.hand_index, d.seat), []).append(len(rnd.events) - 1)
            for d in pending:
                if rnd.phase != "act" or d.seat != rnd.turn or steps % 2:
                    continue
                events = rnd._observe(d.seat).events
                truth = {s: tuple(rnd.hands[s]) for s in range(4) if s != d.seat}
                evidence = part.evidence(events, d.seat, 4)
                got = part.log_weights(evidence, [truth])[0]
                expected = False
                for s in truth:
                    start = claim_window(events, s).start
                    if rnd.riichi[s]:
                        reach = max(i for i, e in enumerate(events)
                                    if e.type == "reach" and e.actor == s)
                        start = min(start, next(
                            i for i in range(reach, len(events))
                            if events[i].type == "dahai" and events[i].actor == s) + 1)
                    expected |= any(i >= start for i in offers.get((rnd.hand_index, s), []))
                assert (got == LOG_IMPOSSIBLE) == expected, (seed, steps, d.seat)
                agreed[expected] += 1
                rules, chances = evidence
                for c in chances:  # each chance the true hand waited on: legal iff offered
                    hand = truth[c.seat]
                    if len(hand) % 3 == 1 and T.kind_of(c.tile) in waits(T.counts34(hand)):
                        offered = c.at in offers.get((rnd.hand_index, c.seat), [])
                        assert part.passed_win(c, hand, rules) == offered, (seed, steps, c)
                        refused += not offered
            game.step({d.seat: agent.act(d.observation, d.legal) for d in pending})
            steps += 1
    assert agreed[True] > 20 and agreed[False] > 20 and refused > 10


def test_the_setting_adds_the_part_and_is_off_by_default() -> None:
    assert SearchSettings().weight_win_passes is False
    env = {"TENPAI_SEARCH_WORLDS_MODE": "weighted", "TENPAI_SEARCH_WEIGHT_WIN_PASSES": "1"}
    settings = SearchSettings.from_env(env)
    assert settings.weight_win_passes and "weight_win_passes=True" in settings.describe()
    with pytest.raises(ValueError, match="WEIGHT_WIN_PASSES=1 weights worlds, so it needs"):
        SearchSettings.from_env({"TENPAI_SEARCH_WEIGHT_WIN_PASSES": "1"})
    with pytest.raises(ValueError, match="WEIGHT_WIN_PASSES: cannot read 'maybe'"):
        SearchSettings.from_env({"TENPAI_SEARCH_WEIGHT_WIN_PASSES": "maybe"})


def test_the_registered_agent_adds_the_win_passes_to_its_weights() -> None:
    pytest.importorskip("torch")
    from tenpai.search.agent import make_search_agent
    from tenpai.search.call_likelihood import CallLikelihood
    from tenpai.search.weights import DiscardLikelihood, SummedLikelihood

    both = make_search_agent(0, {"TENPAI_SEARCH_WORLDS_MODE": "weighted",
                                 "TENPAI_SEARCH_WEIGHT_CALLS": "1",
                                 "TENPAI_SEARCH_WEIGHT_WIN_PASSES": "1"})
    assert isinstance(both.weigher, SummedLikelihood)
    assert [type(p) for p in both.weigher.parts] == [DiscardLikelihood, CallLikelihood,
                                                     WinPassLikelihood]


def test_a_weighted_search_with_win_passes_is_reproducible() -> None:
    settings = SearchSettings(budget_ms=1e6, worlds=3, top_k=2, worlds_mode="weighted", pool=3,
                              weight_win_passes=True)
    rnd, d = find(lambda r, d: r.phase == "act" and r.turn == d.seat and len(r.events) > 40,
                  range(0, 4))
    picks = []
    for _ in range(2):
        agent = SearchAgent(AgentPrior(EfficiencyAgent(5), 0.5), settings=settings, seed=5,
                            weigher=WinPassLikelihood())
        hands, ess = agent.weighted_pool(rnd, d.seat)
        picks.append(([h.hands for h in hands], ess))
        assert agent.act(d.observation, d.legal) in d.legal
    assert picks[0] == picks[1]


def test_calibration_rows_report_the_win_pass_weightings() -> None:
    import numpy as np

    from tenpai.search.world_calibration import Rows, scores

    rows = Rows([4.0])
    x = np.asarray([1.0, 0.0])
    even = np.asarray([0.5, 0.5])
    rows.add(x, {4.0: even}, 1, None, {4.0: np.asarray([1.0, 0.0]), "uniform": even})
    rows.add(x, {4.0: even}, 0, None, {4.0: np.asarray([0.0, 1.0]), "uniform": even})
    report = scores(rows)
    assert report["wins_T4"]["brier"] == 0.0
    assert report["uniform_wins"]["brier"] == report["uniform"]["brier"] == 0.25
    assert "calls_T4" not in report


def test_the_window_stops_at_a_hand_tile_discard() -> None:
    # a tedashi after the pass: the pass was made with a hand the world does not name
    events = [*_head(), tsumo(2), dahai(2, "5m"), tsumo(3), dahai(3, "1p"), tsumo(0), dahai(0, "S"),
              tsumo(1), dahai(1, "W"), tsumo(2)]
    assert _weight(events, TANYAO) == 0.0


#: In riichi, waiting on 9m alone after a closed kan of 1s (which left the wait as it was).
AFTER_KAN = tiles("1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "9m")


def test_a_closed_kan_in_riichi_does_not_end_the_window() -> None:
    def stream(riichi: bool) -> list[Event]:
        declare = [Event("reach", actor=1)] if riichi else []
        accepted = [Event("reach_accepted", actor=1)] if riichi else []
        kan = Event("ankan", actor=1, consumed=tiles("1s", "1s", "1s", "1s"))
        return [_start(), tsumo(0), dahai(0, "N"), tsumo(1), *declare, dahai(1, "9p"), *accepted,
                tsumo(2), dahai(2, "9m"), tsumo(3), dahai(3, "1p"), tsumo(0), dahai(0, "S"),
                tsumo(1), kan, tsumo(1), dahai(1, "W", True), tsumo(2)]

    assert _weight(stream(riichi=True), AFTER_KAN) == LOG_IMPOSSIBLE  # 9m passed in riichi
    assert _weight(stream(riichi=False), AFTER_KAN) == 0.0  # before the kan: another hand
