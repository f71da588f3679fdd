"""Replay many record files and summarise: games, passed, skipped, failures with their place.

A failure in one game never stops the run; unreadable files are failures too (a replay that
silently skipped them would overstate what was verified).  Games of the other rule family, and
games no preset of the family fits (a three-player record under a four-player preset without
a three-player sibling), are *skipped* and counted, never passed.  ``rules`` picks the family
(``riichi`` or ``mcr``); ``preset`` a preset of it — for Riichi the record's player count then
picks between a preset and its three-player sibling (``tenhou`` plays three-player records as
``tenhou_sanma``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from tenpai.records.errors import (
    NotAGameError,
    RecordError,
    RecordTruncatedError,
    UnknownFormatError,
)
from tenpai.records.game import Game
from tenpai.replay.driver import Divergence, ReplayResult
from tenpai.replay.riichi import replay_riichi
from tenpai.rules.riichi.game import Engine
from tenpai.rules.riichi.ruleset import RiichiRules, preset_for_players

__all__ = [
    "DEFAULT_PRESETS",
    "RULE_FAMILIES",
    "ReplaySummary",
    "Verdict",
    "check_engine",
    "iter_record_files",
    "load_record",
    "looks_like_record",
    "replay_files",
    "riichi_rules_for",
]

#: Rule families the replay knows, and the preset each uses unless told otherwise.
DEFAULT_PRESETS = {"riichi": "tenhou", "mcr": "botzone"}
RULE_FAMILIES = tuple(DEFAULT_PRESETS)

#: Catalogue files beside records; ``results.jsonl`` is the per-game summary that
#: ``tenpai tenhou-table --save-records DIR`` writes beside its mjlogs (replaying DIR failed on it).
_SKIP_NAMES = {"MANIFEST.tsv", "SOURCES.md", "README.md", "README-en.txt", "games_index.csv",
               "results.jsonl"}
_SKIP_SUFFIXES = {".md", ".tsv", ".csv", ".log", ".py"}

#: What the replay made of one game (or one file): ``on_game`` is told the verdict the summary
#: counts, so a live progress line and the final report never disagree.
Verdict = Literal["passed", "skipped", "failed"]


@dataclass(slots=True)
class ReplaySummary:
    """Counts and failures of a replay run (the ``--json`` output)."""

    games: int = 0
    passed: int = 0
    skipped: int = 0
    failures: list[dict[str, str]] = field(default_factory=list)
    skip_reasons: dict[str, int] = field(default_factory=dict)
    skipped_details: list[dict[str, str]] = field(default_factory=list)
    #: games replayed per engine (``compiled``: the compiled table; ``python``: the round)
    engines: dict[str, int] = field(default_factory=dict)

    def skip(self, reason: str) -> None:
        """Count one skipped game (or file) under ``reason``."""
        self.games += 1
        self.skipped += 1
        self.skip_reasons[reason] = self.skip_reasons.get(reason, 0) + 1

    def as_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "passed": self.passed,
            "skipped": self.skipped,
            "failures": self.failures,
            "skip_reasons": self.skip_reasons,
            "skipped_details": self.skipped_details,
            "engines": self.engines,
        }


@dataclass(slots=True)
class _Tally:
    """The one place a game's verdict is given: counted in the summary and told to ``on_game``.

    The live progress once kept its own failed count from a pass/fail flag and called
    truncated records "failed" that the summary counted as skipped."""

    summary: ReplaySummary
    on_game: Callable[[str, Verdict], None] | None

    def passed(self, name: str) -> None:
        self.summary.games += 1
        self.summary.passed += 1
        self._tell(name, "passed")

    def skipped(self, name: str, reason: str, *, where: str | None = None,
                error: str | None = None) -> None:
        """Count a skip under ``reason``; ``where``/``error`` also list it in skipped_details."""
        self.summary.skip(reason)
        if error is not None:
            self.summary.skipped_details.append(
                {"game": name, "where": where or name, "error": error})
        self._tell(name, "skipped")

    def failed(self, name: str, where: str, error: str) -> None:
        self.summary.games += 1
        self.summary.failures.append({"game": name, "where": where, "error": error})
        self._tell(name, "failed")

    def _tell(self, name: str, verdict: Verdict) -> None:
        if self.on_game is not None:
            self.on_game(name, verdict)


def iter_record_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """Files under the given paths, in a stable order, leaving out catalogue files."""
    for p in paths:
        path = Path(p)
        if path.is_dir():
            for f in sorted(path.rglob("*")):
                if f.is_file() and f.name not in _SKIP_NAMES and f.suffix not in _SKIP_SUFFIXES:
                    yield f
        else:
            yield path


def load_record(path: Path, *, strict: bool = True) -> list[Game]:
    """Read a record in any supported format (detected from the content).

    ``strict=False`` returns the complete rounds of a truncated record with ``truncated`` set.
    """
    from tenpai.records import read_any

    return read_any(path, strict=strict)


def riichi_rules_for(game: Game, preset: str) -> RiichiRules:
    """The preset (its three-player sibling for a three-player record) adjusted to what the
    record says about itself (length, red fives, kuitan).  ``KeyError`` when no preset of that
    name fits the record's player count."""
    base = preset_for_players(preset, game.players)
    r = game.rules
    changes: dict[str, Any] = {}
    if r.hanchan is not None:
        changes["length"] = "hanchan" if r.hanchan else "tonpuu"
    if r.red_fives is not None:
        changes["red_fives"] = (3 if base.players == 4 else 2) if r.red_fives else 0
    if r.open_tanyao is not None:
        changes["open_tanyao"] = r.open_tanyao
    year = _record_year(game)
    if (year is not None and year <= 2009) or "init_shuffle" in game.extra:
        # Tenhou's 2009 rules (recognisable by the old shuffle-inside-INIT format), as its
        # records show: no tenpai-yame at all-last, and a tonpuu extension that runs through
        # South into West.
        changes["tenpai_yame"] = False
        changes["extension_rounds"] = 2 if changes.get("length", base.length) == "tonpuu" else 1
    if r.go_type is not None and r.go_type & 0x200:
        # Tenhou's chip (shuugi) tables round 4 han 30 fu and 3 han 60 fu up to mangan.
        changes["kiriage_mangan"] = True
        # ... and turn the new dora of an open or added kan at once, not after the discard.
        changes["open_kan_dora_after_discard"] = False
    if r.go_type is not None and r.go_type & 0x400:
        # Tenhou's ratio tables pay 1,500 per honba (seen in dnovikoff's ratio1 record).
        changes["honba_points"] = 1500
    return base.with_(**changes) if changes else base


def replay_files(
    paths: Iterable[str | Path],
    *,
    preset: str | None = None,
    limit: int | None = None,
    on_game: Callable[[str, Verdict], None] | None = None,
    rules: str = "riichi",
    engine: Engine = "auto",
) -> ReplaySummary:
    """Replay every game found under ``paths``; ``on_game`` is told each game's name and the
    verdict the summary counts it under.

    ``engine`` is :class:`~tenpai.rules.riichi.game.RiichiGame`'s for Riichi games:
    ``compiled`` replays on the compiled table only, skipping (and counting) the games whose
    rules it does not cover; ``python`` on the Python round; ``auto`` on the table where it
    covers the rules.  MCR games have no compiled table (their fans use ``_fans`` where it is
    built): ``compiled`` is refused for them."""
    if rules not in DEFAULT_PRESETS:
        raise ValueError(f"unknown rule family {rules!r}; known: {', '.join(RULE_FAMILIES)}")
    check_engine(engine, rules)
    preset = preset or DEFAULT_PRESETS[rules]
    summary = ReplaySummary()
    tally = _Tally(summary, on_game)
    named = {Path(p) for p in paths}
    for f in iter_record_files(paths):
        if limit is not None and summary.games >= limit:
            break
        cut_short: str | None = None
        try:
            games = load_record(f)
        except UnknownFormatError as exc:
            if f in named or (not isinstance(exc, NotAGameError) and looks_like_record(f)):
                # A file the user named must be a record; found in a folder, a note may sit
                # beside the records, but a file shaped like one (markup, JSON, a record's
                # extension) whose format is not recognised is a broken record, not a note.
                tally.failed(str(f), str(f), str(exc))
            else:
                tally.skipped(str(f), "not a game record (format not recognised)")
            continue
        except RecordTruncatedError as exc:
            games = _truncated(f, exc)
            cut_short = str(exc)
            if not any(g.rounds for g in games):
                tally.failed(str(f), str(f), str(exc))
                continue
        except RecordError as exc:
            tally.failed(str(f), str(f), str(exc))
            continue
        except Exception as exc:  # a reader bug: one file must not abort the whole folder
            tally.failed(str(f), str(f), f"internal error while reading: {_describe(exc)}")
            continue
        for i, game in enumerate(games):
            if limit is not None and summary.games >= limit:
                break
            name = str(f) if len(games) == 1 else f"{f}#{i + 1}"
            if game.truncated and not game.rounds:
                # A match of a many-match file cut before its first complete round: nothing of
                # it can be checked, but dropping it silently would overstate what was verified.
                tally.skipped(name, "truncated record: cut off before its first complete round",
                              error=cut_short or "cut off")
                continue
            reason = _skip_reason(game, rules, preset)
            used = _engine_for(game, rules, preset, engine) if reason is None else "python"
            if used is None:
                reason = "rules the compiled table does not cover (--engine compiled)"
            if reason:
                tally.skipped(name, reason)
                continue
            assert used is not None
            summary.engines[used] = summary.engines.get(used, 0) + 1
            try:
                result = _replay_one(game, rules, preset, name, used)
            except Exception as exc:  # an engine or replay bug: report it, go on with the rest
                result = ReplayResult(False, len(game.rounds), [], Divergence(
                    name, f"internal error while replaying: {_describe(exc)}"))
            if game.truncated:
                # A cut-off game cannot be checked to the end, so it never counts as passed;
                # whether its complete rounds replay is reported beside the skip.
                if result.ok:
                    tally.skipped(name, "truncated record: its complete rounds replay exactly")
                else:
                    assert result.divergence is not None
                    tally.skipped(name, "truncated record: its complete rounds do not replay "
                                  "(see skipped_details)", where=result.divergence.where,
                                  error=result.divergence.message)
            elif result.ok:
                tally.passed(name)
            else:
                assert result.divergence is not None
                tally.failed(name, result.divergence.where, result.divergence.message)
    return summary


#: extensions of record files: an unrecognised file with one of them is a broken record
_RECORD_SUFFIXES = frozenset({".mjlog", ".xml", ".json", ".mjson", ".jsonl", ".gz"})


def looks_like_record(path: Path) -> bool:
    """Is an unrecognised file shaped like a record (so a broken one, not a note beside them)?

    True for a record's extension or content that opens like markup, JSON or gzip; plain text
    such as a README or a list of links is not.
    """
    if path.suffix.lower() in _RECORD_SUFFIXES:
        return True
    try:
        with path.open("rb") as fh:
            head = fh.read(64)
    except OSError:
        return False
    return head[:2] == b"\x1f\x8b" or head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] in (
        b"<", b"{", b"[")


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _truncated(path: Path, exc: RecordError) -> list[Game]:
    """The games of a cut-off record, leniently read (empty when even that cannot be read).

    Games without a complete round stay in the list so the caller can report them."""
    try:
        return load_record(path, strict=False)
    except RecordError:
        return []


def check_engine(engine: str, rules: str) -> None:
    """``ValueError`` (a message for the command line) for an engine the replay cannot use."""
    if engine not in ("python", "compiled", "auto"):
        raise ValueError(f"unknown engine {engine!r}; known: python, compiled, auto")
    if engine != "compiled":
        return
    if rules != "riichi":
        raise ValueError(f"the compiled table plays Riichi; {rules} games replay on the "
                         "Python round (use --engine python or auto)")
    from tenpai.rules.riichi import compiled_round

    if not compiled_round.available():
        raise ValueError("the compiled table is not built or is switched off "
                         "(TENPAI_PURE_PYTHON)")


def _engine_for(game: Game, rules: str, preset: str, engine: Engine) -> Engine | None:
    """The engine a game replays on (``compiled`` or ``python``), None when ``compiled`` was
    asked for and the table does not cover the game's rules."""
    if rules != "riichi" or engine == "python":
        return "python"
    from tenpai.rules.riichi import compiled_round

    try:
        covered = compiled_round.available() and compiled_round.covers(
            riichi_rules_for(game, preset))
    except KeyError:
        return "python"  # no preset fits: the replay reports it
    if covered:
        return "compiled"
    return None if engine == "compiled" else "python"


def _replay_one(game: Game, rules: str, preset: str, name: str,
                engine: Engine = "auto") -> ReplayResult:
    final = None if game.truncated else game.final_scores
    if rules == "mcr":
        from tenpai.replay.mcr import replay_mcr
        from tenpai.rules.mcr.flow.rules import PRESETS as MCR_PRESETS

        return replay_mcr(game.events(), rules=MCR_PRESETS[preset], final_scores=final, name=name)
    return replay_riichi(
        game.events(), rules=riichi_rules_for(game, preset), final_scores=final, name=name,
        complete=False if game.truncated else None, engine=engine,
    )


_GAME_ID = re.compile(r"(20\d\d)\d{6}gm-")


def _record_year(game: Game) -> int | None:
    """The year in a Tenhou game id (``2009030816gm-00e1-…``) found in the source name."""
    m = _GAME_ID.search(Path(game.source).name) or _GAME_ID.search(str(game.extra.get("id", "")))
    return int(m.group(1)) if m else None


def _skip_reason(game: Game, rules: str = "riichi", preset: str | None = None) -> str | None:
    if game.rules.variant != rules:
        return f"{game.rules.variant} records need --rules {game.rules.variant}"
    if rules == "riichi":
        try:
            preset_for_players(preset or DEFAULT_PRESETS["riichi"], game.players)
        except KeyError:
            return f"{game.players}-player games have no {preset!r} preset"
    elif game.players != 4:
        return f"{game.players}-player {rules} games are not played"
    if not game.rounds:
        return "no complete round"
    if game.extra.get("lossy_rounds"):
        # e.g. Mahjong Soul exports without kan dora: a replay would blame the engine.
        return "the record leaves out facts the replay needs (Game.extra['lossy_rounds'])"
    return None
