"""The placement model: shipped file, monotone sanity, file checks, and the fit."""

from __future__ import annotations

import itertools
import json
import resource
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tenpai.search.placement import (
    TENHOU,
    PlacementError,
    TablePosition,
    final_rank_probs,
    load_placement_model,
    parse_utility,
)


def test_more_points_never_lower_the_expected_utility() -> None:
    model = load_placement_model()
    for bakaze, kyoku in ((0, 0), (0, 3), (1, 3)):
        for length in ("tonpuu", "hanchan"):
            values = []
            for mine in range(5000, 60001, 5000):
                pos = TablePosition((mine, 25000, 25000, 25000), bakaze, kyoku, 0, 0, length)
                probs = model.table_probs(pos)[0]
                values.append(TENHOU.of(probs))
            assert all(b > a for a, b in itertools.pairwise(values)), (bakaze, kyoku, values)


def test_a_lead_counts_more_near_the_end() -> None:
    model = load_placement_model()
    scores = (35000, 25000, 22000, 18000)
    early = model.table_probs(TablePosition(scores, 0, 0, 0, 0, "hanchan"))[0][0]
    last = model.table_probs(TablePosition(scores, 1, 3, 0, 0, "hanchan"))[0][0]
    assert last > early


def test_balanced_table_gives_each_rank_once() -> None:
    model = load_placement_model()
    p = model.table_probs(TablePosition((31000, 24000, 26000, 19000), 0, 2, 1, 1, "tonpuu"))
    assert np.allclose(p.sum(axis=0), 1.0, atol=1e-3)
    assert np.allclose(p.sum(axis=1), 1.0, atol=1e-6)


def test_final_ranks_give_leftover_deposits_to_first_and_ties_to_the_first_seat() -> None:
    ranks = final_rank_probs((30000, 30000, 20000, 19000), kyotaku=1)
    assert ranks[0][0] == 1.0 and ranks[1][1] == 1.0 and ranks[3][3] == 1.0


def test_shipped_model_reports_its_held_out_figures() -> None:
    m = load_placement_model().metrics
    assert m["heldout_log_loss"] < m["heldout_log_loss_constant"]


def _write(tmp_path: Path, change: dict[str, object]) -> Path:
    d = load_placement_model().to_json()
    d.update(change)
    p = tmp_path / "model.json"
    p.write_text(json.dumps(d))
    return p


def test_a_model_for_other_rules_is_refused_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(PlacementError, match="rules 'mcr'"):
        load_placement_model(_write(tmp_path, {"rules": "mcr"}))
    with pytest.raises(PlacementError, match="3 players"):
        load_placement_model(_write(tmp_path, {"players": 3}))
    with pytest.raises(PlacementError, match="other features"):
        load_placement_model(_write(tmp_path, {"features": ["x"]}))
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(PlacementError, match="not JSON"):
        load_placement_model(bad)
    with pytest.raises(PlacementError, match="cannot read"):
        load_placement_model(tmp_path / "missing.json")


def test_utilities() -> None:
    assert parse_utility("").weights == (90.0, 45.0, 0.0, -135.0)
    assert parse_utility("uma").weights == (20.0, 10.0, -10.0, -20.0)
    assert parse_utility("3,1,-1,-3").weights == (3.0, 1.0, -1.0, -3.0)
    for bad in ("nope", "1,2,3", "1,2,3,4", "1,1,1,1"):
        with pytest.raises(ValueError):
            parse_utility(bad)


def test_train_placement_model_refuses_a_missing_path_in_one_line(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from tenpai.cli.main import app

    r = CliRunner().invoke(app, ["train", "placement-model", str(tmp_path / "none"),
                                 "--out", str(tmp_path / "m.json")])
    assert r.exit_code == 2
    assert "no such file or folder" in r.output and "Traceback" not in r.output
    empty = tmp_path / "empty"
    empty.mkdir()
    r = CliRunner().invoke(app, ["train", "placement-model", str(empty),
                                 "--out", str(tmp_path / "m.json")])
    assert r.exit_code == 2
    assert "no complete four-player game" in r.output


def test_train_placement_model_refuses_a_folder_as_out_before_fitting(tmp_path: Path) -> None:
    """As ``train opponent-models`` does: the fit (hours on the full records) never starts."""
    from typer.testing import CliRunner

    from cli.refusal import one_line
    from tenpai.cli.main import app

    records = tmp_path / "records"
    records.mkdir()  # no game: the old code went on to the fit and refused for that instead
    res = CliRunner().invoke(app, ["train", "placement-model", str(records),
                                   "--out", str(tmp_path)])
    assert str(tmp_path) in one_line(res, "--out", "is a folder")


@pytest.mark.corpus
def test_train_placement_model_reports_a_model_it_cannot_write_in_one_line(
    data_dir: Path, tmp_path: Path
) -> None:
    from typer.testing import CliRunner

    from cli.refusal import one_line
    from tenpai.cli.main import app

    records = data_dir / "riichi" / "tenhou_mjlog" / "mjx-project_mjx" / "tests_py"
    (tmp_path / "plain").write_text("a file where --out wants a folder")
    out = tmp_path / "plain" / "m.json"
    res = CliRunner().invoke(app, ["train", "placement-model", str(records), "--room", "any",
                                   "--out", str(out)])
    assert f"cannot write {out}" in one_line(res)


def _small_files() -> None:
    """Child: no file may grow past 1 KiB (a full disk, as far as the write can tell)."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))


def test_a_model_write_that_fails_leaves_the_older_file_whole(tmp_path: Path) -> None:
    """The model is written beside its target and renamed: a write cut short (here by a file
    size limit) leaves the file that was there, and no temporary file."""
    path = tmp_path / "m.json"
    load_placement_model(players=3).save(path)
    before = path.read_bytes()
    assert len(before) > 1024
    code = ("import sys\n"
            "from tenpai.search.placement import load_placement_model\n"
            "try:\n"
            "    load_placement_model(players=4).save(sys.argv[1])\n"
            "except OSError as exc:\n"
            "    sys.exit(f'OSError {exc.errno}')\n")
    res = subprocess.run([sys.executable, "-B", "-c", code, str(path)], capture_output=True,
                         text=True, timeout=120, preexec_fn=_small_files)
    assert res.returncode == 1 and res.stderr.startswith("OSError"), res.stderr[-1500:]
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["m.json"]
