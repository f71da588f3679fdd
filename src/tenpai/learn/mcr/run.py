"""Build, train and score an MCR model in one command (the MCR half of ``tenpai train sl``).

``python -m tenpai.learn.mcr.run ../shared/data/mcr --encoder mcr_stack002 --arch resnet
-o mcr.pt --minutes 2.5 --call-minutes 0.5`` replays the records, splits them by game, trains
one head per decision kind on *train* (selection on *dev*), prints the agreement on *test* as
JSON and writes the model (``--half`` stores float16 weights, as shipped).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

import torch

from tenpai.learn.mcr.dataset import SPLIT_RULE, encode_games, load_mcr_games
from tenpai.learn.mcr.decisions import MCR_DECISION_KINDS, MCR_NUM_CLASSES
from tenpai.learn.mcr.encoders import get_mcr_encoder
from tenpai.learn.mcr.evaluate import agreement
from tenpai.learn.mcr.train import train_head
from tenpai.models.bundle import ModelBundle

__all__ = ["arch_config", "main"]

#: Heads with fewer training samples than this are not trained (the agent uses its rule).
MIN_SAMPLES = 40


def arch_config(arch: str, shape: Sequence[int], classes: int, kind: str) -> dict[str, Any]:
    """The network for one head: 003's FFN (full size for discards, smaller for calls, as the
    report did) or a small 002-style residual CNN over the kinds."""
    if arch == "ffn":
        hidden = [1024] * 5 + [100] if kind == "discard" else [256, 256, 64]
        return {"arch": "ffn", "in_features": int(shape[0]), "classes": classes,
                "hidden": hidden, "dropout": 0.3}
    if arch == "resnet":
        width, blocks = (48, 3) if kind == "discard" else (32, 2)
        return {"arch": "resnet", "in_channels": int(shape[0]), "classes": classes,
                "width": width, "blocks": blocks, "dropout": 0.3}
    raise ValueError(f"unknown arch {arch!r} (ffn or resnet)")


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tenpai.learn.mcr.run", description=__doc__)
    p.add_argument("data", help="folder or file of Botzone MCR records")
    p.add_argument("--encoder", default="mcr_stack002")
    p.add_argument("--arch", default="resnet", choices=("ffn", "resnet"))
    p.add_argument("-o", "--out", required=True)
    p.add_argument("--minutes", type=float, default=2.5, help="budget of the discard head")
    p.add_argument("--call-minutes", type=float, default=0.5, help="budget per call head")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--half", action="store_true", help="store float16 weights")
    args = p.parse_args(argv)
    torch.set_num_threads(args.threads)
    enc = get_mcr_encoder(args.encoder)
    skipped: list[dict[str, str]] = []
    games = load_mcr_games(args.data, skipped=skipped)
    parts = {s: [g for g in games if g.split == s] for s in ("train", "dev", "test")}
    arrays = {s: encode_games(gs, enc) for s, gs in parts.items()}
    bundle = ModelBundle(encoder=enc.tag)
    for kind in MCR_DECISION_KINDS:
        tr, dv = arrays["train"][kind], arrays["dev"][kind]
        if len(tr) < MIN_SAMPLES or len(dv) == 0:
            print(f"{kind}: {len(tr)} train / {len(dv)} dev samples, not trained",
                  file=sys.stderr)
            continue
        config = arch_config(args.arch, enc.shape, MCR_NUM_CLASSES[kind], kind)
        card = {"dataset": str(args.data), "encoder": enc.tag, "split_rule": SPLIT_RULE,
                "games": {s: len(g) for s, g in parts.items()}, "skipped": len(skipped)}
        head = train_head(kind, config, tr, dv, seed=args.seed, card=card,
                          minutes=args.minutes if kind == "discard" else args.call_minutes)
        c = head.card
        print(f"{kind}: {c['parameters']} parameters, {c['samples_seen']} samples seen, "
              f"stopped by {c['stop_reason']} after {len(c['history'])} epochs "
              f"({c['wall_minutes']} min), best dev acc {c['best_dev_acc']:.4f}",
              file=sys.stderr)
        bundle.heads[kind] = head
    bundle.save(args.out, half=args.half)
    report = {"encoder": enc.tag, "arch": args.arch, "games": {s: len(g) for s, g in
                                                               parts.items()}}
    for split in ("dev", "test"):
        report[split] = agreement(ModelBundle.load(args.out), arrays[split])
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
