"""Supervised learning from real records: state tracking, decision points, encoders, shards.

Everything in this package except the parts that say otherwise runs on numpy alone, so a
dataset can be built (and its tests run) without torch; the torch modules live in
:mod:`tenpai.models` and the training loops in :mod:`tenpai.train`.

The path of one record::

    Game ──replay_riichi──► engine events (with implicit passes)
         ──decisions.iter_decisions──► DecisionPoint(kind, seat, SeatView, label, legal)
         ──encoders.<name>.encode──► uint8 array ──dataset.build──► .npz shards + manifest
"""

from __future__ import annotations

__all__: list[str] = []
