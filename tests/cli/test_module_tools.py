"""The ``python -m tenpai.…`` tools are held to the bar of the ``tenpai`` commands.

``test_flag_meanings`` walks the typer app; the development tools the docs tell people to run
(``python -m tenpai.search.measure``, ``python -m tenpai.bench.riichi_point_flow``, …) build
their own argparse parsers, so they are walked here: each parser is caught where the tool calls
``parse_args`` (nothing is played or read), every argument must say what it is in ``--help``, and
every count typed :func:`tenpai.argtypes.positive_int` refuses 0 at the command line with exit
status 2.  A new module with a ``__main__`` block and an argparse parser that is not listed
fails ``test_every_module_tool_is_listed``, so it cannot skip the bar.
"""

from __future__ import annotations

import argparse
import importlib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tenpai.argtypes import non_negative_int, positive_float, positive_int

SRC = Path(__file__).resolve().parents[2] / "src"

#: Every ``python -m`` tool with an argparse command line, and the arguments that let its
#: ``main`` reach ``parse_args`` (none need more than an empty list).
TOOLS: tuple[str, ...] = (
    "tenpai.bench.mcr_danger_calibration",
    "tenpai.bench.mcr_race_survival",
    "tenpai.bench.mcr_reading_calibration",
    "tenpai.bench.mcr_score_breakdown",
    "tenpai.bench.planner_calibration",
    "tenpai.bench.riichi_point_flow",
    "tenpai.bench.target_plot",
    "tenpai.learn.project",
    "tenpai.learn.shard_metrics",
    "tenpai.mcts.pg_measure",
    "tenpai.rl.planner_probe",
    "tenpai.search.calibration",
    "tenpai.search.choice_evidence",
    "tenpai.search.leaf_agreement",
    "tenpai.search.mcr.measure",
    "tenpai.search.measure",
    "tenpai.search.playout_yaku",
    "tenpai.search.sight_agreement",
    "tenpai.search.world_calibration",
    "tenpai.serve.tenhou.measure",
)
#: Modules with a ``__main__`` block that are not argparse tools, and why.
NOT_TOOLS: dict[str, str] = {
    "tenpai.__main__": "the tenpai command itself (typer; test_flag_meanings)",
    "tenpai.cli.main": "the tenpai command itself (typer; test_flag_meanings)",
    "tenpai.arena.engine_check": "a child process started by the arena with fixed arguments",
    "tenpai.bench.botzone_greedy_bot": "a Botzone bot: its one flag is the platform's own",
    "tenpai.serve.botzone.package": "the entry point written into a Botzone package",
}


class _Built(Exception):
    """Raised in place of ``parse_args`` to hand the finished parser to the test."""

    def __init__(self, parser: argparse.ArgumentParser) -> None:
        super().__init__(parser.prog)
        self.parser = parser


def _parser_of(module: str, monkeypatch: pytest.MonkeyPatch) -> argparse.ArgumentParser:
    def caught(self: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        raise _Built(self)

    main = importlib.import_module(module).main
    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", caught)
    with pytest.raises(_Built) as built:
        main([])
    monkeypatch.undo()
    return built.value.parser


def _arguments(parser: argparse.ArgumentParser
               ) -> Iterator[tuple[argparse.ArgumentParser, argparse.Action]]:
    """(the parser that owns it, action) of every argument, sub-commands' included."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from _arguments(sub)
        elif not isinstance(action, argparse._HelpAction):
            yield parser, action


def _module_of(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts)


def test_every_module_tool_is_listed() -> None:
    found = {_module_of(p) for p in (SRC / "tenpai").rglob("*.py")
             if re.search(r'^if __name__ == "__main__":', p.read_text(encoding="utf-8"), re.M)}
    assert found - set(NOT_TOOLS) == set(TOOLS)


@pytest.mark.parametrize("module", TOOLS)
def test_every_argument_says_what_it_is(module: str, monkeypatch: pytest.MonkeyPatch) -> None:
    parser = _parser_of(module, monkeypatch)
    assert parser.description, f"{module}: --help has no description"
    silent = [f"{owner.prog}: {action.option_strings or action.dest}"
              for owner, action in _arguments(parser)
              if not (action.help or "").strip() or action.help == argparse.SUPPRESS]
    assert not silent, f"arguments without help: {silent}"


@pytest.mark.parametrize("module", TOOLS)
def test_counts_refuse_zero_at_the_command_line(module: str, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    parser = _parser_of(module, monkeypatch)
    counts = [(owner, a) for owner, a in _arguments(parser)
              if a.type is positive_int and a.option_strings]
    for owner, action in counts:
        flag = action.option_strings[-1]
        with pytest.raises(SystemExit) as exited:
            owner.parse_args([flag, "0"])
        assert exited.value.code == 2
        assert f"argument {flag}: must be at least 1, got 0" in capsys.readouterr().err, owner.prog


def test_games_are_counts_in_every_tool(monkeypatch: pytest.MonkeyPatch) -> None:
    """A ``--games`` never takes a negative number; where it takes 0 (the measures: the
    figures' names without playing, what their tests read) its help says what 0 does."""
    wrong = [module for module in TOOLS for _, a in _arguments(_parser_of(module, monkeypatch))
             if "--games" in a.option_strings
             and not (a.type is positive_int
                      or (a.type is non_negative_int and "(0: " in (a.help or "")))]
    assert not wrong


@pytest.mark.parametrize(("kind", "text", "message"), [
    (positive_int, "0", "must be at least 1, got 0"),
    (positive_int, "-3", "must be at least 1, got -3"),
    (positive_int, "2.5", "a whole number, not '2.5'"),
    (non_negative_int, "-1", "must be 0 or more, got -1"),
    (positive_float, "0", "must be a finite number above 0, got 0"),
    (positive_float, "inf", "must be a finite number above 0, got inf"),
    (positive_float, "nan", "must be a finite number above 0, got nan"),
    (positive_float, "x", "a number, not 'x'"),
])
def test_bad_values_are_refused_with_the_reason(kind: object, text: str, message: str) -> None:
    assert callable(kind)
    with pytest.raises(argparse.ArgumentTypeError, match=f"^{re.escape(message)}$"):
        kind(text)


def test_good_values_pass() -> None:
    assert positive_int("7") == 7
    assert non_negative_int("0") == 0
    assert positive_float("0.25") == 0.25


def test_a_temperature_that_is_no_number_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """It used to end in a traceback (``float('x')``) or pass (``nan``)."""
    from tenpai.search.world_calibration import main

    for bad, reason in (("1,x", "a number, not 'x'"), ("nan", "above 0, got nan"),
                        ("0", "above 0, got 0")):
        with pytest.raises(SystemExit) as exited:
            main(["data", "--temperatures", bad])
        assert exited.value.code == 2
        err = capsys.readouterr().err
        assert "argument --temperatures: " in err and reason in err, err
