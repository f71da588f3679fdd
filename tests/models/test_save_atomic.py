"""torchfile.save_atomic: a failed save keeps the previous checkpoint and leaves no temporary;
a second save of the same file while one is in progress does not collide with it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")

from tenpai.models import torchfile  # noqa: E402

_FORMAT = "test-save-atomic"


class _Error(Exception):
    pass


def _load(path: Path) -> dict[str, Any]:
    return torchfile.load_tagged(path, _FORMAT, _Error)


def test_a_failed_save_keeps_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "ckpt.pt"
    torchfile.save_atomic({"format": _FORMAT, "step": 1}, path)
    with pytest.raises(Exception, match=r"lambda|pickle"):
        torchfile.save_atomic({"format": _FORMAT, "step": 2, "bad": lambda: 0}, path)
    assert _load(path)["step"] == 1
    assert [p.name for p in tmp_path.iterdir()] == ["ckpt.pt"]


def test_a_save_during_a_save_of_the_same_file_does_not_collide(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The second save starts while the first has written its temporary and not yet renamed it
    (as a second process or thread would); a shared temporary name lost the first one's file."""
    path = tmp_path / "model.pt"
    real_save = torch.save
    calls: list[int] = []

    def save_then_interleave(payload: dict[str, Any], f: Any) -> None:
        real_save(payload, f)
        calls.append(payload["step"])
        if len(calls) == 1:
            torchfile.save_atomic({"format": _FORMAT, "step": 2}, path)

    monkeypatch.setattr(torch, "save", save_then_interleave)
    torchfile.save_atomic({"format": _FORMAT, "step": 1}, path)
    assert calls == [1, 2]
    assert _load(path)["step"] == 1  # the last rename wins, with a whole file
    assert [p.name for p in tmp_path.iterdir()] == ["model.pt"]
