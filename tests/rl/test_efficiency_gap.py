"""The efficiency-gap diagnostic: which of a player's discards differ from the efficiency rule."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tenpai.agents.efficiency import EfficiencyAgent
from tenpai.engine.agent import RandomAgent
from tenpai.rl.efficiency_gap import KINDS, GapCount, efficiency_gap

MCR = {"preset": "botzone"}
RIICHI = {"preset": "tenhou", "length": "tonpuu"}


@pytest.mark.parametrize(("rules", "options"), [("mcr", MCR), ("riichi", RIICHI)])
def test_the_efficiency_agent_always_plays_its_own_kind(rules: str,
                                                        options: dict[str, str]) -> None:
    count = efficiency_gap(EfficiencyAgent(0), rules, options, range(3), tables=3)
    report = count.report()
    assert report["compared"] > 50
    assert report["same"]["count"] == report["compared"]
    assert report["same"]["share"] == 1.0


def test_a_random_player_often_breaks_its_hand() -> None:
    report = efficiency_gap(RandomAgent(1), "mcr", MCR, range(4), tables=4).report()
    assert report["higher_shanten"]["share"] > 0.3
    assert sum(report[k]["count"] for k in KINDS) == report["compared"]
    assert sum(report[k]["share"] for k in KINDS) == pytest.approx(1.0)
    for k in KINDS:
        assert report[k]["low"] <= report[k]["share"] <= report[k]["high"]
    assert report["mean_tiles_lost"] > 0


def test_shares_and_their_interval_are_over_games() -> None:
    count = GapCount()
    for same, shanten, tiles in ((6, 4, 0), (4, 0, 9), (6, 4, 0), (4, 0, 9)):
        count.per_game.append({"same": same, "higher_shanten": shanten, "fewer_tiles": 10 - same
                               - shanten, "other": 0, "threatened": 1, "tiles_lost": tiles})
    rate, low, high = count.share("same")
    assert rate == pytest.approx(0.5)
    # Ten discards a game, game shares 0.6/0.4/0.6/0.4: the ratio estimator's variance is
    # sum((a - rate * n)^2) / (k (k - 1)) / mean(n)^2 = 4 / 12 / 100.
    half = 1.96 * (4 / 12 / 100) ** 0.5
    assert (low, high) == pytest.approx((0.5 - half, 0.5 + half))
    assert count.report()["mean_tiles_lost"] == pytest.approx(18 / 12)
    assert count.report()["threatened"] == 4


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tenpai", "eval", "efficiency-gap", *args],
                          capture_output=True, text=True, timeout=120)


def test_cli_prints_one_json_object() -> None:
    done = _cli("--agent", "efficiency", "--rules", "mcr", "--deals", "2", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["games"] == 2 and report["same"]["share"] == 1.0
    assert report["options"] == MCR


def test_cli_refuses_an_agent_of_another_rule_set_in_one_line() -> None:
    done = _cli("--agent", "sl", "--rules", "mcr", "--deals", "2")
    assert done.returncode == 2
    assert "plays riichi" in done.stderr and "Traceback" not in done.stderr
