"""The efficiency channels (the ``sl`` agent's encoders) take the compiled shanten path for
the 34-byte hands they hold: no pure-Python shanten code runs while the rows are filled.

Issue 20: the encoder asked the private, pure-Python ``riichi_raw`` for 3k+1 hands although
the compiled path reads bytes.  A profiler hook records every Python function entered during
``efficiency_rows``; none may come from the pure-Python shanten modules.
"""

from __future__ import annotations

import random
import sys
from types import FrameType
from typing import Any

import numpy as np
import pytest

from tenpai.hand import accel
from tenpai.learn.encoders.efficiency import efficiency_rows

pytestmark = pytest.mark.skipif(not accel.available(), reason="C extension not built / disabled")

_PURE = ("hand/_core.py", "hand/shanten.py", "hand/mcr.py")


def _cases() -> list[tuple[bytes, list[int]]]:
    rng = random.Random(4)
    out = []
    for i in range(300):
        counts = [0] * 34
        for t in rng.sample(range(136), 13 + (i & 1)):
            counts[t // 4] += 1
        out.append((bytes(counts), [4 - c for c in counts]))
    return out


def test_efficiency_rows_run_no_pure_python_shanten() -> None:
    cases = _cases()
    for hand, left in cases[:5]:  # warm-up: table loading may run Python once
        efficiency_rows(hand, left, np.zeros((4, 34), np.float32), 0)
    entered: list[str] = []

    def hook(frame: FrameType, event: str, _: Any) -> None:
        if event == "call":
            name = frame.f_code.co_filename.replace("\\", "/")
            if name.endswith(_PURE) or frame.f_code.co_name.endswith("_py"):
                entered.append(f"{name}:{frame.f_code.co_name}")

    sys.setprofile(hook)
    try:
        for hand, left in cases:
            efficiency_rows(hand, left, np.zeros((4, 34), np.float32), 0)
    finally:
        sys.setprofile(None)
    assert not entered, sorted(set(entered))
