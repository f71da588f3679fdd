"""A folder of saved games holds more than records; replay reads only the records."""

from __future__ import annotations

import json
from pathlib import Path

from tenpai.replay.runner import iter_record_files


def test_the_tenhou_tables_results_file_is_not_taken_for_a_record(tmp_path: Path) -> None:
    (tmp_path / "game-0000-seed1.mjlog").write_text("<mjloggm ver='2.3'></mjloggm>")
    row = {"game": 0, "seed": 1, "final_scores": [25000] * 4, "ranks": [1, 2, 3, 4]}
    (tmp_path / "results.jsonl").write_text(json.dumps(row) + "\n")
    (tmp_path / "README.md").write_text("notes")
    assert [f.name for f in iter_record_files([tmp_path])] == ["game-0000-seed1.mjlog"]
    # a results file named on the command line is still read (and refused) as asked
    assert list(iter_record_files([tmp_path / "results.jsonl"])) == [tmp_path / "results.jsonl"]
