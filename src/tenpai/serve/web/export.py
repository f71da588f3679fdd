"""Turn a game played in the browser into record files with the existing writers.

The engine names Riichi yaku by English ids (``riichi``, ``yakuhai_haku``); Tenhou's formats
name them in Japanese and the mjlog writer needs Tenhou's names to find the yaku ids.  The
translation lives here, at the edge, rather than in the engine or the writers: the engine's
names are the project's own vocabulary, Tenhou's are one format's.
"""

from __future__ import annotations

import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Final

from tenpai.events import Event
from tenpai.records import Game, RecordError, write_game
from tenpai.records.mjai import parse_mjai

__all__ = ["DOWNLOAD_FORMATS", "ExportError", "export_bytes", "game_from_lines", "viewer_links_for"]

DOWNLOAD_FORMATS: Final = {"mjai": ".mjson", "tenhou6": ".json", "mjlog": ".mjlog"}

_WINDS: Final = "東南西北"
#: Engine yaku ids whose Tenhou name differs from the yaku's own ``name_ja`` (or needs a wind).
_TENHOU_NAMES: Final = {
    "chankan": "槍槓",
    "yakuhai_haku": "役牌 白",
    "yakuhai_hatsu": "役牌 發",
    "yakuhai_chun": "役牌 中",
    "kokushi_13": "国士無双１３面",
    "dora": "ドラ",
    "aka_dora": "赤ドラ",
    "ura_dora": "裏ドラ",
}


class ExportError(ValueError):
    """The game cannot be written in the asked format (the writer's reason is kept)."""


def game_from_lines(lines: list[str], source: str, rules: str, length: str | None) -> Game:
    """A :class:`Game` from the engine's mjai lines, with what the lines cannot say set."""
    game = parse_mjai("\n".join(lines), source)
    flags = game.rules
    if rules == "mcr":
        flags = replace(flags, variant="mcr")
    if length is not None:
        flags = replace(flags, hanchan=length == "hanchan")
    game.rules = flags
    return game


def _tenhou_yaku(game: Game) -> Game:
    """A copy of a Riichi game whose ``hora`` events carry Tenhou's yaku names."""
    from tenpai.rules.riichi.yaku import BY_ID

    rounds: list[list[Event]] = []
    for rnd in game.rounds:
        start = rnd[0]
        bakaze = start.bakaze or 0
        oya = start.oya if start.oya is not None else (start.kyoku or 0)
        out = []
        for e in rnd:
            if e.type == "hora" and e.yaku:
                seat_wind = ((e.actor or 0) - oya) % 4
                names = []
                for name, han in e.yaku:
                    if name == "yakuhai_seat_wind":
                        name = f"自風 {_WINDS[seat_wind]}"
                    elif name == "yakuhai_round_wind":
                        name = f"場風 {_WINDS[bakaze]}"
                    elif name in _TENHOU_NAMES:
                        name = _TENHOU_NAMES[name]
                    elif name in BY_ID:
                        name = BY_ID[name].name_ja
                    names.append((name, han))
                e = e.with_(yaku=tuple(names))
            out.append(e)
        rounds.append(out)
    copy = replace(game)
    copy.rounds = rounds
    return copy


def export_bytes(game: Game, fmt: str, rules: str) -> bytes:
    """The game in ``fmt`` (mjai, tenhou6 or mjlog) as bytes; :class:`ExportError` if it
    cannot be written, with the writer's own message."""
    if fmt not in DOWNLOAD_FORMATS:
        raise ExportError(f"unknown format {fmt!r}; choose {', '.join(DOWNLOAD_FORMATS)}")
    if fmt != "mjai" and rules == "mcr":
        raise ExportError(f"{fmt} is a Riichi format; MCR games download as mjai only")
    target = _tenhou_yaku(game) if fmt != "mjai" and rules == "riichi" else game
    with tempfile.TemporaryDirectory(prefix="tenpai-web-") as tmp:
        path = Path(tmp) / f"game{DOWNLOAD_FORMATS[fmt]}"
        try:
            write_game(target, path, fmt)
        except RecordError as exc:
            # Some writer refusals carry no text; the user still learns why.
            reason = exc.detail or str(exc) or f"{fmt} cannot hold a {rules} game"
            raise ExportError(reason) from None
        return path.read_bytes()


def viewer_links_for(game: Game, rules: str) -> list[str]:
    """One tenhou.net/6 viewer link per hand (empty for MCR, which the viewer cannot show)."""
    if rules == "mcr" or not game.rounds:
        return []
    from tenpai.records.tenhou6_write import viewer_links

    target = _tenhou_yaku(game) if rules == "riichi" else game
    try:
        return viewer_links(target)
    except RecordError:
        return []
