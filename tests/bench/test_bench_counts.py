"""The comma-separated counts of ``tenpai bench process --games`` and ``bench selfplay --tables``:
one parser, bad values refused in one line naming the option (exit 2) before any bench runs."""

from __future__ import annotations

import pytest
import typer
from typer.testing import CliRunner

from tenpai.cli.bench import _counts
from tenpai.cli.main import app


def test_counts_reads_whole_numbers_and_skips_empty_parts() -> None:
    assert _counts("1, 10,,100", "--games", "game", 10_000) == [1, 10, 100]


@pytest.mark.parametrize(("text", "message"), [
    ("1,x", "whole numbers separated by commas"),
    ("", "table counts must be from 1 to 4096"),
    ("0,4", "table counts must be from 1 to 4096"),
    ("4097", "table counts must be from 1 to 4096"),
])
def test_counts_refuses_bad_values(text: str, message: str) -> None:
    with pytest.raises(typer.BadParameter, match=message):
        _counts(text, "--tables", "table", 4096)


@pytest.mark.parametrize(("args", "option", "message"), [
    (["process", "--no-startup", "--games", "1,20000"], "--games",
     "game counts must be from 1 to 10000"),
    (["selfplay", "--agent", "efficiency", "--tables", "16,a"], "--tables",
     "whole numbers separated by commas"),
])
def test_bench_commands_refuse_bad_counts(args: list[str], option: str, message: str) -> None:
    out = CliRunner().invoke(app, ["bench", *args])
    assert out.exit_code == 2, out.output
    assert option in out.output and message in out.output
