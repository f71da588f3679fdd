"""Issue 39, item 8: every entry point asks the same question — does this agent play this rule
set? — before any game (``check_agent_rules``, then ``check_built_agent`` for the model an agent
loaded).  Before, ``explain`` explained a Chinese Official hand as Riichi, and ``dataset record
--rules suits108 --agents sl,...``, ``train imitate --teacher sl`` and ``bench agent --agent
pg_mcr`` ran without complaint.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.refusal import one_line
from tenpai.agents import make_agent
from tenpai.agents.rulesets import UnsupportedRulesError, check_built_agent
from tenpai.cli.main import app

MCR_SAMPLE = "mcr/botzone_text/lawlorentz_Chinese-Standard-Mahjong-Simulate/sample.txt"


def test_explain_refuses_a_chinese_official_record(data_dir: Path) -> None:
    res = CliRunner().invoke(app, ["explain", str(data_dir / MCR_SAMPLE)])
    one_line(res, "mcr", "mdp")


def test_dataset_record_refuses_agents_of_another_rule_set(tmp_path: Path) -> None:
    out = tmp_path / "recs"
    res = CliRunner().invoke(app, ["dataset", "record", str(out), "--rules", "suits108",
                                   "--agents", "sl,efficiency,efficiency,efficiency",
                                   "--games", "1"])
    one_line(res, "sl", "suits108")
    assert not out.exists() or not any(out.iterdir())


def test_dataset_record_refuses_an_absurd_count(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["dataset", "record", str(tmp_path / "r"), "--games",
                                   "99999999999999999999"])
    assert res.exit_code == 2


def test_train_imitate_refuses_a_riichi_teacher(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    res = CliRunner().invoke(app, ["train", "imitate", "--out", str(tmp_path / "m.pt"),
                                   "--teacher", "sl", "--games", "1"])
    one_line(res, "sl", "mcr")
    assert not (tmp_path / "m.pt").exists()


@pytest.mark.parametrize("agent", ["pg_mcr", "sl_mcr", "dropout"])
def test_bench_agent_refuses_an_agent_of_another_rule_set(agent: str) -> None:
    res = CliRunner().invoke(app, ["bench", "agent", "--agent", agent, "--games", "1"])
    one_line(res, agent, "riichi")


def test_check_built_agent_reads_the_model_rules() -> None:
    check_built_agent("efficiency", make_agent("efficiency", 0), "mcr")
    with pytest.raises(UnsupportedRulesError, match="plays mcr, not 'riichi'"):
        check_built_agent("sl_mcr", object(), "riichi")

    class Built:
        model_rules = "suits108"

    with pytest.raises(UnsupportedRulesError, match="suits108 model"):
        check_built_agent("mcts", Built(), "riichi")
