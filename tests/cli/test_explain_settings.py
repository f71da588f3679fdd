"""``tenpai explain --agent planner[KEY=VALUE]``: the planner's targets under a seat's settings,
the same as under the environment variables they stand for; settings it cannot show refused."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from tenpai.cli.main import app

# positions from a seeded development search (random hands, seed 7) where the setting changes
# the discard the planner plays
_FAN = ["--hand", "1229m159p2446s237z", "--seen", "1233558m11456789p122567889s3347z",
        "--draws", "8"]
_CLAIMS = ["--hand", "89m13389p2445s245z", "--seen", "1122445579m123469p2345778s14466z",
           "--draws", "6"]


def _explain(agent: str, position: list[str], env: dict[str, str] | None = None) -> dict[str, Any]:
    r = CliRunner().invoke(app, ["explain", "--agent", agent, *position, "--json"], env=env)
    assert r.exit_code == 0, r.output
    data: dict[str, Any] = json.loads(r.stdout)
    return data


@pytest.mark.parametrize(("position", "key", "value", "default", "changed"), [
    (_FAN, "FAN_WEIGHT", "0", "1p", "3z"),
    (_CLAIMS, "CLAIMS", "0.3", "1p", "2z"),
])
def test_settings_in_brackets_are_those_of_the_variable(position: list[str], key: str,
                                                        value: str, default: str,
                                                        changed: str) -> None:
    plain = _explain("planner", position)
    bracket = _explain(f"planner[{key}={value}]", position)
    variable = _explain("planner", position, env={f"TENPAI_PLANNER_{key}": value})
    assert plain["discard"] == default and bracket["discard"] == changed
    assert bracket == variable
    assert bracket["by_discard"] != plain["by_discard"]


def test_the_text_says_how_a_target_is_valued() -> None:
    r = CliRunner().invoke(app, ["explain", "--agent", "planner[FAN_WEIGHT=0.5,CLAIMS=0.3]",
                                 *_FAN])
    assert r.exit_code == 0, r.output
    assert "× (24 + 0.5 × fans)" in r.output and "0.3 a discard (CLAIMS)" in r.output


@pytest.mark.parametrize(("agent", "env", "says"), [
    ("planner[VALUE=union]", None, "VALUE=union (in brackets) is not shown by explain"),
    ("planner[SIGHT=draws]", None, "SIGHT=draws (in brackets)"),
    ("planner[TIE_BREAK=safety]", None, "TIE_BREAK=safety (in brackets)"),
    ("planner", {"TENPAI_PLANNER_DEFENSE": "1"}, "from $TENPAI_PLANNER_DEFENSE"),
    ("planner[CLAIMS=2]", None, "CLAIMS must be in [0, 1]"),
    ("planner[NOPE=1]", None, "has no setting NOPE"),
    ("planner[CLAIMS=0.3", None, "one pair of brackets at the end"),
    ("efficiency[X=1]", None, "only 'mdp' and 'planner' can explain themselves"),
])
def test_what_explain_cannot_show_is_one_line_and_exit_2(agent: str, env: dict[str, str] | None,
                                                          says: str) -> None:
    r = CliRunner().invoke(app, ["explain", "--agent", agent, *_FAN], env=env)
    assert r.exit_code == 2, r.output
    lines = [line for line in r.output.splitlines() if line.strip()]
    assert len(lines) == 1 and says in lines[0] and "Traceback" not in r.output
