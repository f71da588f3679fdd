"""Every Riichi yaku and yakuman as a singleton, in the order results list them.

The order follows Tenhou's yaku ids (situational first, then by value), so a result's yaku list
reads the way players are used to.  Dora, red fives and ura dora are not yaku: the scorer adds
them as separate entries (``DORA_IDS``) and only when the hand has at least one yaku.
"""

from __future__ import annotations

from typing import Final

from tenpai.rules.riichi.yaku.base import Yaku
from tenpai.rules.riichi.yaku.sequences import Iipeikou, Ittsu, Pinfu, Ryanpeikou, SanshokuDoujun
from tenpai.rules.riichi.yaku.situational import (
    Chankan,
    DoubleRiichi,
    Haitei,
    Houtei,
    Ippatsu,
    MenzenTsumo,
    RenhouMangan,
    Riichi,
    Rinshan,
)
from tenpai.rules.riichi.yaku.tiles import (
    Chanta,
    Chiitoitsu,
    Chinitsu,
    Honitsu,
    Honroutou,
    Junchan,
    Tanyao,
)
from tenpai.rules.riichi.yaku.triplets import (
    Chun,
    Haku,
    Hatsu,
    RoundWind,
    Sanankou,
    Sankantsu,
    SanshokuDoukou,
    SeatWind,
    Shousangen,
    Toitoi,
)
from tenpai.rules.riichi.yaku.yakuman import (
    Chiihou,
    Chinroutou,
    Chuuren,
    Daisangen,
    Daisuushii,
    JunseiChuuren,
    Kokushi,
    Kokushi13,
    RenhouYakuman,
    Ryuuiisou,
    Shousuushii,
    Suuankou,
    SuuankouTanki,
    Suukantsu,
    Tenhou,
    Tsuuiisou,
)

__all__ = ["ALL_YAKU", "BY_ID", "DORA_IDS", "REGULAR", "YAKUMAN", "Yaku"]

REGULAR: Final[tuple[Yaku, ...]] = (
    MenzenTsumo(),
    Riichi(),
    Ippatsu(),
    Chankan(),
    Rinshan(),
    Haitei(),
    Houtei(),
    Pinfu(),
    Tanyao(),
    Iipeikou(),
    SeatWind(),
    RoundWind(),
    Haku(),
    Hatsu(),
    Chun(),
    DoubleRiichi(),
    Chiitoitsu(),
    Chanta(),
    Ittsu(),
    SanshokuDoujun(),
    SanshokuDoukou(),
    Sankantsu(),
    Toitoi(),
    Sanankou(),
    Shousangen(),
    Honroutou(),
    Ryanpeikou(),
    Junchan(),
    Honitsu(),
    Chinitsu(),
    RenhouMangan(),
)
"""The yaku counted in han."""

YAKUMAN: Final[tuple[Yaku, ...]] = (
    Tenhou(),
    Chiihou(),
    RenhouYakuman(),
    Daisangen(),
    Suuankou(),
    SuuankouTanki(),
    Tsuuiisou(),
    Ryuuiisou(),
    Chinroutou(),
    Chuuren(),
    JunseiChuuren(),
    Kokushi(),
    Kokushi13(),
    Daisuushii(),
    Shousuushii(),
    Suukantsu(),
)
"""The yakuman; any of them replaces every regular yaku and the dora."""

ALL_YAKU: Final[tuple[Yaku, ...]] = REGULAR + YAKUMAN
BY_ID: Final[dict[str, Yaku]] = {y.id: y for y in ALL_YAKU}

DORA_IDS: Final = ("dora", "aka_dora", "ura_dora")
"""Result entries for bonus han that are not yaku."""
