"""The games of a run as record files (``tenpai arena --save-records DIR --format FMT``).

Every stored game keeps its events in the results file (mjai JSON lines compressed by
:func:`tenpai.arena.record.pack_events`: about 4 KB for a tonpuu, 6 KB for a hanchan), so the
records of a run can be written at any time, by the invocation that played the games or by a
later one: a resumed run, or the same command run again after the run is complete, writes
whatever is missing.  A game stored by an older tenpai
without its events is played again from its key (games are deterministic per key).

The folder holds one file per game, ``d{deal:05d}-r{rotation}{ext}``, and ``MANIFEST.tsv`` with
the run's configuration and the format, so one folder never mixes two runs (the name is one
``tenpai replay``, ``convert`` and ``dataset build`` pass over as a catalogue file, so the
folder can be replayed or converted as it is).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Final

from tenpai.arena.games import ArenaConfigError
from tenpai.arena.schedule import GameKey, deal_seed, seating
from tenpai.arena.store import ResultsStore, RunConfig
from tenpai.records.errors import RecordError
from tenpai.records.formats import write_game
from tenpai.records.game import Game, RuleFlags
from tenpai.records.mjai import parse_mjai

__all__ = [
    "RECORD_FORMATS",
    "RecordsFolder",
    "SaveRecordsError",
    "botzone_walltiles",
    "final_points",
    "record_flags",
    "record_path",
    "records_format",
    "unpack_game",
]

#: Formats a run can be saved in, with the end of their file names.  A Botzone match export
#: is a pair of files; ``X_lite.json`` names the pair (its ``X_metadata.json`` is written with
#: it), so a game's file exists exactly when its export was written.
RECORD_FORMATS: Final = {"mjai": ".mjson", "mjlog": ".mjlog", "tenhou6": ".json",
                         "botzone_export": "_lite.json"}
#: Formats that hold Riichi games only.
_RIICHI_ONLY: Final = frozenset({"mjlog", "tenhou6"})
#: Formats that hold one hand of Botzone's MCR judge only (rules mcr, preset botzone).
_BOTZONE_ONLY: Final = frozenset({"botzone_export"})
_RUN_FILE = "MANIFEST.tsv"


class SaveRecordsError(ArenaConfigError):
    """The records cannot be saved as asked (format, folder); the message says why."""


def record_path(folder: Path, key: GameKey, fmt: str) -> Path:
    """The file of game ``key`` in a records folder of format ``fmt``."""
    return folder / f"d{key.deal:05d}-r{key.rotation}{RECORD_FORMATS[fmt]}"


def record_flags(rules: str, options: dict[str, str], players: int) -> RuleFlags:
    """What a record says about the rules of the run's games (mjlog's GO type comes from it)."""
    if rules != "riichi":
        return RuleFlags(variant=rules, players=players)
    from tenpai.rules.riichi.ruleset import preset

    r = preset(options.get("preset", "tenhou")).with_(length=options.get("length", "tonpuu"))
    return RuleFlags(
        variant="riichi",
        players=r.players,
        red_fives=r.red_fives > 0,
        hanchan=r.length == "hanchan",
        open_tanyao=r.open_tanyao,
        online=False,  # bots at one table, not a lobby game
    )


def final_points(scores: tuple[int, ...], config: RunConfig) -> tuple[float, ...] | None:
    """A Riichi game's end points as Tenhou writes them (three or four players; the rule is in
    :mod:`tenpai.rules.riichi.end_points`).  ``None`` for other games (the records omit them)."""
    if config.rules != "riichi" or len(scores) not in (3, 4):
        return None
    from tenpai.rules.riichi.end_points import tenhou_end_points
    from tenpai.rules.riichi.ruleset import preset

    target = preset(dict(config.options).get("preset", "tenhou")).target_points
    return tenhou_end_points(scores, target)


def unpack_game(data: bytes, config: RunConfig, key: GameKey, source: str) -> Game:
    """The stored events of game ``key`` as a record, with the run's rule flags and names."""
    text = zlib.decompress(data).decode("utf-8")
    game = parse_mjai(text, source)
    names = seating(config.agents, key.rotation, config.seating)
    game.names = tuple(names)
    game.rules = record_flags(config.rules, dict(config.options), len(names))
    if game.final_scores is not None:
        game.final_points = final_points(game.final_scores, config)
    return game


def botzone_walltiles(config: RunConfig, key: GameKey) -> str:
    """The wall of game ``key`` as a Botzone export's ``initdata.walltiles``: the deal's tiles
    in the order Botzone's judge splits into the four seat walls.  The packed events do not
    hold the wall, so it is dealt again from the deal's seed (the same for every seating);
    with it, the export says which tiles were never drawn, and its reader checks every deal
    and draw against the wall."""
    from tenpai.arena.games import make_game
    from tenpai.rules.mcr.flow.wall import SeatWalls
    from tenpai.rules.mcr.game import MCRGame
    from tenpai.tiles import to_botzone

    names = seating(config.agents, key.rotation, config.seating)
    game = make_game(config.rules, deal_seed(config.seed, key.deal), names, dict(config.options))
    if not isinstance(game, MCRGame):
        raise SaveRecordsError(f"rules {config.rules!r} have no Botzone wall")
    wall = game.wall_source(0, (game.round_wind, 0, 0))
    if not isinstance(wall, SeatWalls):
        raise SaveRecordsError("a Botzone export needs per-seat walls (preset botzone)")
    return " ".join(to_botzone(t) for t in wall.shuffled())


def _read_manifest(path: Path) -> dict[str, str]:
    """``key → value`` of a records folder's ``MANIFEST.tsv`` (empty when unreadable)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    rows = [ln.split("\t", 1) for ln in text.splitlines()[1:] if "\t" in ln]
    return {k: v for k, v in rows}


def records_format(folder: Path) -> str:
    """The format of a records folder written by ``--save-records`` (from its manifest)."""
    fmt = _read_manifest(folder / _RUN_FILE).get("format")
    if fmt is None:
        raise SaveRecordsError(
            f"{folder} is not a --save-records folder (no readable {_RUN_FILE})"
        )
    if fmt not in RECORD_FORMATS:
        raise SaveRecordsError(f"{folder / _RUN_FILE} names an unknown format {fmt!r}")
    return str(fmt)


class RecordsFolder:
    """Where one run's records go: checks the format against the rules and the folder against
    the run before anything is played, then writes game files atomically."""

    def __init__(self, folder: Path, fmt: str, config: RunConfig) -> None:
        if fmt not in RECORD_FORMATS:
            raise SaveRecordsError(
                f"--format {fmt!r} is not a record format; choose {', '.join(RECORD_FORMATS)}"
            )
        if fmt in _RIICHI_ONLY and config.rules != "riichi":
            raise SaveRecordsError(
                f"--format {fmt} holds Riichi games; save {config.rules} games as mjai"
            )
        if fmt in _BOTZONE_ONLY and (
            config.rules != "mcr" or dict(config.options).get("preset") != "botzone"
        ):
            raise SaveRecordsError(
                f"--format {fmt} holds Botzone's one-hand MCR games (rules mcr, preset "
                "botzone); save these games as mjai"
            )
        if folder.exists() and not folder.is_dir():
            raise SaveRecordsError(f"--save-records {folder} is a file, not a folder")
        self.folder = folder
        self.fmt = fmt
        self.config = config
        self._claim()

    def _claim(self) -> None:
        """Create the folder with its manifest, or check that it holds this run's records."""
        run_file = self.folder / _RUN_FILE
        mine = {"run": self.config.to_json(), "format": self.fmt}
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            if run_file.is_file():
                if _read_manifest(run_file) != mine:
                    raise SaveRecordsError(
                        f"{self.folder} holds records of another run or format (see its "
                        f"{_RUN_FILE}); use another --save-records folder"
                    )
                return
            if any(self.folder.iterdir()):
                raise SaveRecordsError(
                    f"{self.folder} already holds other files; --save-records needs an empty "
                    "or new folder (or the one an earlier invocation of this run wrote)"
                )
            lines = ["key\tvalue", *(f"{k}\t{v}" for k, v in mine.items())]
            run_file.write_text("\n".join(lines) + "\n", encoding="utf-8")
        except OSError as exc:
            raise SaveRecordsError(
                f"cannot write records into {self.folder}: {exc.strerror or exc}"
            ) from None

    def path_for(self, key: GameKey) -> Path:
        return record_path(self.folder, key, self.fmt)

    def save(self, key: GameKey, data: bytes) -> Path:
        """Write game ``key`` from its packed events."""
        path = self.path_for(key)
        game = unpack_game(data, self.config, key, str(path))
        if self.fmt in _BOTZONE_ONLY:
            game.extra["walltiles"] = botzone_walltiles(self.config, key)
        try:
            write_game(game, path, self.fmt)
        except (RecordError, OSError) as exc:
            raise SaveRecordsError(f"cannot write {path}: {exc}") from None
        return path

    def save_missing(
        self,
        store: ResultsStore,
        replay: Callable[[GameKey], bytes],
        on_game: Callable[[Path], None] | None = None,
    ) -> int:
        """Write every stored game that has no file yet; returns how many were written.

        ``replay`` plays a game again (from its key) when the store has no events for it.
        """
        written = 0
        for key in sorted(store.done_keys()):
            path = self.path_for(key)
            if path.exists():
                continue
            data = store.game_events(key)
            self.save(key, data if data is not None else replay(key))
            written += 1
            if on_game is not None:
                on_game(path)
        return written
