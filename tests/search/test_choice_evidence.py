"""The choice-evidence tool: which rule changes the prior's choice, and what the reference says."""

from __future__ import annotations

import json
import math

import pytest

from tenpai.search.choice import paired_advantage
from tenpai.search.choice_evidence import evidence, main, summarise


def _sparse(n: int, k: int, gain: float = 10.0) -> list[list[float]]:
    """Two candidates equal in every world but the first ``k``, where the second gains."""
    return [[0.0, gain if w < k else 0.0] for w in range(n)]


@pytest.mark.parametrize("n", [64, 256])
def test_a_few_favourable_worlds_give_a_t_of_about_their_square_root(n: int) -> None:
    ts = []
    for k in (1, 2, 3, 4):
        mean, se = paired_advantage(_sparse(n, k), 1, 0)
        ts.append(mean / se)
    assert ts[0] == pytest.approx(1.0)
    for k, t in zip((2, 3, 4), ts[1:]):
        assert math.sqrt(k) <= t <= math.sqrt(k) * 1.05


def test_two_favourable_worlds_of_64_clear_a_bar_of_one_but_not_of_one_and_a_half() -> None:
    ref = [[0.0, -1.0]] * 32                    # the reference says the change loses 1 point
    e = evidence(_sparse(64, 2), ref, 0, [1.0, 1.0], [64], [1.0, 1.5])
    assert e.choices == {(64, 1.0): 1, (64, 1.5): 0}
    assert e.differing == {(64, 1.0): 2, (64, 1.5): 0}
    assert e.reference == (0.0, -1.0)
    s = summarise([e], [64], [1.0, 1.5])
    assert s["rules"]["worlds=64,z=1"]["changed"] == 1.0
    assert s["rules"]["worlds=64,z=1"]["gain_per_decision"] == -1.0
    assert s["rules"]["worlds=64,z=1"]["changes_confirmed"] == 0.0
    assert s["rules"]["worlds=64,z=1"]["worlds_differing_median"] == 2.0
    stays = s["rules"]["worlds=64,z=1.5"]
    assert (stays["changed"], stays["gain_per_decision"]) == (0.0, 0.0)
    assert stays["changes_confirmed"] is None and stays["worlds_differing_median"] is None
    assert s["ceiling_gain"] == 0.0            # the prior's own choice is the reference's best


def test_each_size_reads_only_the_first_worlds() -> None:
    # the first 8 worlds favour candidate 1, the rest favour the prior's choice strongly
    values = [[0.0, 5.0 if w % 2 == 0 else 4.0] for w in range(8)] + [[9.0, 0.0]] * 56
    ref = [[1.0, 0.0, 0.0]] * 4
    e = evidence([[*v, 0.0] for v in values], ref, 0, [1.0, 1.0, 1.0], [8, 64], [0.0])
    assert e.choices[(8, 0.0)] == 1
    assert e.choices[(64, 0.0)] == 0


def test_the_gain_interval_is_over_decisions_and_the_ceiling_is_the_references_best() -> None:
    up = evidence(_sparse(16, 4), [[0.0, 2.0], [0.0, 4.0]], 0, [1.0, 1.0], [16], [1.0])
    down = evidence(_sparse(16, 4), [[0.0, -2.0], [0.0, -2.0]], 0, [1.0, 1.0], [16], [1.0])
    s = summarise([up, down], [16], [1.0])
    rule = s["rules"]["worlds=16,z=1"]
    assert rule["gain_per_decision"] == pytest.approx(0.5)      # (+3 − 2) / 2
    assert rule["gain_low"] < 0.5 < rule["gain_high"]
    assert rule["changes_confirmed"] == 0.5
    assert s["ceiling_gain"] == pytest.approx(1.5)              # (3 + 0) / 2
    assert s["decisions"] == 2
    assert summarise([], [16], [1.0]) == {"decisions": 0}


def test_a_size_above_the_worlds_played_or_no_worlds_is_refused() -> None:
    with pytest.raises(ValueError, match="size 128 above the 64 worlds"):
        evidence(_sparse(64, 2), [[0.0, 0.0]], 0, [1.0, 1.0], [128], [1.0])
    with pytest.raises(ValueError, match="no worlds"):
        evidence([], [[0.0, 0.0]], 0, [1.0, 1.0], [1], [1.0])


@pytest.mark.parametrize("flag", [["--worlds", "0,64"], ["--worlds", "a"], ["--z", "-1"],
                                  ["--reference-worlds", "0"]])
def test_bad_lists_are_one_line_and_exit_2(flag: list[str],
                                           capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(flag)
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("usage:") or "error:" in err[-1]
    assert any("error:" in line for line in err)


def test_a_bar_of_zero_in_the_settings_is_refused(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("TENPAI_SEARCH_Z", "0")
    with pytest.raises(SystemExit) as stop:
        main(["--games", "1"])
    assert stop.value.code == 2
    assert "TENPAI_SEARCH_Z must be above 0" in capsys.readouterr().err


def test_a_small_run_prints_one_json_line(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("torch")
    main(["--games", "1", "--seed", "38987", "--max-decisions", "2", "--worlds", "4,8",
          "--reference-worlds", "8", "--z", "1"])
    out = json.loads(capsys.readouterr().out)
    assert out["decisions"] == 2
    assert set(out["rules"]) == {"worlds=4,z=1", "worlds=8,z=1"}
    assert out["reference_worlds"] == 8


def test_a_small_mcr_run_prints_one_json_line(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--rules", "mcr", "--games", "2", "--seed", "47192", "--max-decisions", "2",
          "--worlds", "2,4", "--reference-worlds", "4", "--z", "0,1"])
    out = json.loads(capsys.readouterr().out)
    assert (out["rule_set"], out["decisions"]) == ("mcr", 2)
    assert set(out["rules"]) == {"worlds=2,z=0", "worlds=2,z=1", "worlds=4,z=0", "worlds=4,z=1"}


def test_mcr_values_from_another_first_world_are_that_worlds_values() -> None:
    import dataclasses

    from tenpai.search.mcr.agent import MCRSearchAgent
    from tenpai.search.mcr.searched_decisions import mcr_searched_decisions
    from tenpai.search.mcr.settings import MCRSearchSettings

    settings = dataclasses.replace(MCRSearchSettings(), budget_ms=1e9, worlds=4)
    agent = MCRSearchAgent(settings, seed=3)
    table, seat, cands, legal = next(mcr_searched_decisions(agent, 1, 47192, 1))
    six = MCRSearchAgent(dataclasses.replace(settings, worlds=6), seed=3)
    every = six.values(table, seat, cands, legal)
    assert len(cands) >= 2 and every[:4] != every[2:]   # the offset shows in the values
    assert agent.values(table, seat, cands, legal) == every[:4]
    assert agent.values(table, seat, cands, legal, 2) == every[2:]
