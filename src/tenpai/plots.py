"""matplotlib behind one door: imported lazily (extras ``plot`` and ``dev``), headless, and
PNGs written under a temporary name then renamed, so a failed plot never leaves half a file.

Every part of tenpai that draws (arena reports, learning curves) goes through here, so none of
them needs matplotlib until a plot is really asked for.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tenpai.atomic import atomic_path

__all__ = ["PlotError", "pyplot", "save_png"]


class PlotError(RuntimeError):
    """A plot cannot be drawn or written (matplotlib missing, or the folder not writable)."""


def pyplot() -> Any:
    """``matplotlib.pyplot`` on the headless Agg backend, or :class:`PlotError` saying how to
    install it."""
    try:
        import matplotlib
    except ImportError:
        raise PlotError(
            "plots need matplotlib, which is not installed: pip install 'tenpai[plot]'"
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_png(fig: Any, path: Path, *, dpi: int = 110) -> None:
    """Write ``fig`` to ``path`` atomically and close it."""
    try:
        with atomic_path(path) as tmp:  # a PNG whatever the name ends in (it used to be too)
            fig.savefig(tmp, format="png", dpi=dpi, bbox_inches="tight")
    except OSError as exc:
        raise PlotError(f"{path}: cannot write the plot ({exc.strerror or exc})") from exc
    finally:
        import matplotlib.pyplot as plt

        plt.close(fig)
