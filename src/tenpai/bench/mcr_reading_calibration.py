"""Do weighted worlds read the opponents' hands?  ``search_mcr``'s worlds against the truth.

``python -m tenpai.bench.mcr_reading_calibration RUN.db [RUN.db ...] --seat-agent planner``
replays every stored game of ``tenpai arena --rules mcr --preset botzone`` through the engine
(:func:`~tenpai.replay.mcr.replay_mcr`, whose table holds every hidden tile) and, at each
discard of the seats ``--seat-agent`` played, asks two sets of ``search_mcr`` worlds of that
very decision — uniform (``WORLDS_MODE=uniform``) and weighted (``WORLDS_MODE=weighted``,
:mod:`tenpai.search.mcr.reading`), ``--worlds`` each, drawn by the agent's own code — one
question per kind the seat could throw: *does it complete an opponent's hand?*  A set's answer
is the share of its worlds in which some opponent's hand plus the tile is complete (MCR's
shape, :func:`~tenpai.hand.shanten_mcr` −1; the 8-fan minimum aside, so this is "is it a
wait", not "would they win"); the truth is the same question asked of the real hands.

Two more sets are measured beside them: ``WORLDS_MODE=speed``, the opponents' hands improved as
a speed player's over its turns before the same weighting, and ``WORLDS_MODE=history``, each
opponent's hand picked from ``--pool`` such hands by its whole discard history and the claims
it let pass (:mod:`tenpai.search.mcr.history`).

It prints, for each set, the Brier score and the log-loss of its answers (probabilities kept
within [0.01, 0.99]) and the mean answer where the truth is yes and where it is no; then each
set's difference from the uniform set in both scores, per decision (the mean over its kinds),
and ``history``'s from ``speed``'s, with a 95 % t interval over walls (a wall's decisions are
not independent).  Below zero: the first set reads the hands better.  Decisions where no
opponent has a scored discard weigh nothing and are counted apart.

Development and registered measurement for issue 43 (docs/mcr_strength_runs.md, sessions 44
and 45).
"""

from __future__ import annotations

import argparse
import itertools
import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from tenpai import tiles as T
from tenpai.arena.distributions import student_t_ppf
from tenpai.argtypes import non_negative_int, positive_float, positive_int
from tenpai.bench.mcr_replay import stored_games
from tenpai.engine.flow import Decision
from tenpai.events import Event
from tenpai.hand import shanten_mcr
from tenpai.replay.mcr import replay_mcr
from tenpai.rules.mcr.flow.round import MCRRound
from tenpai.search.mcr.agent import MCRSearchAgent
from tenpai.search.mcr.reading import WORLDS_MODES
from tenpai.search.mcr.settings import MCRSearchSettings
from tenpai.search.mcr.worlds import HiddenDraw, world_view

__all__ = ["Tally", "completes", "main", "measure_decision"]

#: Answers are kept within [CLIP, 1 − CLIP] for the log-loss (16 worlds can say 0 or 1).
CLIP = 0.01


def completes(hand: Sequence[int], kind: int) -> bool:
    """Whether concealed tiles ``hand`` plus one tile of ``kind`` are a complete MCR shape."""
    counts = T.counts34(hand)
    if counts[kind] >= 4:
        return False
    counts[kind] += 1
    return shanten_mcr(counts) == -1


def _answers(draws: Sequence[HiddenDraw], kinds: Sequence[int]) -> list[float]:
    """Per kind, the share of ``draws`` in which some opponent's hand is completed by it."""
    hits = [0] * len(kinds)
    for d in draws:
        for i, k in enumerate(kinds):
            hits[i] += any(completes(h, k) for h in d.hands.values())
    return [h / len(draws) for h in hits]


@dataclass(slots=True)
class Tally:
    """Scores by mode, and the per-decision differences grouped by wall."""

    brier: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    logloss: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    #: mode -> truth (0/1) -> answers
    answers: dict[str, dict[int, list[float]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(list)))
    #: mode -> wall -> per-decision (mode − uniform) Brier and log-loss
    diffs: dict[str, dict[int, list[tuple[float, float]]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(list)))
    decisions: int = 0
    no_evidence: int = 0


def measure_decision(table: MCRRound, seat: int, agents: dict[str, MCRSearchAgent],
                     wall: int, tally: Tally) -> None:
    """Score every mode's worlds at ``seat``'s discard decision on the live ``table``."""
    view = world_view(table, seat)
    kinds = sorted({T.kind_of(t) for t in table.hands[seat]})
    truth = [int(any(completes(table.hands[s], k) for s in view.others)) for k in kinds]
    weighted = agents["weighted"]
    assert weighted.reading is not None
    if weighted.reading.evidence(table._observe(seat).events, view.others).scored == 0:
        tally.no_evidence += 1
        return
    per_mode: dict[str, tuple[float, float]] = {}
    for mode, agent in agents.items():
        draws = [d for _seed, d in agent.hidden_draws(table, view)]
        got = _answers(draws, kinds)
        briers, losses = [], []
        for p, y in zip(got, truth):
            q = min(max(p, CLIP), 1 - CLIP)
            briers.append((p - y) ** 2)
            losses.append(-math.log(q if y else 1 - q))
            tally.answers[mode][y].append(p)
        tally.brier[mode].extend(briers)
        tally.logloss[mode].extend(losses)
        per_mode[mode] = (sum(briers) / len(briers), sum(losses) / len(losses))
    for mode in WORLDS_MODES[1:]:
        tally.diffs[mode][wall].append((per_mode[mode][0] - per_mode["uniform"][0],
                                        per_mode[mode][1] - per_mode["uniform"][1]))
    tally.decisions += 1


def _interval(per_wall: list[float]) -> str:
    n = len(per_wall)
    mean = sum(per_wall) / n
    if n < 2:
        return f"{mean:+.4f} (one wall: no interval)"
    sd = math.sqrt(sum((x - mean) ** 2 for x in per_wall) / (n - 1))
    half = student_t_ppf(0.975, n - 1) * sd / math.sqrt(n)
    return f"{mean:+.4f} [{mean - half:+.4f}, {mean + half:+.4f}] over {n} walls"


def report(tally: Tally) -> list[str]:
    """The printed lines (module docstring)."""
    out = [f"decisions scored: {tally.decisions} (and {tally.no_evidence} with no scored "
           "discard, left out)"]
    if not tally.decisions:
        return out
    for mode in WORLDS_MODES:
        b, ll = tally.brier[mode], tally.logloss[mode]
        yes, no = tally.answers[mode][1], tally.answers[mode][0]
        out.append(
            f"{mode:9s} Brier {sum(b) / len(b):.4f}  log-loss {sum(ll) / len(ll):.4f}  "
            f"mean answer where a wait {sum(yes) / max(len(yes), 1):.3f} ({len(yes)}), "
            f"where not {sum(no) / max(len(no), 1):.3f} ({len(no)})")
    for mode in WORLDS_MODES[1:]:
        diffs = tally.diffs[mode]
        for i, name in enumerate(("Brier", "log-loss")):
            per_wall = [sum(d[i] for d in diffs[w]) / len(diffs[w]) for w in sorted(diffs)]
            out.append(f"{mode} − uniform, {name} per decision: {_interval(per_wall)}")
    # each later mode against the one before it: (b − uniform) − (a − uniform), decision by
    # decision, so the pairing by wall holds
    for before, later in itertools.pairwise(WORLDS_MODES[2:]):
        da, db = tally.diffs[before], tally.diffs[later]
        for i, name in enumerate(("Brier", "log-loss")):
            per_wall = [sum(y[i] - x[i] for x, y in zip(da[w], db[w])) / len(db[w])
                        for w in sorted(db)]
            out.append(f"{later} − {before}, {name} per decision: {_interval(per_wall)}")
    return out


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dbs", nargs="+", help="results files of tenpai arena --rules mcr "
                    "--preset botzone")
    ap.add_argument("--seat-agent", default="planner",
                    help="the agent whose discard decisions are measured (default %(default)s)")
    ap.add_argument("--worlds", type=positive_int, default=16,
                    help="worlds of each set per decision (default %(default)s)")
    ap.add_argument("--pool", type=positive_int, default=4,
                    help="draws in the weighted and speed sets' pools per world, and the "
                    "history set's hands per opponent per world (default %(default)s)")
    ap.add_argument("--miss", type=positive_float, default=0.5,
                    help="the reading's ratio per step of shanten given away "
                    "(default %(default)s)")
    ap.add_argument("--seed", type=non_negative_int, default=0,
                    help="the worlds' seed (the agent's; default %(default)s)")
    args = ap.parse_args(argv)
    try:
        base = MCRSearchSettings(worlds=args.worlds, pool=args.pool, miss=args.miss,
                                 clock="cpu", budget_ms=1e9)
    except ValueError as exc:
        ap.error(str(exc).replace("TENPAI_SEARCH_MCR_", "--").lower())
    agents = {mode: MCRSearchAgent(replace(base, worlds_mode=mode), seed=args.seed)
              for mode in WORLDS_MODES}
    tally = Tally()
    played = 0
    for game in stored_games(args.dbs, "mcr_reading_calibration"):
        names = game.events[0].names
        mine = {s for s, n in enumerate(names) if n == args.seat_agent}
        if not mine:
            continue
        played += 1

        def observe(d: Decision, answer: Event, wall: int = game.deal,
                    mine: set[int] = mine) -> None:
            table = getattr(d.observation, "_table", None)
            if d.seat in mine and answer.type == "dahai" and isinstance(table, MCRRound):
                measure_decision(table, d.seat, agents, wall, tally)

        result = replay_mcr(game.events, complete=False, observe=observe,
                            name=f"deal {game.deal}, rotation {game.rotation}")
        if not result.ok:
            raise SystemExit(f"mcr_reading_calibration: {game.path}: {result.divergence}")
    if not played:
        ap.error(f"no stored game in {', '.join(args.dbs)} has a seat played by "
                 f"{args.seat_agent!r} (--seat-agent)")
    print("\n".join(report(tally)))


if __name__ == "__main__":
    main()
