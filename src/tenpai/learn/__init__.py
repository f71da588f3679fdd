"""Supervised learning from records, one layer for every rule set.

A rule set plugs in through one registry entry (:mod:`tenpai.learn.rulesets`): its record
files, how a game is kept, named, split and replayed, its decision kinds and their classes,
its encoders and its trainer defaults.  Dataset building (:mod:`.dataset`), training
(:mod:`tenpai.train.sl`) and agreement (:mod:`.evaluate`) are written once on top of it.
Everything here except the parts that say otherwise runs on numpy alone, so a dataset can be
built (and its tests run) without torch.

The path of one record::

    Game ──entry.replay──► engine events (with implicit passes)
         ──entry.decisions──► decision(kind, seat, view, label, legal)
         ──encoder.encode──► uint8 array ──dataset.build_dataset──► .npz shards + manifest
"""

from __future__ import annotations

__all__: list[str] = []
