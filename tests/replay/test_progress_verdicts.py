"""``tenpai replay``'s live progress counts each game as its final summary does.

Replaying the Tenhou corpus showed "3 failed" while it ran and ``failed 0`` at the end: the
progress kept its own count from a pass/fail flag, and three truncated fixtures whose complete
rounds do not replay (the summary skips a truncated record, never fails it) came through as
fails.  The runner now tells ``on_game`` the verdict the summary counts.
"""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tenpai.cli.main import app
from tenpai.progress import ENV_SECONDS
from tenpai.replay.runner import replay_files

GOOD = "riichi/tenhou_mjlog/mjx-project_mjx/tests_py/2010081709gm-00a9-0000-fe3371ad.mjlog"
#: cut off before its end; its third round's score differs from the engine's (a fixture of
#: tenhou-python-bot, not a played game), so its complete rounds do not replay
TRUNCATED = "riichi/tenhou_mjlog/tenhou-python-bot/system_testing_fixtures/23.txt"


@pytest.fixture()
def folder(data_dir: Path, tmp_path: Path) -> Path:
    """One complete game that replays and one truncated record."""
    shutil.copy(data_dir / GOOD, tmp_path / "good.mjlog")
    shutil.copy(data_dir / TRUNCATED, tmp_path / "truncated.txt")
    return tmp_path


def test_on_game_is_told_the_verdict_the_summary_counts(folder: Path) -> None:
    told: list[tuple[str, str]] = []
    summary = replay_files([folder], on_game=lambda name, verdict: told.append((name, verdict)))
    assert (summary.games, summary.passed, summary.skipped, summary.failures) == (2, 1, 1, [])
    (reason,) = summary.skip_reasons
    assert "do not replay" in reason  # the case the progress called a failure
    assert sorted((Path(n).name, v) for n, v in told) == [
        ("good.mjlog", "passed"), ("truncated.txt", "skipped")]
    counts = Counter(v for _n, v in told)
    assert (counts["passed"], counts["skipped"], counts["failed"]) == (
        summary.passed, summary.skipped, len(summary.failures))


def test_the_progress_line_and_the_summary_agree(folder: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_SECONDS, "0")  # a plain progress line per game
    res = CliRunner().invoke(app, ["replay", str(folder)])
    assert res.exit_code == 0, res.output
    assert "games 2, passed 1, skipped 1, failed 0" in res.stdout
    last = [x for x in res.stderr.splitlines() if x.startswith("replaying done:")]
    assert len(last) == 1, res.stderr
    assert "0 failed, 1 skipped" in last[0], last[0]
    assert "FAIL" not in res.stderr
