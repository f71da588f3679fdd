"""Base-8 settlement."""

from __future__ import annotations

import pytest
from mcr_helpers import score

from tenpai.rules.mcr import SettlementPreset, settle


def test_self_drawn_each_pays_eight_plus_fan() -> None:
    result = score("123m456p789s123s55z", "1s", self_drawn=True, flowers=2)
    fan = result.total
    assert settle(result, 2, None) == [-(8 + fan), -(8 + fan), 3 * (8 + fan), -(8 + fan)]


def test_discard_discarder_pays_eight_plus_fan_others_eight() -> None:
    result = score("123m456p789s123s55z", "1s")
    fan = result.total
    assert settle(result, 0, 3, "botzone") == [24 + fan, -8, -8, -(8 + fan)]


def test_points_are_conserved_and_presets_checked() -> None:
    result = score("123m456p789s123s55z", "1s")
    assert sum(settle(result, 1, 0, SettlementPreset("house", base=5))) == 0
    with pytest.raises(ValueError, match="unknown preset"):
        settle(result, 1, 0, "tenhou")
    with pytest.raises(ValueError, match="discarder"):
        settle(result, 1, 1)
