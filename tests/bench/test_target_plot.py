"""The target plots of docs/search.md and docs/mcr_strength.md: every row's figures are written,
as the spec formats them, in the page the row names (so the picture cannot drift from the
record), the shipped pictures are drawn from the shipped specs, and a bad spec is one line
naming the file and the row."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tenpai.bench.target_plot import TargetPlotError, draw, load_spec, main

ROOT = Path(__file__).resolve().parents[2]
SPECS = sorted((ROOT / "docs" / "data").glob("*.json"))


def test_the_shipped_specs_exist() -> None:
    assert {p.name for p in SPECS} >= {"search_manue.json", "mcr_bots.json"}


@pytest.mark.parametrize("spec_path", SPECS, ids=lambda p: p.name)
def test_every_row_is_written_in_its_page(spec_path: Path) -> None:
    spec = load_spec(spec_path)
    for row in spec.rows:
        text = (ROOT / row.doc).read_text(encoding="utf-8")
        figures = row.figures(spec.decimals, spec.signed)
        assert figures in text, f"{row.label} ({row.seed}): {figures} not in {row.doc}"
        assert str(row.seed) in text


@pytest.mark.parametrize("spec_path", SPECS, ids=lambda p: p.name)
def test_every_spec_has_its_picture_in_the_docs(spec_path: Path) -> None:
    picture = f"img/{spec_path.stem}.png"
    assert (ROOT / "docs" / picture).is_file()
    pages = {load_spec(spec_path).rows[0].doc}
    assert any(picture in (ROOT / page).read_text(encoding="utf-8") for page in pages)


def test_a_picture_is_drawn(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "plot.png"
    draw(load_spec(ROOT / "docs" / "data" / "search_manue.json"), out)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [p.name for p in tmp_path.iterdir()] == ["plot.png"]  # no half-written file left


def _spec(tmp_path: Path, **change: object) -> Path:
    raw = json.loads((ROOT / "docs" / "data" / "search_manue.json").read_text())
    rows = change.pop("rows", None)
    raw.update(change)
    if rows is not None:
        raw["rows"] = rows
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(raw))
    return path


@pytest.mark.parametrize(("change", "needle"), [
    ({"better": "sideways"}, "'better' must be lower or higher"),
    ({"rows": []}, "'rows' is empty"),
    ({"rows": [{"label": "x", "seed": 1, "estimate": 3.0, "low": 2.0, "high": 2.5,
                "kind": "player", "doc": "d"}]}, "rows[0]: the interval [2.0, 2.5] must hold"),
    ({"rows": [{"label": "x", "seed": 1, "estimate": 2.0, "low": 1.0, "high": 2.5,
                "kind": "bot", "doc": "d"}]}, "rows[0]: 'kind' must be one of"),
    ({"rows": [{"label": "x", "seed": "1", "estimate": 2.0, "low": 1.0, "high": 2.5,
                "kind": "player", "doc": "d"}]}, "rows[0]: 'seed' must be int"),
    ({"decimals": True}, "'decimals' must be int"),
])
def test_a_bad_spec_is_one_line_naming_the_file_and_place(
        tmp_path: Path, change: dict[str, object], needle: str) -> None:
    path = _spec(tmp_path, **change)
    with pytest.raises(TargetPlotError) as caught:
        load_spec(path)
    assert needle in str(caught.value) and str(path) in str(caught.value)
    assert "\n" not in str(caught.value)


def test_the_command_exits_2_on_a_bad_spec(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                           ) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(SystemExit) as caught:
        main([str(bad), "--out", str(tmp_path / "x.png")])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert "bad.json: not JSON (line 1" in err and err.count("\n") == 1
    assert not (tmp_path / "x.png").exists()
