"""How well :mod:`tenpai.rules.mcr.danger` reads a table, measured on stored arena games.

``python -m tenpai.bench.mcr_danger_calibration RUN.db [RUN.db ...] [--seat-agent planner]``
replays every stored game (the arena keeps each game's full events) and, at each discard of
the seats played by ``--seat-agent``, compares the reading with the truth the records hold:

* per (sets on the table, discards-so-far row) of an opponent: how often it was really ready
  with a discard win of 8 fans or more (the figures :data:`~tenpai.rules.mcr.danger.
  READY_TABLE` estimates);
* for the kinds in the discarder's hand: the deal-in rate against ready opponents by
  :func:`~tenpai.rules.mcr.danger.wait_weight` (the ratio is :data:`WAIT_SCALE`), and the
  deal-in rate of kinds the reading calls *passed* (must be 0) and *own discards*.

Development tool: the table and scale in the danger module were set from its output on
development seeds (docs/mcr_strength_runs.md says which).
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from collections.abc import Sequence

from tenpai.bench.mcr_replay import TableReplay, stored_games
from tenpai.events import Event
from tenpai.hand import shanten_mcr
from tenpai.rules.mcr.context import MCRContext, MCRInputError, Meld
from tenpai.rules.mcr.danger import read_opponents, wait_weight
from tenpai.rules.mcr.evaluate import MINIMUM_FAN, evaluate

__all__ = ["main", "winning_kinds"]


def winning_kinds(counts: Sequence[int], melds: tuple[Meld, ...], seat_wind: int,
                  prevalent: int) -> set[int]:
    """Kinds that complete a 13-tile hand on a discard with at least 8 fans."""
    out: set[int] = set()
    c = list(counts)
    for k in range(34):
        if c[k] >= 4:
            continue
        c[k] += 1
        if shanten_mcr(c) == -1:
            concealed = tuple(i for i, n in enumerate(c) for _ in range(n))
            try:
                res = evaluate(MCRContext(concealed=concealed, win_tile=k, melds=melds,
                                          self_drawn=False, seat_wind=seat_wind,
                                          prevalent_wind=prevalent))
            except MCRInputError:
                res = None
            if res is not None and res.total_without_flowers >= MINIMUM_FAN:
                out.add(k)
        c[k] -= 1
    return out


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dbs", nargs="+", help="results files of tenpai arena --rules mcr")
    ap.add_argument("--seat-agent", default="planner",
                    help="the agent whose seats' reading is measured (default %(default)s)")
    args = ap.parse_args(argv)
    #: (melds, discards row) -> [ready, total]
    ready: defaultdict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0])
    #: weight bin -> [deal-ins, cases, summed weight]
    weight_bins: defaultdict[int, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    passed_stats = [0, 0]
    own_stats = [0, 0]
    other_stats = [0, 0]
    for game in stored_games(args.dbs, "mcr_danger_calibration"):
        events = game.events
        names = events[0].names
        mine = {s for s, n in enumerate(names) if n == args.seat_agent}
        table = TableReplay()
        seen: list[Event] = []
        for e in events:
            if e.type == "dahai" and e.actor is not None and e.pai is not None \
                    and e.actor in mine:
                _measure(e.actor, seen, table, ready, weight_bins, passed_stats, own_stats,
                         other_stats)
            table.apply(e)
            seen.append(e)
    print("ready with an 8-fan discard win, by melds (rows) and discards // 3 (columns):")
    for m in range(5):
        cells = []
        for r in range(5):
            got, n = ready[(m, r)]
            cells.append(f"{got / n:.2f} ({n})" if n else "   -    ")
        print(f"  {m} melds: " + "  ".join(cells))
    print("deal-in rate against ready opponents by wait weight bin "
          "(rate, n, rate / mean weight):")
    for b in sorted(weight_bins):
        hits, cases, sw = weight_bins[b]
        print(f"  weight {b / 4:.2f}-{(b + 1) / 4:.2f}: {hits / cases:.3f} ({cases:.0f}), "
              f"scale {(hits / cases) / (sw / cases) if sw else 0:.3f}")
    tot_d = sum(v[0] for v in weight_bins.values())
    tot_w = sum(v[2] for v in weight_bins.values())
    print(f"  overall scale (deal-ins / summed weight): {tot_d / tot_w if tot_w else 0:.4f}")
    for label, (d, n) in (("passed", passed_stats), ("own discards", own_stats),
                          ("other", other_stats)):
        print(f"kinds {label}: deal-in rate against ready opponents {d / n if n else 0:.3f} "
              f"({n})")


def _measure(me: int, seen: list[Event], table: TableReplay,
             ready: defaultdict[tuple[int, int], list[int]],
             weight_bins: defaultdict[int, list[float]], passed_stats: list[int],
             own_stats: list[int], other_stats: list[int]) -> None:
    readings = read_opponents(me, seen)
    own = table.counts[me]
    unseen = [4 - table.visible[k] - own[k] for k in range(34)]
    # the other seats' concealed kongs are face down: the reader does not see them
    for r in readings:
        wins = winning_kinds(table.counts[r.seat], tuple(table.melds[r.seat]),
                             table.seat_wind(r.seat), table.prevalent)
        key = (min(r.melds, 4), min(r.discards // 3, 4))
        ready[key][1] += 1
        if not wins:
            continue
        ready[key][0] += 1
        for k in range(34):
            if not own[k]:
                continue
            hit = int(k in wins)
            if k in r.passed:
                passed_stats[0] += hit
                passed_stats[1] += 1
                continue
            if k in r.own_discards:
                own_stats[0] += hit
                own_stats[1] += 1
                continue
            other_stats[0] += hit
            other_stats[1] += 1
            w = wait_weight(k, unseen)
            b = weight_bins[min(int(w * 4), 12)]
            b[0] += hit
            b[1] += 1
            b[2] += w


if __name__ == "__main__":
    main()
