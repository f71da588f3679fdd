"""The planner's ``runner_up`` tie-break: the second-best target each discard keeps, and the
discard it picks among those that keep equally valuable best targets."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from typer.testing import CliRunner

from tenpai.agents.planner import PlannerAgent, planned_discard
from tenpai.agents.planner_settings import PlannerSettings
from tenpai.cli.main import app
from tenpai.events import Event
from tenpai.rules.mcr.plan import (
    PlanError,
    PlanState,
    best_by_discard,
    plan,
    ranked_by_discard,
)
from tenpai.tiles import kind_of, parse, parse_counts

_HANDS = ("12345678m234s55p7z", "1122m3344p5566s7z1s", "123m456p789s123z55m",
          "1234567m23s3457p")


def test_ranked_by_discard_matches_scoring_everything(
        hand_state: Callable[..., PlanState]) -> None:
    for text in _HANDS:
        state = hand_state(text)
        targets = plan(state)
        ranked = ranked_by_discard(state, depth=2)
        for k in range(34):
            if not state.concealed[k]:
                continue
            keeping = sorted((t.value for t in targets if t.keeps(k)), reverse=True)[:2]
            got = [t.value for t in ranked.get(k, ())]
            assert got == pytest.approx(keeping), (text, k)


def test_depth_one_is_the_best_target(hand_state: Callable[..., PlanState]) -> None:
    for text in _HANDS:
        state = hand_state(text)
        best = best_by_discard(state)
        ranked = ranked_by_discard(state, depth=1)
        assert {k: r[0] for k, r in ranked.items()} == best
    with pytest.raises(PlanError, match="depth"):
        ranked_by_discard(hand_state(_HANDS[0]), depth=0)


def _discards(text: str) -> tuple[list[int], list[Event]]:
    return parse_counts(text), [Event("dahai", actor=0, pai=t) for t in parse(text)]


def test_the_runner_up_picks_among_tied_discards_before_efficiency() -> None:
    # 1m and 9s tie on the best target's value; efficiency throws one of them first, the
    # runner-up either, whichever keeps the better second target
    counts, discards = _discards("1m234567m2345p99s9s")
    one_m, nine_s = 0, parse_counts("9s").index(1)
    values = {one_m: 1.0, nine_s: 1.0}
    plain = planned_discard(list(counts), discards, [0] * 34, {}, values)
    assert plain.pai is not None and kind_of(plain.pai) in (one_m, nine_s)
    for second in ({one_m: 0.5, nine_s: 0.2}, {one_m: 0.2, nine_s: 0.5}):
        picked = planned_discard(list(counts), discards, [0] * 34, {}, values, second)
        assert picked.pai is not None and kind_of(picked.pai) == max(second, key=second.__getitem__)
    # it never overrides the best target's value
    picked = planned_discard(list(counts), discards, [0] * 34, {}, {one_m: 1.0, nine_s: 0.9},
                             {one_m: 0.0, nine_s: 5.0})
    assert picked.pai is not None and kind_of(picked.pai) == one_m


def test_runner_up_changes_some_discards_of_a_game(
        first_hand: Callable[..., list[Event]]) -> None:
    plain = PlannerAgent(0)
    runner = PlannerAgent(0, settings=PlannerSettings(tie_break="runner_up"))
    assert runner.identity == "tie_break=runner_up" and plain.identity == ""
    differ = 0
    for seed in range(4):
        a = first_hand([plain] * 4, seed)
        b = first_hand([runner] * 4, seed)
        differ += a != b
    assert differ >= 1


def test_explain_plays_the_tie_break_it_is_given() -> None:
    # a random position (development search, seed 5) where the two orders part: 2m and 2z keep
    # the same best target; efficiency throws the 2m, the runner-up the 2z, whose discard
    # keeps the better second target
    args = ["explain", "--hand", "2889m38p23899s236z", "--seen", "2245668m2267899p1136778s25567z",
            "--draws", "12", "--json"]
    plain = json.loads(CliRunner().invoke(app, args).output)
    runner = CliRunner().invoke(app, args, env={"TENPAI_PLANNER_TIE_BREAK": "runner_up"})
    assert plain["discard"] == "2m" and json.loads(runner.output)["discard"] == "2z"
    text = CliRunner().invoke(app, args[:-1], env={"TENPAI_PLANNER_TIE_BREAK": "runner_up"})
    assert "tie-break runner_up" in text.output
    bad = CliRunner().invoke(app, args, env={"TENPAI_PLANNER_TIE_BREAK": "fastest"})
    assert bad.exit_code == 2 and "TENPAI_PLANNER_TIE_BREAK" in bad.output


def test_bad_tie_breaks_are_one_line(bad_setting_is_one_line: Callable[[str, str], None],
                                     arena_refuses: Callable[..., None]) -> None:
    bad_setting_is_one_line("TENPAI_PLANNER_TIE_BREAK", "fastest")
    with pytest.raises(ValueError, match="VALUE=best"):
        PlannerSettings.from_env({"TENPAI_PLANNER_TIE_BREAK": "runner_up",
                                  "TENPAI_PLANNER_VALUE": "union"})
    arena_refuses("TENPAI_PLANNER_TIE_BREAK", "fastest")
