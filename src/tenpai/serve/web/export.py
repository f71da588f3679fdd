"""Turn a game played in the browser into record files with the existing writers.

The writers translate the engine's yaku ids into Tenhou's names themselves
(:func:`tenpai.records.yaku_names.tenhou_yaku_name`), so a browser game needs no translation
of its own here: what is left is the game's rule flags, which mjai lines cannot carry.
"""

from __future__ import annotations

import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Final

from tenpai.records import Game, RecordError, write_game
from tenpai.records.mjai import parse_mjai
from tenpai.serve.web.labels import round_label

__all__ = [
    "DOWNLOAD_FORMATS", "ExportError", "export_bytes", "game_from_lines", "hand_links",
    "round_labels", "viewer_links_for",
]

DOWNLOAD_FORMATS: Final = {"mjai": ".mjson", "tenhou6": ".json", "mjlog": ".mjlog"}

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


def export_bytes(game: Game, fmt: str, rules: str) -> bytes:
    """The game in ``fmt`` (mjai, tenhou6 or mjlog) as bytes; :class:`ExportError` if it
    cannot be written, with the writer's own message."""
    if fmt not in DOWNLOAD_FORMATS:
        raise ExportError(f"unknown format {fmt!r}; choose {', '.join(DOWNLOAD_FORMATS)}")
    if fmt != "mjai" and rules == "mcr":
        raise ExportError(f"{fmt} is a Riichi format; MCR games download as mjai only")
    with tempfile.TemporaryDirectory(prefix="tenpai-web-") as tmp:
        path = Path(tmp) / f"game{DOWNLOAD_FORMATS[fmt]}"
        try:
            write_game(game, path, fmt)
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

    try:
        return viewer_links(game)
    except RecordError:
        return []


def hand_links(game: Game, rules: str) -> dict[tuple[int, int, int], str]:
    """Each hand's tenhou.net/6 link by (round wind, hand number, honba), the key that names
    a hand in any stream of the same game; only Riichi hands (the viewer shows no MCR or
    108-tile game), and a hand the format cannot hold costs only its own link."""
    from tenpai.records.tenhou6_write import viewer_link

    out: dict[tuple[int, int, int], str] = {}
    if rules != "riichi":
        return out
    for i, r in enumerate(game.rounds):
        start = r[0]
        try:
            out[(start.bakaze or 0, start.kyoku or 0, start.honba or 0)] = viewer_link(game, i)
        except RecordError:
            continue
    return out


def round_labels(game: Game) -> list[str]:
    """Each hand's name ("East 2, 1 honba"), in the order of :func:`viewer_links_for`, so a
    page of links says which hand each one opens."""
    return [round_label(r[0].bakaze or 0, r[0].kyoku or 0, r[0].honba or 0) for r in game.rounds]
