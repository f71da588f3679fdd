"""A draw's ``reason`` reads the same from a log file as from a live mjai server.

The record reader (``tenpai.records.mjai``) and the bot's wire reader (``tenpai.serve.mjai.wire``)
each had their own table of producers' spellings; the record reader did not know ``ryukyoku``
(a plain exhaustive draw, as some servers write it) and kept it as an unknown kind.
"""

from __future__ import annotations

import pytest

from tenpai.events import MJAI_DRAW_REASONS
from tenpai.records.mjai import _normalise
from tenpai.serve.mjai.wire import read_message


@pytest.mark.parametrize("reason", sorted(MJAI_DRAW_REASONS))
def test_a_log_and_the_wire_read_a_draw_reason_alike(reason: str) -> None:
    from_log = _normalise({"type": "ryukyoku", "reason": reason, "actor": 0})["kind"]
    from_wire = read_message({"type": "ryukyoku", "reason": reason, "actor": 0}).kind
    assert from_log == from_wire == MJAI_DRAW_REASONS[reason]


def test_a_log_reads_ryukyoku_as_an_exhaustive_draw() -> None:
    assert _normalise({"type": "ryukyoku", "reason": "ryukyoku"})["kind"] == "exhaustive"
