"""Build supervised-learning shards from real records: replay, pick decisions, encode, save.

Layout of a dataset directory::

    manifest.json                  sources, filters, split rule, encoder tag, counts, shards
    train/discard-00000.npz        x (N, *shape) uint8, y (N,) int16, legal (N, classes) bool,
    dev/pon-00000.npz …            game (N,) int32 (index into manifest["games"])

Games are split by a hash of their id (:func:`split_of`), never by position in a folder, so a
game stays in the same split however the records are arranged and whichever subset is built.
Each shard is written to a temporary name and renamed, so an interrupted build leaves no
half-written file that looks complete; the manifest is written last.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final

import numpy as np

from tenpai.learn.decisions import DECISION_KINDS, NUM_CLASSES, DecisionPoint, iter_decisions
from tenpai.learn.encoders import Encoder, get_encoder
from tenpai.learn.state import StateError
from tenpai.records.errors import RecordError
from tenpai.records.game import Game

__all__ = [
    "FORMAT",
    "SPLITS",
    "BuildOptions",
    "DatasetError",
    "build_dataset",
    "game_id_of",
    "iter_replayed_games",
    "load_manifest",
    "shard_paths",
    "split_of",
]

FORMAT: Final = "tenpai-sl-dataset/1"
SPLITS: Final = ("train", "dev", "test")
#: Split rule: the first 8 hex digits of sha256(game id) as an integer, modulo 100.
SPLIT_RULE: Final = "sha256(game_id)[:8] as int % 100: 0-89 train, 90-94 dev, 95-99 test"
_TENHOU_ID: Final = re.compile(r"\d{10}gm-[0-9a-f]{4}-\d{4,5}-[0-9a-f]{8}")


class DatasetError(ValueError):
    """A dataset cannot be built or read; the message names the path."""


def split_of(game_id: str) -> str:
    """``train`` (90 %), ``dev`` (5 %) or ``test`` (5 %) for a game id — see :data:`SPLIT_RULE`."""
    bucket = int(hashlib.sha256(game_id.encode()).hexdigest()[:8], 16) % 100
    return "train" if bucket < 90 else "dev" if bucket < 95 else "test"


def game_id_of(game: Game) -> str:
    """Tenhou's game id when the source name or the record carries one, else the file stem."""
    for text in (str(game.extra.get("id", "")), Path(game.source).name):
        m = _TENHOU_ID.search(text)
        if m:
            return m.group(0)
    return Path(game.source).stem


@dataclass(slots=True)
class BuildOptions:
    """What goes into a dataset; every field is recorded in the manifest.

    ``rooms`` keeps only games from those Tenhou lobbies (``None``: any room); ``max_loss`` is
    Gao's quality filter (004 §4.3, 1500 there; ``None`` turns it off).
    """

    encoder: str = "gao68"
    kinds: tuple[str, ...] = DECISION_KINDS
    splits: tuple[str, ...] = SPLITS
    rooms: tuple[str, ...] | None = ("houou",)
    players: int = 4
    max_loss: int | None = 1500
    shard_size: int = 20000
    limit: int | None = None
    preset: str = "tenhou"


@dataclass(slots=True)
class _Summary:
    games: dict[str, int] = field(default_factory=lambda: {s: 0 for s in SPLITS})
    counts: dict[str, dict[str, int]] = field(default_factory=dict)
    positives: dict[str, dict[str, int]] = field(default_factory=dict)
    skipped: dict[str, int] = field(default_factory=dict)
    shards: list[dict[str, Any]] = field(default_factory=list)
    game_ids: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)

    def skip(self, reason: str) -> None:
        self.skipped[reason] = self.skipped.get(reason, 0) + 1


def _keep(game: Game, opts: BuildOptions) -> str | None:
    """Why the game is left out (``None``: keep it)."""
    if game.rules.variant != "riichi":
        return f"variant {game.rules.variant}"
    if game.players != opts.players:
        return f"{game.players}-player game"
    if opts.rooms is not None and game.rules.room not in opts.rooms:
        return f"room {game.rules.room or 'unknown'}"
    if not game.rounds:
        return "no complete round"
    return None


def iter_replayed_games(
    paths: Iterable[str | Path],
    opts: BuildOptions,
    summary: _Summary | None = None,
    on_file: Callable[[Path], None] | None = None,
) -> Iterator[tuple[str, Game, list[Any]]]:
    """(game id, game, engine events) for every kept game that replays cleanly, deduplicated."""
    from tenpai.replay.riichi import replay_riichi
    from tenpai.replay.runner import iter_record_files, load_record, riichi_rules_for

    summary = summary if summary is not None else _Summary()
    seen: set[str] = set()
    taken = 0
    for f in iter_record_files(paths):
        if on_file is not None:
            on_file(f)
        if opts.limit is not None and taken >= opts.limit:
            return
        try:
            games = load_record(f)
        except RecordError:
            summary.skip("unreadable record")
            continue
        for game in games:
            reason = _keep(game, opts)
            if reason is not None:
                summary.skip(reason)
                continue
            gid = game_id_of(game)
            if gid in seen:
                summary.skip("duplicate game id")
                continue
            seen.add(gid)
            if split_of(gid) not in opts.splits:
                summary.skip("split not built")
                continue
            result = replay_riichi(
                game.events(),
                rules=riichi_rules_for(game, opts.preset),
                final_scores=None if game.truncated else game.final_scores,
                name=str(f),
            )
            if not result.ok:
                summary.skip("replay diverged")
                continue
            summary.sources.append(str(f))
            taken += 1
            yield gid, game, result.events
            if opts.limit is not None and taken >= opts.limit:
                return


class _ShardWriter:
    """Buffers one (split, kind) stream and writes ``.npz`` shards of ``size`` samples."""

    def __init__(self, root: Path, split: str, kind: str, enc: Encoder, size: int) -> None:
        self.root, self.split, self.kind, self.size = root, split, kind, size
        self.enc = enc
        self.classes = NUM_CLASSES[kind]
        self.x: list[np.ndarray] = []
        self.y: list[int] = []
        self.legal: list[np.ndarray] = []
        self.game: list[int] = []
        self.index = 0
        self.written: list[dict[str, Any]] = []

    def add(self, x: np.ndarray, d: DecisionPoint, game: int) -> None:
        mask = np.zeros(self.classes, dtype=bool)
        mask[list(d.legal)] = True
        self.x.append(x)
        self.y.append(d.label)
        self.legal.append(mask)
        self.game.append(game)
        if len(self.y) >= self.size:
            self.flush()

    def flush(self) -> None:
        if not self.y:
            return
        rel = Path(self.split) / f"{self.kind}-{self.index:05d}.npz"
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp.npz")
        np.savez_compressed(
            tmp,
            x=np.stack(self.x),
            y=np.asarray(self.y, dtype=np.int16),
            legal=np.stack(self.legal),
            game=np.asarray(self.game, dtype=np.int32),
        )
        os.replace(tmp, path)
        self.written.append(
            {"path": rel.as_posix(), "split": self.split, "kind": self.kind, "n": len(self.y)}
        )
        self.index += 1
        self.x, self.y, self.legal, self.game = [], [], [], []


def build_dataset(
    paths: Sequence[str | Path],
    out: str | Path,
    opts: BuildOptions,
    *,
    on_file: Callable[[Path], None] | None = None,
) -> dict[str, Any]:
    """Build the dataset under ``out`` and return its manifest (also saved as manifest.json)."""
    enc = get_encoder(opts.encoder)
    for k in opts.kinds:
        if k not in DECISION_KINDS:
            raise DatasetError(f"unknown decision kind {k!r}; known: {', '.join(DECISION_KINDS)}")
    for s in opts.splits:
        if s not in SPLITS:
            raise DatasetError(f"unknown split {s!r}; known: {', '.join(SPLITS)}")
    root = Path(out)
    if (root / "manifest.json").exists():
        raise DatasetError(f"{root} already holds a dataset; choose an empty directory")
    root.mkdir(parents=True, exist_ok=True)
    summary = _Summary()
    writers = {
        (s, k): _ShardWriter(root, s, k, enc, opts.shard_size)
        for s in opts.splits
        for k in opts.kinds
    }
    for gid, _game, events in iter_replayed_games(paths, opts, summary, on_file):
        split = split_of(gid)
        index = len(summary.game_ids)
        try:
            points = list(iter_decisions(events, kinds=opts.kinds, max_loss=opts.max_loss))
        except StateError:
            summary.skip("state error")
            continue
        if not points:
            continue
        xs = enc.encode_batch([d.view for d in points])
        summary.game_ids.append(gid)
        summary.games[split] += 1
        counts = summary.counts.setdefault(split, {k: 0 for k in opts.kinds})
        pos = summary.positives.setdefault(split, {k: 0 for k in opts.kinds})
        for x, d in zip(xs, points):
            writers[(split, d.kind)].add(x, d, index)
            counts[d.kind] += 1
            pos[d.kind] += int(d.label != 0)
    for w in writers.values():
        w.flush()
        summary.shards.extend(w.written)
    manifest = {
        "format": FORMAT,
        "encoder": enc.tag,
        "layout": enc.layout,
        "shape": list(enc.shape),
        "classes": {k: NUM_CLASSES[k] for k in opts.kinds},
        "options": asdict(opts),
        "split_rule": SPLIT_RULE,
        "games": summary.game_ids,
        "games_per_split": summary.games,
        "counts": summary.counts,
        "nonzero_labels": summary.positives,
        "skipped": summary.skipped,
        "shards": summary.shards,
        "sources": summary.sources,
    }
    tmp = root / "manifest.json.tmp"
    tmp.write_text(json.dumps(manifest, indent=1))
    os.replace(tmp, root / "manifest.json")
    return manifest


def load_manifest(root: str | Path) -> dict[str, Any]:
    """A dataset's manifest; DatasetError when the directory holds none."""
    path = Path(root) / "manifest.json"
    try:
        manifest: dict[str, Any] = json.loads(path.read_text())
    except FileNotFoundError:
        raise DatasetError(f"{path}: no manifest (not a dataset, or an unfinished build)") from None
    except json.JSONDecodeError as exc:
        raise DatasetError(f"{path}: unreadable manifest: {exc}") from exc
    if manifest.get("format") != FORMAT:
        raise DatasetError(f"{path}: format {manifest.get('format')!r}, expected {FORMAT!r}")
    return manifest


def shard_paths(root: str | Path, split: str, kind: str) -> list[Path]:
    """The shard files of one split and decision kind, in order."""
    manifest = load_manifest(root)
    return [
        Path(root) / s["path"]
        for s in manifest["shards"]
        if s["split"] == split and s["kind"] == kind
    ]
