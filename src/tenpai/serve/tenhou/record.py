"""A finished table game as an mjlog (that ``tenpai replay`` verifies) and a JSON summary line.

A game that began mid-way (``TableConfig.start``, used by tests with slow clients) is written as
a fragment — no ``owari`` — because an mjlog with final results claims a whole game from East 1.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tenpai.records.game import Game, RuleFlags
from tenpai.records.mjlog_write import write_mjlog
from tenpai.replay.riichi import split_rounds
from tenpai.rules.riichi.end_points import tenhou_end_points
from tenpai.serve.tenhou.table import TableResult, game_type

__all__ = ["append_jsonl", "ranks", "save_game", "summary", "to_game"]


def ranks(scores: tuple[int, ...] | list[int]) -> list[int]:
    """1-4 (1-3) per seat; ties go to the seat nearer the first dealer, as on Tenhou."""
    order = sorted(range(len(scores)), key=lambda s: (-scores[s], s))
    out = [0] * len(scores)
    for r, s in enumerate(order, start=1):
        out[s] = r
    return out


def to_game(result: TableResult, source: str, *, fragment: bool) -> Game:
    g = result.game
    rules = g.rules
    final = tuple(g.final_scores)
    return Game(
        source=source,
        format="mjlog",
        rules=RuleFlags(
            players=rules.players,
            red_fives=rules.red_fives > 0,
            hanchan=rules.length == "hanchan",
            open_tanyao=rules.open_tanyao,
            online=True,
            go_type=game_type(rules),
        ),
        names=result.names,
        rounds=split_rounds(g.events),
        final_scores=None if fragment else final,
        final_points=None if fragment else tenhou_end_points(final, rules.target_points),
        truncated=fragment,
    )


def save_game(result: TableResult, path: Path, *, fragment: bool) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_mjlog(to_game(result, str(path), fragment=fragment), path)
    return path


def summary(result: TableResult, index: int, seed: int, mjlog: Path | None) -> dict[str, Any]:
    final = list(result.game.final_scores)
    return {
        "game": index,
        "seed": seed,
        "names": list(result.names),
        "kinds": [r.kind for r in result.reports],
        "final_scores": final,
        "ranks": ranks(final),
        "hands": len(result.game.results),
        "seconds": round(result.seconds, 1),
        "protocol": [r.to_json() for r in result.reports],
        "mjlog": str(mjlog) if mjlog else None,
    }


def append_jsonl(path: Path, row: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(row, ensure_ascii=False) + "\n")
