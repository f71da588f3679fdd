"""Bad input: typed errors only, size limits, refused XML tricks, atomic writes, and
fuzzing of real records (truncation, byte flips, dropped / duplicated elements, bad values)."""

from __future__ import annotations

import gzip
import random
import re
import time
from pathlib import Path

import pytest

from tenpai.records import (
    RecordError,
    RecordSyntaxError,
    RecordTooLargeError,
    UnknownFormatError,
    read_games,
)
from tenpai.records.botzone_json import parse_botzone_json
from tenpai.records.botzone_text import parse_botzone_text
from tenpai.records.mjai import parse_mjai
from tenpai.records.mjlog_read import parse_mjlog, read_mjlog
from tenpai.records.source import read_text, write_text_atomic
from tenpai.records.tenhou6_read import parse_tenhou6


def test_size_limit(tmp_path: Path) -> None:
    p = tmp_path / "big.mjlog"
    p.write_text("<mjloggm>" + " " * 2000 + "</mjloggm>")
    with pytest.raises(RecordTooLargeError, match=r"big\.mjlog"):
        read_text(p, max_bytes=1000)


def test_gzip_bomb_is_cut_off(tmp_path: Path) -> None:
    p = tmp_path / "bomb"
    p.write_bytes(gzip.compress(b"<" * 5_000_000))
    with pytest.raises(RecordTooLargeError):
        read_text(p, max_bytes=100_000)


def test_entities_refused() -> None:
    xml = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><mjloggm>&a;</mjloggm>'
    with pytest.raises(RecordSyntaxError):
        parse_mjlog(xml, "evil.xml")


def test_unknown_format(tmp_path: Path) -> None:
    p = tmp_path / "notes.txt"
    p.write_text("hello")
    with pytest.raises(UnknownFormatError, match=r"notes\.txt"):
        read_games(p)


def test_atomic_write_leaves_nothing_on_failure(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    target.write_text("old")

    class Boom(str):
        def encode(self, *args: object, **kwargs: object) -> bytes:
            raise RuntimeError("disk on fire")

    with pytest.raises(RuntimeError):
        write_text_atomic(target, Boom("new"))
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]
    write_text_atomic(target, "new")
    assert target.read_text() == "new"


def test_error_names_round_and_element() -> None:
    xml = ('<mjloggm ver="2.3"><GO type="169"/><INIT seed="0,0,0,1,1,5" ten="250,250,250,250" '
           'oya="0" hai0="1,2,3" hai1="" hai2="" hai3=""/></mjloggm>')
    with pytest.raises(RecordError, match=r"x\.mjlog \(round 0, element 1 <INIT>\)"):
        parse_mjlog(xml, "x.mjlog")


# -- fuzzing ---------------------------------------------------------------------------------

def _mutations(text: str, rng: random.Random, unit: str) -> list[str]:
    out = []
    n = len(text)
    for _ in range(6):
        out.append(text[: rng.randrange(n)])
    for _ in range(6):
        chars = list(text)
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(n)
            chars[i] = chr(rng.choice([ord("0"), ord("9"), ord(","), ord('"'), ord("<"), 0x41,
                                       ord(chars[i]) ^ 1]))
        out.append("".join(chars))
    pieces = re.findall(r"<[^>]*>", text) if unit == "xml" else text.splitlines(keepends=True)
    for _ in range(6):
        p = list(pieces)
        i = rng.randrange(len(p))
        if rng.random() < 0.5:
            del p[i]
        else:
            p.insert(i, p[i])
        out.append("".join(p))
    for _ in range(6):
        # a number replaced by a bad one
        matches = list(re.finditer(r"\d+", text))
        m = rng.choice(matches)
        bad = rng.choice(["-1", "999", "x", "", "1.5", "135", "136"])
        out.append(text[: m.start()] + bad + text[m.end():])
    return out


def _fuzz(parse, text: str, seed: int, unit: str) -> int:  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    ok = 0
    for mutated in _mutations(text, rng, unit):
        start = time.monotonic()
        try:
            parse(mutated)
            ok += 1
        except RecordError:
            pass
        assert time.monotonic() - start < 5, "reader took too long on a mutated record"
    return ok


@pytest.mark.corpus
def test_fuzz_readers(data_dir: Path) -> None:
    r = data_dir / "riichi"
    mjlogs = [
        r / "tenhou_mjlog" / "mjx-project_mjx" / "tests_py" / "double-ron.mjlog",
        r / "tenhou_mjlog" / "dnovikoff_tenhou" / "log_test_data" / "sanma.xml",
        r / "tenhou_mjlog" / "dnovikoff_tenhou" / "log_test_data" / "pao.xml",
    ]
    for i, p in enumerate(mjlogs):
        _fuzz(lambda t: parse_mjlog(t, "f", strict=True), read_text(p), i, "xml")
        _fuzz(lambda t: parse_mjlog(t, "f", strict=False), read_text(p), 100 + i, "xml")
    t6 = [
        r / "tenhou6_json" / "Equim-chan_mjai-reviewer" / "double_ron.json",
        r / "tenhou6_json" / "tsubakisakura_mjlog2json" / "2019103023gm-00a9-0000-f90e0fe9.json",
        r / "tenhou6_json" / "mjx-project_mjx" / "mjscore" /
        "2017040900gm-00a9-0000-af5434e3.json",
    ]
    for i, p in enumerate(t6):
        _fuzz(lambda t: parse_tenhou6(t, "f"), read_text(p), 200 + i, "lines")
    mjai = r / "mjai" / "smly_RiichiEnv" / "126_204_0_mjai.jsonl"
    _fuzz(lambda t: parse_mjai(t, "f"), read_text(mjai), 300, "lines")
    _fuzz(lambda t: parse_mjai(t, "f", strict=False), read_text(mjai), 301, "lines")
    text = (data_dir / "mcr" / "botzone_text" / "lawlorentz_Chinese-Standard-Mahjong-Simulate"
            / "sample.txt")
    _fuzz(lambda t: parse_botzone_text(t, "f"), read_text(text), 400, "lines")
    bj = (data_dir / "mcr" / "botzone_json" / "SuuTTT_IJCAI-mahjong" / "selfplay" /
          "selfplay_v01.jsonl")
    first = read_text(bj).splitlines()[9]
    _fuzz(lambda t: parse_botzone_json(t, "f"), first, 500, "lines")


@pytest.mark.corpus
def test_gzipped_and_extensionless_mjlog(data_dir: Path) -> None:
    root = data_dir / "riichi" / "tenhou_mjlog"
    gz = read_mjlog(root / "gimite_mjai" / "test.mjlog")
    assert gz.rounds
    bare = next(p for p in (root / "cozziekuns_HououDB").iterdir() if "." not in p.name)
    (game,) = read_games(bare)
    assert game.format == "mjlog" and game.rounds
