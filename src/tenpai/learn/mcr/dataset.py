"""MCR records → replayed games → a fixed split by game → encoded decision arrays.

Botzone records hold one hand per game.  Each game gets an id (its file path under the data
folder, plus ``#index`` for files holding several games); the split is fixed by that id:
the first 8 hex digits of ``sha256(id)`` modulo 10 — 0-7 **train**, 8 **dev**, 9 **test**.
(The Riichi corpus uses modulo 100 with 5 % held out each; with 116 games that would leave
about six games per held-out split, too few to measure anything.)

:func:`build_mcr_dataset` writes ``manifest.json`` (format ``tenpai-sl-mcr-dataset/1``) and
one ``{split}/{kind}.npz`` per split and decision kind (``x`` uint8 inputs, ``y`` labels,
``legal`` class masks, ``game`` index into the manifest's game list); the manifest last, so a
half-written folder is never taken for a dataset.  The output directory must be new or empty
(fixed file names would otherwise sit beside whatever was there, and a stale manifest could
describe other arrays), and a build that replays no game at all is refused rather than
written as an empty dataset.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import numpy as np

from tenpai.events import Event
from tenpai.learn.mcr.decisions import MCR_DECISION_KINDS, MCR_NUM_CLASSES, iter_mcr_decisions
from tenpai.learn.mcr.encoders import MCREncoder, get_mcr_encoder
from tenpai.records import RecordError, read_any
from tenpai.replay.mcr import replay_mcr

__all__ = [
    "FORMAT",
    "SPLITS",
    "Arrays",
    "MCRDatasetError",
    "MCRGameRecord",
    "build_mcr_dataset",
    "encode_games",
    "load_arrays",
    "load_mcr_games",
    "load_mcr_manifest",
    "split_of",
]

FORMAT: Final = "tenpai-sl-mcr-dataset/1"
SPLITS: Final = ("train", "dev", "test")
SPLIT_RULE: Final = "int(sha256(game_id)[:8], 16) % 10: 0-7 train, 8 dev, 9 test"
_SUFFIXES: Final = (".json", ".jsonl", ".txt")


class MCRDatasetError(ValueError):
    """A dataset cannot be built or read; the message names the place."""


@dataclass(frozen=True, slots=True)
class MCRGameRecord:
    """One replayed game: its id, split and the engine's events (with pass events)."""

    game_id: str
    split: str
    events: tuple[Event, ...]


def split_of(game_id: str) -> str:
    """The fixed split of a game id (see the module docstring)."""
    bucket = int(hashlib.sha256(game_id.encode()).hexdigest()[:8], 16) % 10
    return "train" if bucket <= 7 else "dev" if bucket == 8 else "test"


def _record_files(root: Path) -> list[Path]:
    if root.is_file():
        return [root]
    return sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in _SUFFIXES
                  and not p.name.startswith(("README", "SOURCES", "MANIFEST")))


def load_mcr_games(
    root: str | Path, *, skipped: list[dict[str, str]] | None = None
) -> list[MCRGameRecord]:
    """Read and replay every Botzone record under ``root``; games that fail are left out
    (named in ``skipped`` when given)."""
    base = Path(root)
    if not base.exists():
        raise MCRDatasetError(f"{base}: no such file or folder")
    out: list[MCRGameRecord] = []
    for path in _record_files(base):
        rel = path.name if base.is_file() else path.relative_to(base).as_posix()
        try:
            games = read_any(path)
        except RecordError as exc:
            if skipped is not None:
                skipped.append({"game": rel, "reason": f"unreadable: {exc}"})
            continue
        for i, g in enumerate(games):
            gid = rel if len(games) == 1 else f"{rel}#{i}"
            if g.rules.variant != "mcr":
                if skipped is not None:
                    skipped.append({"game": gid, "reason": f"{g.rules.variant} record"})
                continue
            final = None if g.truncated else g.final_scores
            result = replay_mcr(g.events(), final_scores=final, name=gid)
            if not result.ok:
                if skipped is not None:
                    skipped.append({"game": gid, "reason": str(result.divergence)})
                continue
            out.append(MCRGameRecord(gid, split_of(gid), tuple(result.events)))
    return out


@dataclass(slots=True)
class Arrays:
    """Encoded decisions of one kind in one split."""

    x: np.ndarray
    y: np.ndarray
    legal: np.ndarray
    game: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int32))

    def __len__(self) -> int:
        return int(self.y.shape[0])


def encode_games(
    games: Iterable[MCRGameRecord], encoder: MCREncoder, kinds: Iterable[str] = MCR_DECISION_KINDS
) -> dict[str, Arrays]:
    """Encode every decision of ``games`` per kind (game index = position in ``games``)."""
    wanted = tuple(kinds)
    rows: dict[str, list[tuple[np.ndarray, int, np.ndarray, int]]] = {k: [] for k in wanted}
    for gi, g in enumerate(games):
        for d in iter_mcr_decisions(g.events, kinds=wanted):
            mask = np.zeros(MCR_NUM_CLASSES[d.kind], dtype=bool)
            mask[list(d.legal)] = True
            rows[d.kind].append((encoder.encode(d.view), d.label, mask, gi))
    out = {}
    for k in wanted:
        r = rows[k]
        n_cls = MCR_NUM_CLASSES[k]
        out[k] = Arrays(
            np.stack([a[0] for a in r]) if r else np.zeros((0, *encoder.shape), np.uint8),
            np.array([a[1] for a in r], dtype=np.int64),
            np.stack([a[2] for a in r]) if r else np.zeros((0, n_cls), bool),
            np.array([a[3] for a in r], dtype=np.int32),
        )
    return out


def build_mcr_dataset(root: str | Path, out_dir: str | Path, encoder: str) -> dict[str, Any]:
    """Replay, split and encode the records under ``root`` into ``out_dir``; returns the
    manifest."""
    enc = get_mcr_encoder(encoder)
    out = Path(out_dir)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise MCRDatasetError(f"{out} is not an empty directory; choose a new or empty one")
    skipped: list[dict[str, str]] = []
    games = load_mcr_games(root, skipped=skipped)
    if not games:
        why = f" ({len(skipped)} skipped, first: {skipped[0]['reason']})" if skipped else ""
        raise MCRDatasetError(f"{root}: no MCR game replayed{why}")
    counts: dict[str, dict[str, int]] = {}
    ids: dict[str, list[str]] = {}
    for split in SPLITS:
        part = [g for g in games if g.split == split]
        ids[split] = [g.game_id for g in part]
        arrays = encode_games(part, enc)
        (out / split).mkdir(parents=True, exist_ok=True)
        counts[split] = {}
        for kind, a in arrays.items():
            target = out / split / f"{kind}.npz"
            tmp = target.with_name(target.name + ".tmp.npz")
            np.savez_compressed(tmp, x=a.x, y=a.y, legal=a.legal, game=a.game)
            os.replace(tmp, target)
            counts[split][kind] = len(a)
    manifest = {
        "format": FORMAT,
        "encoder": enc.tag,
        "shape": list(enc.shape),
        "source": str(root),
        "split_rule": SPLIT_RULE,
        "games": ids,
        "counts": counts,
        "skipped": skipped,
    }
    tmp_m = out / "manifest.json.tmp"
    tmp_m.write_text(json.dumps(manifest, indent=1))
    os.replace(tmp_m, out / "manifest.json")
    return manifest


def load_mcr_manifest(out_dir: str | Path) -> dict[str, Any]:
    """A built MCR dataset's manifest; MCRDatasetError when missing, unreadable or of another
    format (a Riichi dataset, say)."""
    path = Path(out_dir) / "manifest.json"
    try:
        data: Any = json.loads(path.read_text())
    except FileNotFoundError:
        raise MCRDatasetError(
            f"{path}: no manifest (not a dataset, or an unfinished build)"
        ) from None
    except (OSError, json.JSONDecodeError) as exc:
        raise MCRDatasetError(f"{path}: unreadable manifest: {exc}") from exc
    found = data.get("format") if isinstance(data, dict) else None
    if found != FORMAT:
        raise MCRDatasetError(f"{path}: format {found!r}, expected {FORMAT!r}")
    manifest: dict[str, Any] = data
    return manifest


def load_arrays(out_dir: str | Path, split: str, kind: str) -> Arrays:
    """One split's arrays of one kind from a built dataset."""
    path = Path(out_dir) / split / f"{kind}.npz"
    if not (Path(out_dir) / "manifest.json").exists():
        raise MCRDatasetError(f"{out_dir}: no manifest.json (not a finished MCR dataset)")
    if not path.is_file():
        raise MCRDatasetError(f"{path}: missing (no {split} arrays of kind {kind!r})")
    with np.load(path) as z:
        return Arrays(z["x"], z["y"], z["legal"], z["game"])
