"""Does the planner's completion probability mean what it says?  Draws only against draws and
claims, side by side.

``python -m tenpai.bench.planner_calibration --games 200 --seed 47010 --rates 0.3,0.6,1``
plays seeded one-hand games (``--preset botzone`` by default) of ``planner`` in positions 0
and 2 against ``efficiency`` in 1 and 3 (settings from ``$TENPAI_PLANNER_*`` as in the arena).
At each discard of a planner position that keeps a target, it takes the target the planner
steers for (the most valuable one any discard keeps) and its probability under each model:
the draws-only figure the planner played by, and the draws-and-claims figure at each rate
(:func:`tenpai.rules.mcr.plan.target_probability`, same target, same position).  When the
hand ends it notes whether that position won.  The output bins the decisions by predicted
probability, per model: decisions, mean prediction, how often the hand was won, and the Brier
score over all decisions.

A prediction is for *this* target; the outcome is a win with *any* hand (the planner changes
targets as tiles come), so a model that is right about the target still under-predicts a
little.  Decisions of one hand are not independent: the counts overstate the sample.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from tenpai.agents import make_agent
from tenpai.arena.games import make_game
from tenpai.argtypes import positive_int
from tenpai.rules.mcr.plan import target_probability

__all__ = ["BINS", "Record", "calibration_table", "main", "play_records"]

#: Upper ends of the prediction bins (the last bin ends at 1 inclusive).
BINS = (0.02, 0.05, 0.1, 0.2, 0.3, 0.45, 0.6, 0.8, 1.0)


@dataclass(frozen=True, slots=True)
class Record:
    """One planner discard: the target's predictions by model and whether the hand was won."""

    game: int
    seat: int
    predicted: tuple[float, ...]
    won: bool = False


def play_records(games: int, seed: int, rates: Sequence[float],
                 preset: str = "botzone") -> list[Record]:
    """Play the games and return one record per planner discard that keeps a target;
    ``predicted`` holds the draws-only figure, then one per rate."""
    out: list[Record] = []
    for g in range(games):
        game = make_game("mcr", seed + g, ["planner", "efficiency", "planner", "efficiency"],
                         {"preset": preset})
        agents = [make_agent(name, seed + g * 4 + s)
                  for s, name in enumerate(("planner", "efficiency", "planner", "efficiency"))]
        pending: list[Record] = []
        while not game.done and not getattr(game, "results", None):
            answers = {}
            for d in game.pending():
                agent: Any = agents[d.seat]
                if d.seat in (0, 2) and any(e.type == "dahai" for e in d.legal):
                    rec = _record(agent, d.observation, g, d.seat, rates)
                    if rec is not None:
                        pending.append(rec)
                answers[d.seat] = agent.act(d.observation, d.legal)
            game.step(answers)
        winners = {e.actor for e in game.events if e.type == "hora"}
        out.extend(replace(r, won=r.seat in winners) for r in pending)
    return out


def _record(agent: Any, obs: Any, game: int, seat: int,
            rates: Sequence[float]) -> Record | None:
    targets = agent.discard_targets(obs)
    if not targets:
        return None
    t = max(targets.values(), key=lambda x: (x.value, -x.missing))
    state = agent.state(obs)
    predicted = [t.probability]
    for r in rates:
        predicted.append(target_probability(replace(state, claim_rate=r), t.family, t.hand,
                                            t.needed, state.unseen,
                                            win_claim=not t.self_draw_only))
    return Record(game, seat, tuple(predicted))


def calibration_table(records: Sequence[Record], model: int) -> dict[str, Any]:
    """Per bin of model ``model``'s prediction: count, mean prediction, share won; and the
    model's Brier score and mean prediction against the overall share won."""
    rows = []
    lo = 0.0
    for hi in BINS:
        inside = [r for r in records
                  if lo <= r.predicted[model] < hi or (hi == 1.0 and r.predicted[model] == 1.0)]
        if inside:
            rows.append({"bin": f"{lo:.2f}-{hi:.2f}", "n": len(inside),
                         "predicted": sum(r.predicted[model] for r in inside) / len(inside),
                         "won": sum(r.won for r in inside) / len(inside)})
        lo = hi
    n = len(records)
    brier = sum((r.predicted[model] - r.won) ** 2 for r in records) / n if n else 0.0
    mean_p = sum(r.predicted[model] for r in records) / n if n else 0.0
    won = sum(r.won for r in records) / n if n else 0.0
    return {"rows": rows, "brier": brier, "mean_predicted": mean_p, "won": won, "n": n}


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m tenpai.bench.planner_calibration",
                                 description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--games", type=positive_int, default=100,
                    help="games played per rate (default %(default)s)")
    ap.add_argument("--seed", type=int, default=0,
                    help="seed of the first game (default %(default)s)")
    ap.add_argument("--rates", default="0.3,0.6,1",
                    help="claim rates in [0, 1], comma-separated (default %(default)s)")
    ap.add_argument("--preset", default="botzone", help="MCR preset (default %(default)s)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    try:
        rates = [float(x) for x in args.rates.split(",") if x.strip()]
    except ValueError:
        ap.error(f"--rates: cannot read {args.rates!r} as numbers")
    if any(not 0.0 <= r <= 1.0 for r in rates):
        ap.error(f"--rates must lie in [0, 1], got {args.rates}")
    records = play_records(args.games, args.seed, rates, args.preset)
    names = ["draws only", *(f"claims {r:g}" for r in rates)]
    tables = {name: calibration_table(records, i) for i, name in enumerate(names)}
    if args.json:
        print(json.dumps(tables, indent=1))
        return
    hands = len({(r.game, r.seat) for r in records})
    print(f"{len(records)} planner discards keeping a target, {hands} hands, "
          f"{args.games} games (seed {args.seed}, preset {args.preset})")
    for name, tab in tables.items():
        print(f"\n{name}: Brier {tab['brier']:.4f}, mean predicted {tab['mean_predicted']:.3f}, "
              f"won {tab['won']:.3f}")
        print("  bin        n     predicted  won")
        for row in tab["rows"]:
            print(f"  {row['bin']}  {row['n']:5d}  {row['predicted']:.3f}      {row['won']:.3f}")


if __name__ == "__main__":
    main()
