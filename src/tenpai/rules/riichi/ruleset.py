"""Riichi rule flags and the named presets of the two big online lobbies.

Variants are configuration, never copied code: scoring (:mod:`tenpai.rules.riichi.scoring`), the
payment helpers and the engine all read one frozen :class:`RiichiRules`.  Each field says what it
changes and which part of the code reads it.  ``docs/riichi.md`` lists the presets side by side
with the sources the values were checked against.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal

__all__ = [
    "MAHJONG_SOUL",
    "PRESETS",
    "SANMA_PRESETS",
    "TENHOU",
    "TENHOU_SANMA",
    "GameLength",
    "KaratenScope",
    "KuikaeMode",
    "PaoScope",
    "RenhouValue",
    "RiichiRules",
    "preset",
    "preset_for_players",
]

GameLength = Literal["tonpuu", "hanchan"]
"""``tonpuu``: East round only; ``hanchan``: East and South rounds."""

KaratenScope = Literal["concealed", "hand_and_melds"]
"""Whose tiles make a wait empty at an exhaustive draw.  ``concealed`` (Tenhou): a wait is
noten only when all four copies are in the hand one discards from, so a wait on the tile of
one's own kan still pays as tenpai; ``hand_and_melds``: one's own melds and kans count too."""

KuikaeMode = Literal["none", "same_tile", "strict"]
"""Swap-calling ban: ``same_tile`` forbids discarding the called kind; ``strict`` also forbids
the tile at the other end of a called sequence (suji kuikae), as both lobbies do."""

PaoScope = Literal["whole_hand", "pao_yakuman_only"]
"""What the liable player answers for when the winning hand holds other yakuman too."""

RenhouValue = Literal["off", "mangan", "yakuman"]
"""Renhou (ron before one's first draw): not a yaku, a 5-han yaku, or a yakuman."""


@dataclass(frozen=True, slots=True)
class RiichiRules:
    """Every rule switch the Riichi scorer and engine read.  Frozen: share one instance freely.

    Scoring flags are read by :func:`tenpai.rules.riichi.evaluate`; payment flags by
    :func:`tenpai.rules.riichi.payments`; the game-flow flags by the engine.
    """

    name: str = "custom"

    # --- table ---------------------------------------------------------------------------
    #: 4 for the usual game; 3 for three-player Riichi (sanma): 108 tiles (2m-8m removed),
    #: no chi, three hands per wind round, 1m and 9m indicate each other as dora, and a tsumo
    #: is paid by the two others only (tsumo loss: the absent fourth player's share is lost).
    players: int = 4
    #: Red fives in the wall, one per suit present (0 or 3; 0 or 2 with three players, whose
    #: manzu has no five); each red five in a winning hand is a han.
    red_fives: int = 3
    #: Three players only: a North may be set aside (nukidora, "kita") on one's turn for a
    #: replacement tile; each counts as a dora.  It acts as a call for ippatsu, double riichi,
    #: nine terminals, tenhou and chiihou, can be robbed by a ron (without chankan), and is
    #: never allowed right after a pon.
    nukidora: bool = False

    # --- game flow (read by the engine) ---------------------------------------------------
    length: GameLength = "hanchan"
    starting_points: int = 25_000
    #: The points someone must reach for the last scheduled round to end the game.
    target_points: int = 30_000
    #: Play into the next wind round (sudden death) when nobody reached ``target_points``.
    west_extension: bool = True
    #: A player below zero ends the game (exactly zero does not).
    bust_below_zero: bool = True
    #: The dealer who wins the last round while in first place ends the game (agari-yame).
    agari_yame: bool = True
    #: The dealer tenpai at an exhaustive draw of the last round in first place ends it.
    #: (Tenhou's 2009 records play on after such a draw: see ``tenpai.replay.runner``.)
    tenpai_yame: bool = True
    #: How many wind rounds the sudden-death extension may add (Tenhou: one, so a hanchan
    #: ends after West 4 and a tonpuu after South 4; its 2009 tonpuu games went on into West).
    extension_rounds: int = 1
    #: Nine terminals, four winds, four riichi (kyuushu kyuuhai, suufon renda, suucha riichi).
    abortive_draws: bool = True
    #: Four kans by more than one player end the hand (suukaikan).
    four_kan_abort: bool = True
    #: Two players may ron the same discard.
    double_ron: bool = True
    #: Three rons on one discard abort the hand (sanchahou) instead of paying all three.
    triple_ron_abort: bool = True
    #: Nagashi mangan at an exhaustive draw (paid as a mangan tsumo, see ``payments``).
    nagashi_mangan: bool = True
    kuikae: KuikaeMode = "strict"
    #: Riichi needs at least this many points (the deposit) ...
    riichi_min_points: int = 1_000
    #: ... and at least this many tiles left in the live wall.
    riichi_min_wall_tiles: int = 4
    riichi_deposit: int = 1_000
    #: Points one honba stick adds to a win (a ron pays all of it, a tsumo a third from each).
    honba_points: int = 300
    #: Total no-ten payment at an exhaustive draw.
    noten_penalty: int = 3_000
    #: Karaten at an exhaustive draw (read by ``RiichiRound.is_tenpai``).
    karaten: KaratenScope = "concealed"
    #: Kokushi musou may rob a closed kan (chankan on ankan).
    kokushi_robs_ankan: bool = False
    #: New dora indicators for open kans turn after the kan-caller's discard (both lobbies);
    #: for closed kans they turn at once.
    open_kan_dora_after_discard: bool = True

    # --- scoring (read by evaluate) --------------------------------------------------------
    open_tanyao: bool = True
    #: 13+ han without a yakuman pattern scores a yakuman; off caps it at sanbaiman.
    kazoe_yakuman: bool = True
    #: Round 4 han 30 fu and 3 han 60 fu up to mangan.
    kiriage_mangan: bool = False
    #: Kokushi 13-sided wait, suuankou tanki, junsei chuuren and daisuushii score double.
    double_yakuman_variants: bool = False
    #: Different yakuman in one hand add up (daisangen + tsuuiisou = double yakuman).
    yakuman_stacking: bool = True
    #: Fu for a pair of a wind that is both seat and round wind (4 on both lobbies; some
    #: tables pay 2).
    double_wind_pair_fu: int = 4
    renhou: RenhouValue = "off"

    # --- payments ----------------------------------------------------------------------
    #: Yakuman ids that make the discarder of the confirming tile liable (pao).
    pao_yakuman: frozenset[str] = field(default=frozenset({"daisangen", "daisuushii"}))
    pao_scope: PaoScope = "whole_hand"

    def __post_init__(self) -> None:
        if self.players not in (3, 4):
            raise ValueError(f"RiichiRules.players must be 3 or 4, got {self.players}")
        reds = (0, 3) if self.players == 4 else (0, 2)
        if self.red_fives not in reds:
            raise ValueError(
                f"RiichiRules.red_fives must be {reds[0]} or {reds[1]} with {self.players} "
                f"players, got {self.red_fives}"
            )
        if self.karaten not in ("concealed", "hand_and_melds"):
            raise ValueError(f"RiichiRules.karaten must be concealed or hand_and_melds, "
                             f"got {self.karaten!r}")
        payers = self.players - 1
        if self.honba_points % payers:
            raise ValueError(f"RiichiRules.honba_points must split evenly among {payers} payers")
        if self.nukidora and self.players != 3:
            raise ValueError("RiichiRules.nukidora is a three-player rule")

    def with_(self, **changes: Any) -> RiichiRules:
        """A copy with some flags changed (a house rule on top of a preset)."""
        return replace(self, **changes)


TENHOU: Final = RiichiRules(name="tenhou")
"""Tenhou's ranked lobby (hanchan, red fives): the defaults above.

Single yakuman for every pattern (suuankou tanki, kokushi 13-sided, junsei chuuren and daisuushii
included) but different yakuman stack; pao covers the whole hand; three rons abort the hand."""

MAHJONG_SOUL: Final = RiichiRules(
    name="mahjong_soul",
    double_yakuman_variants=True,
    triple_ron_abort=False,
    kokushi_robs_ankan=True,
    pao_scope="pao_yakuman_only",
)
"""Mahjong Soul's ranked mode: as Tenhou except the differences listed in docs/riichi.md."""

TENHOU_SANMA: Final = RiichiRules(
    name="tenhou_sanma",
    players=3,
    red_fives=2,
    nukidora=True,
    starting_points=35_000,
    target_points=40_000,
    honba_points=200,
    noten_penalty=2_000,
    riichi_min_wall_tiles=3,
)
"""Tenhou's three-player ranked lobby (sanma, hanchan, red 5p and 5s): Tenhou's four-player
rules except what three players change — 108 tiles, no chi, North as nukidora, tsumo loss,
35,000 start / 40,000 target, honba worth 200 (a tsumo: 100 from each payer), 2,000 no-ten
payments, riichi with three tiles left in the wall (each player still draws once).  Checked
against the 739 three-player Houou games of the corpus (docs/riichi.md)."""

PRESETS: Final[dict[str, RiichiRules]] = {
    "tenhou": TENHOU,
    "mahjong_soul": MAHJONG_SOUL,
    "tenhou_sanma": TENHOU_SANMA,
}

#: The three-player preset of a four-player one (a record's player count picks between them).
SANMA_PRESETS: Final[dict[str, str]] = {"tenhou": "tenhou_sanma"}


def preset(name: str) -> RiichiRules:
    """A preset by name; an unknown name raises a ``KeyError`` listing the known ones."""
    try:
        return PRESETS[name]
    except KeyError:
        raise KeyError(f"unknown Riichi preset {name!r}; known: {sorted(PRESETS)}") from None


def preset_for_players(name: str, players: int) -> RiichiRules:
    """The preset ``name`` for a table of ``players``: a four-player preset with a
    three-player sibling (``tenhou`` -> ``tenhou_sanma``) gives the sibling for three players.
    Raises ``KeyError`` when no preset of that name fits the player count."""
    rules = preset(name)
    if rules.players == players:
        return rules
    if players == 3 and name in SANMA_PRESETS:
        return PRESETS[SANMA_PRESETS[name]]
    raise KeyError(f"Riichi preset {name!r} is for {rules.players} players, not {players}")
