"""Issue 20, first group: bad input to `replay` / `view` / `convert` / `eval agreement` ends in a
clear message and the right exit code, never a traceback or a silent success."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from tenpai.cli.main import app
from tenpai.records import RecordSyntaxError, RecordTooLargeError, read_games

pytestmark = pytest.mark.corpus

_MJAI = ("riichi", "mjai", "smly_RiichiEnv", "126_204_0_mjai.jsonl")
_BOTZONE_JSON = ("mcr", "botzone_json", "SuuTTT_IJCAI-mahjong", "selfplay", "selfplay_v01.jsonl")
_MJLOG = ("riichi", "tenhou_mjlog", "gimite_mjai", "test.mjlog")
_PYTHON_ERRORS = ("IndexError", "KeyError", "TypeError", "AttributeError", "AssertionError",
                  "RecursionError")


def _run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def _text(res: Result) -> str:
    """The output with rich's line wrapping undone."""
    return " ".join(res.output.split())


def _no_traceback(res: Result) -> None:
    """The command ended through its own exit, not an exception escaping it."""
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception


def _mutated_mjai(data_dir: Path, folder: Path) -> Path:
    """The RiichiEnv log with one draw's tile removed (the replay used to ``assert`` on it)."""
    lines = data_dir.joinpath(*_MJAI).read_text(encoding="utf-8").splitlines()
    i = next(i for i, line in enumerate(lines) if '"tsumo"' in line)
    obj = json.loads(lines[i])
    del obj["pai"]
    lines[i] = json.dumps(obj)
    bad = folder / "bad.mjson"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return bad


def test_one_malformed_mjai_record_does_not_abort_a_folder(data_dir: Path,
                                                           tmp_path: Path) -> None:
    shutil.copy(data_dir.joinpath(*_MJAI), tmp_path / "good.jsonl")
    _mutated_mjai(data_dir, tmp_path)
    res = _run("replay", str(tmp_path), "--json")
    _no_traceback(res)
    assert res.exit_code == 1
    summary = json.loads(res.stdout.strip().splitlines()[-1])
    assert summary["passed"] == 1
    (failure,) = summary["failures"]
    assert "bad.mjson" in failure["where"] and "draw" in failure["error"]


def test_one_malformed_botzone_judge_log_does_not_abort_a_folder(data_dir: Path,
                                                                 tmp_path: Path) -> None:
    lines = data_dir.joinpath(*_BOTZONE_JSON).read_text(encoding="utf-8").splitlines()[:2]
    (tmp_path / "good.jsonl").write_text(lines[0] + "\n", encoding="utf-8")
    obj = json.loads(lines[1])
    step = next(i for i, e in enumerate(obj["log"])
                if i % 2 == 0 and str(e.get("0", "")).startswith("2 "))
    obj["log"][step]["9"] = obj["log"][step].pop("0")  # a request for a fifth player
    (tmp_path / "bad.jsonl").write_text(json.dumps(obj) + "\n", encoding="utf-8")
    res = _run("replay", str(tmp_path), "--rules", "mcr", "--json")
    _no_traceback(res)
    assert res.exit_code == 1
    summary = json.loads(res.stdout.strip().splitlines()[-1])
    assert summary["passed"] == 1
    (failure,) = summary["failures"]
    assert "players are 0-3" in failure["error"]


def test_deeply_nested_json_is_a_typed_error_everywhere(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text('{"log":' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    with pytest.raises(RecordSyntaxError, match="nested too deeply"):
        read_games(deep)
    for args, code in ((["replay", str(deep)], 1), (["view", str(deep)], 2),
                       (["convert", str(deep), str(tmp_path / "o.mjson"), "--format", "mjai"], 2)):
        res = _run(*args)
        _no_traceback(res)
        assert res.exit_code == code and "nested too deeply" in _text(res), res.output


def test_replay_that_verifies_nothing_exits_non_zero(data_dir: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    res = _run("replay", str(empty))
    _no_traceback(res)
    assert res.exit_code == 2 and "no record files" in _text(res)
    # Riichi records under --rules mcr: every game skipped, none verified
    res = _run("replay", str(data_dir.joinpath(*_MJAI)), "--rules", "mcr")
    assert res.exit_code == 1 and "no game was verified" in _text(res)
    assert "need --rules riichi" in _text(res)


def test_record_with_a_corrupted_header_in_a_folder_is_a_failure(data_dir: Path,
                                                                  tmp_path: Path) -> None:
    # real mjlogs come as .txt files too (tenhou-python-bot), so the content must tell
    src = data_dir / "riichi" / "tenhou_mjlog" / "mjx-project_mjx" / "tests_py" / \
        "double-ron.mjlog"
    raw = src.read_text(encoding="utf-8")
    (tmp_path / "broken.txt").write_text(raw.replace("<mjloggm", "<mjlxggm", 1),
                                           encoding="utf-8")
    (tmp_path / "links.txt").write_text("http://tenhou.net/0/?log=x\n", encoding="utf-8")
    res = _run("replay", str(tmp_path), "--json")
    _no_traceback(res)
    assert res.exit_code == 1
    summary = json.loads(res.stdout.strip().splitlines()[-1])
    assert [f["game"] for f in summary["failures"]] == [str(tmp_path / "broken.txt")]
    assert summary["skip_reasons"] == {"not a game record (format not recognised)": 1}


def test_eval_agreement_on_an_empty_folder_exits_non_zero(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    res = _run("eval", "agreement", str(tmp_path))
    _no_traceback(res)
    assert res.exit_code == 2 and "no game to evaluate" in _text(res)


def test_convert_riichi_to_botzone_json_is_a_clear_error(data_dir: Path,
                                                         tmp_path: Path) -> None:
    res = _run("convert", str(data_dir.joinpath(*_MJLOG)), str(tmp_path / "o.jsonl"),
               "--format", "botzone_json")
    _no_traceback(res)
    assert res.exit_code == 2
    assert "botzone_json holds mcr games; this is a riichi game" in _text(res)


def test_convert_into_a_directory_and_skipping_catalogue_files(data_dir: Path,
                                                               tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    res = _run("convert", str(data_dir.joinpath(*_MJLOG)), str(out), "--format", "mjai")
    _no_traceback(res)
    assert res.exit_code == 0, res.output
    assert [p.name for p in out.iterdir()] == ["test.mjson"]
    # a folder holding SOURCES.md and MANIFEST.tsv beside its records: no failure
    folder = data_dir / "riichi" / "tenhou_mjlog" / "tsubakisakura_mjlog2json"
    res = _run("convert", str(folder), str(tmp_path / "many"), "--format", "mjai")
    assert res.exit_code == 0 and "wrote 6 game(s)" in _text(res) and "0 failed" in _text(res)


def test_written_files_follow_the_umask(data_dir: Path, tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        res = _run("convert", str(data_dir.joinpath(*_MJLOG)), str(tmp_path / "o.json"),
                   "--format", "tenhou6")
    finally:
        os.umask(old)
    assert res.exit_code == 0
    assert (tmp_path / "o.json").stat().st_mode & 0o777 == 0o644


def test_view_failure_names_its_reason(data_dir: Path, tmp_path: Path) -> None:
    """An mjai draw without its tile reads (mjai allows hidden tiles) but cannot be shown;
    the message used to end in "cannot write round as tenhou.net/6: " and nothing more."""
    bad = _mutated_mjai(data_dir, tmp_path)
    res = _run("view", str(bad))
    _no_traceback(res)
    assert res.exit_code == 2
    assert "a field is missing" in _text(res) and '"type": "tsumo"' in _text(res)


def test_reader_errors_speak_in_the_records_terms(data_dir: Path) -> None:
    """A cut-off meld attribute or a missing hand used to read "IndexError: list index out of
    range"; the message now says what is short and shows the element."""
    from tenpai.records.mjlog_read import parse_mjlog

    xml = ('<mjloggm ver="2.3"><GO type="169"/><INIT seed="0,0,0,1,1" ten="250,250,250,250" '
           'oya="0" hai0="1,2,3" hai1="" hai2="" hai3=""/></mjloggm>')
    with pytest.raises(RecordSyntaxError.__mro__[1]) as info:
        parse_mjlog(xml, "x.mjlog")
    message = str(info.value)
    assert not any(name in message for name in _PYTHON_ERRORS), message
    assert "<INIT seed=" in message


def test_a_huge_record_is_refused_quickly(tmp_path: Path) -> None:
    big = tmp_path / "big.mjson"
    line = json.dumps({"type": "none"}) + "\n"
    big.write_text(line * (20 * 1024 * 1024 // len(line) + 1), encoding="utf-8")
    start = time.monotonic()
    with pytest.raises(RecordTooLargeError):
        read_games(big)
    assert time.monotonic() - start < 2
