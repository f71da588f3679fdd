"""Writing and reading the project's torch files (models, checkpoints) one safe way.

Every file tenpai saves with torch is a dictionary of plain containers with a ``format`` tag.
Two properties matter for all of them and used to be re-implemented at each site:

* a save never leaves a half-written file under the real name (a kill during a long training
  run must not destroy the previous checkpoint), hence write-then-rename;
* a load never executes code from the file (``weights_only=True``), and any failure — missing,
  truncated, a pickle that wants code, a file of another kind — becomes the caller's typed
  error naming the path, instead of torch's own message (which advises the unsafe
  ``weights_only=False``).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import torch

from tenpai.atomic import atomic_path


def save_atomic(payload: dict[str, Any], path: Path) -> None:
    """``torch.save`` to a temporary sibling, then rename over ``path`` (``tenpai.atomic``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(path) as tmp:
        torch.save(payload, tmp)


def load_tagged(
    path: Path, fmt: str, error: type[Exception], what: str = "model file"
) -> dict[str, Any]:
    """The dictionary saved at ``path`` if it carries ``format == fmt``, else ``error``.

    ``what`` names the kind of file in the messages ("model file", "checkpoint").
    """
    try:
        payload = torch.load(path, map_location="cpu", weights_only=True)
    except FileNotFoundError:
        raise error(f"{path}: no such {what}") from None
    except IsADirectoryError:
        raise error(f"{path}: is a directory, not a {what}") from None
    except Exception as exc:  # torch raises many types for a damaged file
        raise error(
            f"{path}: not a readable {what} (damaged, truncated or not a tenpai {fmt} file; "
            f"tenpai loads these without executing code): {type(exc).__name__}"
        ) from exc
    if not isinstance(payload, dict) or payload.get("format") != fmt:
        raise error(f"{path}: not a {fmt} file")
    bad = _non_finite(payload)
    if bad is not None:
        raise error(f"{path}: tensor {bad} holds NaN or infinite values; a {what} with "
                    "non-finite weights cannot play (a diverged training run?)")
    return payload


def _non_finite(obj: Any, where: str = "", depth: int = 0) -> str | None:
    """The name of the first floating tensor in ``obj`` (nested dicts and lists) holding a NaN
    or an infinity, else ``None``: such weights load fine and then answer every decision with
    NaN scores, i.e. an arbitrary action, so a broken model would silently play."""
    if depth > 32:
        return None
    if isinstance(obj, torch.Tensor):
        if obj.is_floating_point() and obj.numel() and not bool(torch.isfinite(obj).all()):
            return where or "(top level)"
        return None
    if isinstance(obj, dict):
        items: Any = obj.items()
    elif isinstance(obj, (list, tuple)):
        items = enumerate(obj)
    else:
        return None
    for key, value in items:
        found = _non_finite(value, f"{where}.{key}" if where else str(key), depth + 1)
        if found is not None:
            return found
    return None


def file_fingerprint(path: Path) -> str:
    """``name sha256:<16 hex digits>`` of the file's bytes: what a stored arena run records for
    an agent whose name alone does not say which weights it played (``pg`` with
    ``$TENPAI_PG_MODEL``), so runs of two different files are never read as one experiment."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return f"{path.name} sha256:{digest.hexdigest()[:16]}"
