"""The command line without rough edges: one flag name per meaning, README examples that run
as written, tables that are not cut in a pipe, no degenerate intervals, output paths checked
before the first game, labelled viewer links, each path named once in an error, plain --help.
"""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tenpai.cli.main import app

HOUOU = "riichi/tenhou_mjlog/mjx-project_mjx/tests_py/2020052700gm-00a9-0000-75a4695c.mjlog"
README = Path(__file__).resolve().parents[2] / "README.md"


def _run(args: list[str]) -> tuple[int, str]:
    res = CliRunner().invoke(app, args)
    return res.exit_code, res.output


@pytest.mark.parametrize("command", [
    ["eval", "agreement"], ["dataset", "build"], ["train", "opponent-models"], ["replay"],
])
def test_stop_after_n_games_is_called_games_everywhere(command: list[str]) -> None:
    code, out = _run([*command, "--help"])
    assert code == 0
    assert "--games" in out and "--limit" not in out  # the old spelling is hidden


def test_the_old_limit_flag_still_works_with_a_note(data_dir: Path) -> None:
    code, out = _run(["replay", str(data_dir / HOUOU), "--limit", "1"])
    assert code == 0, out
    assert "--limit is deprecated; use --games" in out and "games 1, passed 1" in out
    code, out = _run(["replay", str(data_dir / HOUOU), "--limit", "1", "--games", "2"])
    assert code == 2 and "disagree" in out


def _readme_commands(prefixes: tuple[str, ...]) -> list[str]:
    """The README's example lines that start with one of ``prefixes``, comments removed."""
    lines = []
    for line in README.read_text(encoding="utf-8").splitlines():
        if line.startswith(prefixes):
            lines.append(re.split(r"\s+#\s", line, maxsplit=1)[0].strip())
    return lines


def test_readme_examples_run_as_written(
    data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cheap README lines on one record, run in order in a fresh folder beside the data."""
    commands = _readme_commands(("cp ../shared/data", "tenpai convert game.mjlog",
                                 "tenpai view game.mjlog", "tenpai explain"))
    assert len(commands) == 5, commands
    work = tmp_path / "checkout"
    work.mkdir()
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "data").symlink_to(data_dir)
    monkeypatch.chdir(work)
    for command in commands:
        words = shlex.split(command)
        if words[0] == "cp":
            shutil.copyfile(words[1], words[2])
            continue
        assert words[0] == "tenpai"
        code, out = _run(words[1:])
        assert code == 0, f"{command}\n{out}"
        if words[1] == "view":
            assert out.startswith("East 1: https://tenhou.net/6/")
        if words[1] == "explain" and "--hand" in words:  # MCR planner on a hand
            assert "discard:" in out and "targets" in out
        elif words[1] == "explain":
            assert "East 2" in out or "E2" in out


def test_view_names_each_link_and_bare_gives_links_only(data_dir: Path) -> None:
    code, out = _run(["view", str(data_dir / HOUOU)])
    assert code == 0
    names = [line.split(": https://", 1)[0] for line in out.splitlines()]
    assert names == ["East 1", "East 2, 1 honba", "East 2, 2 honba", "East 3", "East 4",
                     "South 1", "South 2, 1 honba", "South 3", "South 4"]
    code, out = _run(["view", str(data_dir / HOUOU), "--bare"])
    assert all(line.startswith("https://tenhou.net/6/") for line in out.splitlines())


def test_errors_name_the_file_once(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mjlog"
    bad.write_text("not a record")
    for args in (["explain", str(bad)], ["explain", str(tmp_path / "missing.mjlog")],
                 ["replay", str(bad)]):
        code, out = _run(args)
        assert code in (1, 2)
        path = args[1]
        assert out.replace("\n", "").count(path) == 1, out


@pytest.mark.parametrize("command", [["view"], ["arena"], ["eval", "agreement"], ["replay"]])
def test_help_shows_no_type_beside_flags(command: list[str]) -> None:
    code, out = _run([*command, "--help"])
    assert code == 0 and "--help" in out and "<bool>" not in out


def test_intervals_need_enough_deals_and_width() -> None:
    from tenpai.arena.stats import interval_shown

    assert not interval_shown(0.1, 0.9, 2)  # far too few deals: too wide to mean anything
    assert not interval_shown(2.75, 2.75, 8)  # zero width
    assert not interval_shown(float("nan"), float("nan"), 1)
    assert interval_shown(2.1, 2.9, 5)


def test_small_arena_prints_whole_numbers_says_too_few_and_checks_report_first(
    tmp_path: Path,
) -> None:
    """A pipe (the test runner is not a terminal) gets every column whole; 8 games give no
    interval but say so; a --report that cannot be written stops the run before game one."""
    db = tmp_path / "run.db"
    code, out = _run(["arena", "--agents", "efficiency,defensive,efficiency,defensive",
                      "--games", "8", "--seed", "1", "--workers", "1", "--db", str(db)])
    assert code == 0, out
    assert "…" not in out
    header = next(line for line in out.splitlines() if line.strip().startswith("agent"))
    assert header.split() == ["agent", "games", "rank", "1/2/3/4", "points", "win", "deal-in",
                              "riichi", "call", "dan"]
    assert "too few games for an interval" in out and "±" not in out.split("rank:")[0]
    assert "p-value" in out and "[+" not in out
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    other = tmp_path / "other.db"
    code, out = _run(["arena", "--agents", "efficiency,defensive,efficiency,defensive",
                      "--games", "4", "--db", str(other), "--report", str(blocker)])
    assert code == 2 and "is a file, not a folder" in out
    assert not other.exists(), "a game was played before the report path was checked"


def test_arena_help_names_every_preset_of_every_rule_set() -> None:
    """The help listed Riichi's presets by hand and left out ``tenhou_sanma`` (which the docs
    use); a preset added to a rule set must show up here as well."""
    from tenpai.rules.mcr import PRESETS as MCR_PRESETS
    from tenpai.rules.riichi.ruleset import PRESETS as RIICHI_PRESETS
    from tenpai.rules.suits108.ruleset import PRESETS as SUITS108_PRESETS

    result = CliRunner().invoke(app, ["arena", "--help"], terminal_width=200)
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    preset_help = text[text.index("--preset"):text.index("--option")]
    for name in (*RIICHI_PRESETS, *MCR_PRESETS, *SUITS108_PRESETS):
        assert re.search(rf"\b{name}\b", preset_help), name
