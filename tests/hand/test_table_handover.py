"""The shanten tables reach every compiled core through one C routine (``_shanten_core.h``'s
``shanten_tables_take``): each refuses tables of the wrong size with its own name, and takes
the right ones again afterwards (a second ``configure`` replaces the first)."""

from __future__ import annotations

import numpy as np
import pytest

from tenpai.hand import accel
from tenpai.hand.accel import table_buffers
from tenpai.hand.mcr import _shanten_mcr_py
from tenpai.hand.shanten import _shanten_py, shanten
from tenpai.tiles import parse_counts

HANDS = ("123m456p789s1122z", "19m19p19s1234567z", "1112345678999m", "147m258p369s1234z",
         "2468m13579p2468s")


def _short_suit_table() -> tuple[object, ...]:
    return (np.zeros(10, dtype=np.uint8), *table_buffers()[1:])


def test_buffers_are_in_the_order_configure_reads() -> None:
    buffers = table_buffers()
    assert len(buffers) == 11
    # the four column counts and the invalid code sit at the places "OOOnOnOniOO" reads
    assert all(isinstance(buffers[i], int) for i in (3, 5, 7, 8))
    assert all(not isinstance(buffers[i], int) for i in (0, 1, 2, 4, 6, 9, 10))


@pytest.mark.skipif(not accel.available(), reason="the C extension is not built")
def test_accel_refuses_a_short_table_and_takes_the_right_ones_again() -> None:
    module = accel._module
    with pytest.raises(ValueError, match=r"^_accel\.configure: unexpected table sizes$"):
        module.configure(*_short_suit_table())
    module.configure(*table_buffers())
    for text in HANDS:
        counts = parse_counts(text)
        assert shanten(counts) == _shanten_py(counts), text


def test_mcr_rollout_refuses_a_short_table_and_takes_the_right_ones_again() -> None:
    from tenpai.search.mcr import compiled

    if not compiled.available():
        pytest.skip("the compiled MCR rollout core is not built")
    module = compiled._core.module
    assert module is not None
    with pytest.raises(ValueError,
                       match=r"^_mcr_rollout\.configure_shanten: unexpected table sizes$"):
        module.configure_shanten(*_short_suit_table())
    module.configure_shanten(*table_buffers())
    for text in HANDS:
        counts = parse_counts(text)
        assert module.shanten(counts) == _shanten_mcr_py(counts), text
