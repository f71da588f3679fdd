"""Tenhou's three-player Houou games replayed through the engine under ``tenhou_sanma``.

CI replays a fixed sample of 40 of the 739 three-player games in the index (plus dnovikoff's
``sanma2.xml``) and the runner's handling of them; the whole set runs with ``-m slow`` (or
``tenpai replay ../shared/data/riichi/tenhou_mjlog``, which replays both player counts).
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from tenpai.records.mjlog_read import read_mjlog
from tenpai.replay.riichi import replay_riichi
from tenpai.replay.runner import replay_files, riichi_rules_for
from tenpai.rules.riichi.ruleset import TENHOU_SANMA

SAMPLE = 40


def _sanma_files(data: Path) -> list[Path]:
    base = data / "riichi" / "tenhou_mjlog"
    with open(base / "games_index.csv", newline="") as fh:
        rows = [r for r in csv.DictReader(fh) if "/3p/" in r["rule"]]
    return [base / r["file"] for r in rows]


def _sample(data: Path) -> list[Path]:
    files = _sanma_files(data)
    step = max(1, len(files) // SAMPLE)
    return files[::step][:SAMPLE]


def _replay(path: Path) -> tuple[bool, str]:
    game = read_mjlog(path)
    rules = riichi_rules_for(game, "tenhou")
    assert rules.players == 3 and rules.nukidora, rules
    result = replay_riichi(game.events(), rules=rules, final_scores=game.final_scores,
                           name=path.name)
    return result.ok, str(result.divergence)


def test_index_lists_739_three_player_games(data_dir: Path) -> None:
    assert len(_sanma_files(data_dir)) == 739


def test_sample_replays_exactly(data_dir: Path) -> None:
    files = _sample(data_dir)
    assert len(files) == SAMPLE
    failures = [why for ok, why in map(_replay, files) if not ok]
    assert not failures, "\n".join(failures[:10])


def test_runner_plays_three_player_records_as_tenhou_sanma(data_dir: Path) -> None:
    path = data_dir / "riichi" / "tenhou_mjlog" / "dnovikoff_tenhou" / "log_test_data" / \
        "sanma2.xml"
    game = read_mjlog(path)
    rules = riichi_rules_for(game, "tenhou")
    assert rules.name == "tenhou_sanma" and rules == TENHOU_SANMA
    summary = replay_files([path])
    assert (summary.games, summary.passed, summary.skipped) == (1, 1, 0)
    # a preset without a three-player sibling skips the game, saying why
    summary = replay_files([path], preset="mahjong_soul")
    assert (summary.games, summary.passed, summary.skipped) == (1, 0, 1)
    assert any("3-player" in r for r in summary.skip_reasons)


def test_replay_sees_a_wrong_sanma_payment(data_dir: Path) -> None:
    """Scored as four players (no tsumo loss) the first tsumo of the sample would differ."""
    path = _sample(data_dir)[0]
    game = read_mjlog(path)
    events = game.events()
    i = next(i for i, e in enumerate(events) if e.type == "hora")
    deltas = list(events[i].deltas)
    deltas[deltas.index(max(deltas))] += 100
    loser = next(s for s, d in enumerate(deltas) if d < 0)
    deltas[loser] -= 100
    events[i] = events[i].with_(deltas=tuple(deltas))
    result = replay_riichi(events, rules=riichi_rules_for(game, "tenhou"), name="bad")
    assert not result.ok and "deltas differ" in str(result.divergence)


@pytest.mark.slow
@pytest.mark.corpus
def test_all_739_three_player_games(data_dir: Path) -> None:
    files = _sanma_files(data_dir)
    failures = [why for ok, why in map(_replay, files) if not ok]
    assert not failures, f"{len(failures)} of {len(files)} failed:\n" + "\n".join(failures[:20])
