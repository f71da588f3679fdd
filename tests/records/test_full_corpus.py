"""Every real record through every conversion (slow; run with
``.venv/bin/pytest tests/records -m slow -s``).  Prints the counts per format."""

from __future__ import annotations

import collections
from pathlib import Path

import pytest

from tenpai.records import RecordError, read_games
from tenpai.records.mjlog_read import read_mjlog

from .corpus import (
    TENHOU6_KNOWN,
    first_difference,
    mjlog_files,
    tenhou6_view,
    via_mjai,
    via_mjlog,
    via_tenhou6,
)


@pytest.mark.slow
@pytest.mark.corpus
def test_every_mjlog(data_dir: Path) -> None:
    stats: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    reasons: list[str] = []
    for path in mjlog_files(data_dir):
        game = read_mjlog(path, strict=False)
        stats["mjlog"]["read"] += 1
        stats["mjlog"]["truncated"] += game.truncated
        for name, conv in (("mjai", via_mjai), ("mjlog", via_mjlog), ("tenhou6", via_tenhou6)):
            try:
                back = conv(game)
                stats[name]["converted"] += 1
            except RecordError as exc:
                stats[name]["failed"] += 1
                reasons.append(f"{path.name} {name}: {exc.detail}")
                continue
            a, b = game.rounds, back.rounds
            if name == "tenhou6":
                a = [tenhou6_view(r) for r in a]
                b = [tenhou6_view(r) for r in b]
            diff = first_difference(a, b)
            if diff:
                stats[name]["differ"] += 1
                reasons.append(f"{path.name} {name}: {diff}")
            else:
                stats[name]["round-tripped"] += 1
    for name, c in stats.items():
        print(name, dict(c))
    for r in reasons:
        print(r)
    unexpected = [r for r in reasons if r.split()[0] not in TENHOU6_KNOWN]
    assert not unexpected, "\n".join(unexpected[:20])


@pytest.mark.slow
@pytest.mark.corpus
def test_every_other_record(data_dir: Path) -> None:
    roots = {
        "tenhou6": data_dir / "riichi" / "tenhou6_json",
        "majsoul": data_dir / "riichi" / "majsoul",
        "mjai": data_dir / "riichi" / "mjai",
        "mcr": data_dir / "mcr",
    }
    for label, root in roots.items():
        ok, failed = 0, []
        for p in sorted(root.rglob("*")):
            if not p.is_file() or p.suffix in (".md", ".tsv") or p.name.startswith("README"):
                continue
            try:
                ok += len(read_games(p))
            except RecordError as exc:
                failed.append(str(exc))
        print(label, "games read", ok, "files failed", len(failed))
        for f in failed:
            print("  ", f)
        # known: Tenhou's misplaced call letters, an M-League text page wrapping a link, and
        # Mahjong Soul's tenhou.net/6-like files (rounds of another length); see docs/records.md
        known = ("confusing_nakis_", "L001_S014", "majsoul")
        assert all(any(k in f for k in known) for f in failed), failed
        assert ok >= {"tenhou6": 51, "majsoul": 0, "mjai": 7, "mcr": 132}[label]
