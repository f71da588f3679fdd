"""Issue 39, item 6 (the rest): records ``tenpai replay`` passed that it must reject or report.

A Botzone text file cut short lost its last match without a word (``games 15, passed 15`` for a
file of 16 matches): a verification that silently checks less than the file holds overstates
what was verified, so the cut-off match is now counted as skipped, with the reason and where.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from tenpai.cli.main import app

BOTZONE = "mcr/botzone_text/lawlorentz_Chinese-Standard-Mahjong-Simulate/sample.txt"


def _replay_json(path: Path, *extra: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    res = CliRunner().invoke(app, ["replay", str(path), "--json", *extra])
    return res.exit_code, json.loads(res.output[res.output.index("{"):])


def test_a_botzone_file_cut_short_reports_its_last_match(data_dir: Path, tmp_path: Path) -> None:
    lines = (data_dir / BOTZONE).read_text(encoding="utf-8").splitlines()
    assert sum(1 for x in lines if x.startswith("Match")) == 16
    cut = tmp_path / "cut.txt"
    cut.write_text("\n".join(lines[:-8]) + "\n", encoding="utf-8")
    code, out = _replay_json(cut, "--rules", "mcr")
    assert code == 0, out  # skipped, not failed: the 15 complete matches do replay
    assert out["games"] == 16, out
    assert out["passed"] == 15 and out["skipped"] == 1, out
    (reason,) = out["skip_reasons"]
    assert "truncated" in reason
    (detail,) = out["skipped_details"]
    assert detail["game"].endswith("#16") and "Score" in detail["error"], detail
