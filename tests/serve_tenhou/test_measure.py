"""The measurement's summary: ranks of the agent's seats, the interval, dropped games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tenpai.serve.tenhou.measure import summarise


def _row(ranks: list[int], agent_seat: int, errors: dict[int, dict[str, int]] | None = None
         ) -> dict[str, object]:
    errors = errors or {}
    return {
        "seconds": 600.0,
        "hands": 5,
        "ranks": ranks,
        "protocol": [
            {"kind": "agent" if s == agent_seat else "client",
             "name": "sl" if s == agent_seat else f"bot{s}", "errors": errors.get(s, {})}
            for s in range(4)
        ],
    }


def test_summary_counts_the_agent_seats_and_leaves_out_dropped_games(tmp_path: Path) -> None:
    rows = [_row([1, 2, 3, 4], 0), _row([2, 1, 3, 4], 0), _row([4, 3, 2, 1], 3),
            _row([3, 1, 2, 4], 0, {1: {"out_of_turn": 1, "defaulted": 9}, 2: {"stray_pass": 2}})]
    path = tmp_path / "results.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    every = summarise(path, "sl")
    assert every["games"] == 4 and every["dropped_games"] == 1
    assert every["average_rank"] == pytest.approx(7 / 4, abs=1e-3)  # ranks 1, 2, 1, 3
    assert every["placings"] == [2, 1, 1, 0]
    # t(3) = 3.18, sd of (1, 2, 1, 3) = 0.957
    assert every["ci95"] == pytest.approx([1.75 - 1.522, 1.75 + 1.522], abs=0.002)
    assert every["protocol_errors"] == {"out_of_turn": 1, "defaulted": 9, "stray_pass": 2}
    clean = summarise([path], "sl", clean_only=True)
    assert clean["games"] == 3 and clean["average_rank"] == pytest.approx(4 / 3, abs=1e-3)
