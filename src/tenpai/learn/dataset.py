"""Build supervised-learning shards from records of any rule set: replay, pick decisions, encode.

Layout of a dataset directory::

    manifest.json                  rules, sources, filters, split rule, encoder tag, counts, shards
    train/discard-00000.npz        x (N, *shape) uint8, y (N,) int16, legal (N, classes) bool,
    dev/pon-00000.npz …            game (N,) int32 (index into manifest["games"])

One builder for every rule set: what differs (which files are records, how a game is kept,
named, replayed, which decisions it holds, which encoders read them) comes from the rule set's
:class:`~tenpai.learn.learning_rules.LearningRules` entry, named by ``BuildOptions.rules``.
Games are split by a hash of their id (the entry's split rule), never by position in a folder,
so a game stays in the same split however the records are arranged and whichever subset is
built.  Each shard is written to a temporary name and renamed, so an interrupted build leaves
no half-written file that looks complete; the manifest is written last.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final

import numpy as np

from tenpai.atomic import atomic_path, write_text_atomic
from tenpai.learn.decisions import DECISION_KINDS
from tenpai.learn.learning_rules import LearningRules
from tenpai.learn.mcr.state import MCRStateError
from tenpai.learn.riichi import SPLIT, game_id_of
from tenpai.learn.rulesets import get_rules
from tenpai.learn.state import StateError
from tenpai.records.errors import NotAGameError, RecordError

__all__ = [
    "FORMAT",
    "SPLITS",
    "BuildOptions",
    "DatasetError",
    "build_dataset",
    "game_id_of",
    "iter_replayed_games",
    "load_manifest",
    "manifest_rules",
    "record_files",
    "shard_paths",
    "split_of",
]

FORMAT: Final = "tenpai-sl-dataset/1"
#: The separate MCR format of earlier versions: such a dataset must be rebuilt.
_OLD_MCR_FORMAT: Final = "tenpai-sl-mcr-dataset/1"
SPLITS: Final = ("train", "dev", "test")
#: Riichi's split rule (each rule set's is in its registry entry).
SPLIT_RULE: Final = SPLIT.text
#: Riichi's split of a game id (kept under its old name; see :data:`SPLIT_RULE`).
split_of = SPLIT


class DatasetError(ValueError):
    """A dataset cannot be built or read; the message names the path."""


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
    rules: str = "riichi"

    @classmethod
    def for_rules(cls, rules: str, **changes: Any) -> BuildOptions:
        """The options of ``rules`` at that rule set's defaults, then ``changes``.

        The field defaults above are Riichi's; another rule set brings its own encoder, kinds
        and filters (no lobby or loss filter for MCR records, say).
        """
        entry = get_rules(rules)
        base: dict[str, Any] = {
            "rules": entry.name,
            "encoder": entry.default_encoder,
            "kinds": entry.kinds,
            "rooms": entry.default_rooms,
            "max_loss": entry.default_max_loss,
        }
        base.update(changes)
        return cls(**base)


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


@dataclass(slots=True)
class _FileGame:
    """What one game of a record file came to, decided without knowing the other files.

    ``gid`` is empty when ``reason`` comes from the game itself (variant, players, room); the
    caller applies the cross-file rules (duplicates, the game limit) in file order.
    """

    gid: str
    reason: str | None
    events: list[Any] | None = None
    #: Filled by :func:`_encode_file` for a build: encoded inputs and (kind, label, legal).
    x: np.ndarray | None = None
    points: list[tuple[str, int, tuple[int, ...]]] = field(default_factory=list)
    state_error: bool = False


def record_files(paths: Iterable[str | Path], rules: LearningRules) -> Iterator[tuple[Path, str]]:
    """(file, name) of every record file under ``paths`` that ``rules`` reads, in a stable order.

    ``name`` is the file's path relative to the folder it was found under (the file name for a
    file given directly); rule sets that name games by file (MCR, suits108) use it.
    """
    from tenpai.replay.runner import iter_record_files

    for p in paths:
        root = Path(p)
        for f in iter_record_files([root]):
            if root.is_dir():
                if rules.accept_file(f):
                    yield f, f.relative_to(root).as_posix()
            else:
                yield f, f.name


def _replay_file(f: Path, name: str, opts: BuildOptions) -> list[_FileGame] | None:
    """Every game of ``f`` with its skip reason or replayed events; ``None`` if unreadable."""
    from tenpai.replay.runner import load_record

    rules = get_rules(opts.rules)
    try:
        games = load_record(f)
    except NotAGameError:
        return []  # a file of a known kind that holds no game (a Botzone match's metadata)
    except RecordError:
        return None
    out: list[_FileGame] = []
    for i, game in enumerate(games):
        reason = rules.keep(game, opts)
        if reason is not None:
            out.append(_FileGame("", reason))
            continue
        gid = rules.game_id(game, name, i, len(games))
        if rules.split(gid) not in opts.splits:
            out.append(_FileGame(gid, "split not built"))
            continue
        events = rules.replay(game, opts, str(f))
        if events is None:
            out.append(_FileGame(gid, "replay diverged"))
            continue
        out.append(_FileGame(gid, None, events))
    return out


def _encode_file(
    job: tuple[Path, str, BuildOptions],
) -> tuple[Path, list[_FileGame] | None]:
    """:func:`_replay_file` plus decisions and encoding (runs in a worker process)."""
    f, name, opts = job
    games = _replay_file(f, name, opts)
    if games is None:
        return f, None
    rules = get_rules(opts.rules)
    enc = rules.get_encoder(opts.encoder)
    for g in games:
        if g.events is None:
            continue
        try:
            points = list(rules.decisions(g.events, opts.kinds, opts.max_loss))
        except (StateError, MCRStateError):
            g.state_error = True
        else:
            if points:
                g.x = enc.encode_batch([d.view for d in points])
                g.points = [(d.kind, d.label, d.legal) for d in points]
        g.events = None  # not needed by the parent; keeps what crosses the pipe small
    return f, games


def _accepted(
    results: Iterable[tuple[Path, list[_FileGame] | None]],
    opts: BuildOptions,
    summary: _Summary,
    on_file: Callable[[Path], None] | None,
) -> Iterator[_FileGame]:
    """Apply the skip reasons, de-duplication and the game limit in file order."""
    seen: set[str] = set()
    taken = 0
    for f, games in results:
        if on_file is not None:
            on_file(f)
        if opts.limit is not None and taken >= opts.limit:
            return
        if games is None:
            summary.skip("unreadable record")
            continue
        for g in games:
            if not g.gid:
                summary.skip(g.reason or "unknown")
                continue
            if g.gid in seen:
                summary.skip("duplicate game id")
                continue
            seen.add(g.gid)
            if g.reason is not None:
                summary.skip(g.reason)
                continue
            summary.sources.append(str(f))
            taken += 1
            yield g
            if opts.limit is not None and taken >= opts.limit:
                return


def iter_replayed_games(
    paths: Iterable[str | Path],
    opts: BuildOptions,
    summary: _Summary | None = None,
    on_file: Callable[[Path], None] | None = None,
) -> Iterator[tuple[str, list[Any]]]:
    """(game id, engine events) for every kept game that replays cleanly, deduplicated."""
    summary = summary if summary is not None else _Summary()
    rules = get_rules(opts.rules)
    results = ((f, _replay_file(f, name, opts)) for f, name in record_files(paths, rules))
    for g in _accepted(results, opts, summary, on_file):
        assert g.events is not None
        yield g.gid, g.events


class _ShardWriter:
    """Buffers one (split, kind) stream and writes ``.npz`` shards of ``size`` samples."""

    def __init__(self, root: Path, split: str, kind: str, classes: int, size: int) -> None:
        self.root, self.split, self.kind, self.size = root, split, kind, size
        self.classes = classes
        self.x: list[np.ndarray] = []
        self.y: list[int] = []
        self.legal: list[np.ndarray] = []
        self.game: list[int] = []
        self.index = 0
        self.written: list[dict[str, Any]] = []

    def add(self, x: np.ndarray, label: int, legal: tuple[int, ...], game: int) -> None:
        mask = np.zeros(self.classes, dtype=bool)
        mask[list(legal)] = True
        self.x.append(x)
        self.y.append(label)
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
        with atomic_path(path, keep_suffix=True) as tmp:  # savez appends .npz to other names
            np.savez_compressed(
                tmp,
                x=np.stack(self.x),
                y=np.asarray(self.y, dtype=np.int16),
                legal=np.stack(self.legal),
                game=np.asarray(self.game, dtype=np.int32),
            )
        self.written.append(
            {"path": rel.as_posix(), "split": self.split, "kind": self.kind, "n": len(self.y)}
        )
        self.index += 1
        self.x, self.y, self.legal, self.game = [], [], [], []


@contextmanager
def _file_results(
    paths: Sequence[str | Path], opts: BuildOptions, workers: int
) -> Iterator[Iterator[tuple[Path, list[_FileGame] | None]]]:
    """Encoded games per record file, in file order, from this process or a worker pool."""
    rules = get_rules(opts.rules)
    jobs = ((f, name, opts) for f, name in record_files(paths, rules))
    if workers <= 1:
        yield (_encode_file(job) for job in jobs)
        return
    import multiprocessing

    # Leaving the block early (a game limit, an error) terminates the workers.
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        yield pool.imap(_encode_file, jobs, chunksize=4)


def build_dataset(
    paths: Sequence[str | Path],
    out: str | Path,
    opts: BuildOptions,
    *,
    on_file: Callable[[Path], None] | None = None,
    workers: int = 1,
) -> dict[str, Any]:
    """Build the dataset under ``out`` and return its manifest (also saved as manifest.json).

    ``workers`` > 1 replays and encodes record files in that many processes; results are
    consumed in file order, so the shards and manifest are the same whatever the count.
    """
    rules = get_rules(opts.rules)
    enc = rules.get_encoder(opts.encoder)
    for k in opts.kinds:
        if k not in rules.classes:
            raise DatasetError(
                f"unknown {rules.name} decision kind {k!r}; known: {', '.join(rules.kinds)}"
            )
    for s in opts.splits:
        if s not in SPLITS:
            raise DatasetError(f"unknown split {s!r}; known: {', '.join(SPLITS)}")
    root = Path(out)
    if (root / "manifest.json").exists():
        raise DatasetError(f"{root} already holds a dataset; choose an empty directory")
    root.mkdir(parents=True, exist_ok=True)
    summary = _Summary()
    writers = {
        (s, k): _ShardWriter(root, s, k, rules.classes[k], opts.shard_size)
        for s in opts.splits
        for k in opts.kinds
    }
    with _file_results(paths, opts, workers) as results:
        for g in _accepted(results, opts, summary, on_file):
            if g.state_error:
                summary.skip("state error")
                continue
            if g.x is None:
                continue
            split = rules.split(g.gid)
            index = len(summary.game_ids)
            summary.game_ids.append(g.gid)
            summary.games[split] += 1
            counts = summary.counts.setdefault(split, {k: 0 for k in opts.kinds})
            pos = summary.positives.setdefault(split, {k: 0 for k in opts.kinds})
            for x, (kind, label, legal) in zip(g.x, g.points):
                writers[(split, kind)].add(x, label, legal, index)
                counts[kind] += 1
                pos[kind] += int(label != 0)
    for w in writers.values():
        w.flush()
        summary.shards.extend(w.written)
    if not summary.game_ids:
        reasons = ", ".join(f"{r} {n}" for r, n in summary.skipped.items()) or "no record files"
        raise DatasetError(f"no {rules.name} game with decisions under the given paths ({reasons})")
    manifest = {
        "format": FORMAT,
        "rules": rules.name,
        "encoder": enc.tag,
        "layout": enc.layout,
        "shape": list(enc.shape),
        "classes": {k: rules.classes[k] for k in opts.kinds},
        "options": asdict(opts),
        "split_rule": rules.split.text,
        "games": summary.game_ids,
        "games_per_split": summary.games,
        "counts": summary.counts,
        "nonzero_labels": summary.positives,
        "skipped": summary.skipped,
        "shards": summary.shards,
        "sources": summary.sources,
    }
    write_text_atomic(root / "manifest.json", json.dumps(manifest, indent=1))
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
    if not isinstance(manifest, dict):
        raise DatasetError(f"{path}: unreadable manifest (not a JSON object)")
    if manifest.get("format") == _OLD_MCR_FORMAT:
        raise DatasetError(
            f"{path}: an MCR dataset in the older separate format; rebuild it with "
            "tenpai dataset build --rules mcr"
        )
    if manifest.get("format") != FORMAT:
        raise DatasetError(f"{path}: format {manifest.get('format')!r}, expected {FORMAT!r}")
    return manifest


def manifest_rules(manifest: dict[str, Any]) -> str:
    """The rule set of a dataset (manifests written before the registry are Riichi's)."""
    return str(manifest.get("rules", "riichi"))


def shard_paths(root: str | Path, split: str, kind: str) -> list[Path]:
    """The shard files of one split and decision kind, in order."""
    manifest = load_manifest(root)
    return [
        Path(root) / s["path"]
        for s in manifest["shards"]
        if s["split"] == split and s["kind"] == kind
    ]
