"""Fit the race's survival from stored MCR games: when did another seat win, by our own draws?

``python -m tenpai.bench.mcr_race_survival RUN.db [--seat-agent planner]`` reads a results
file of ``tenpai arena --rules mcr --preset botzone`` (one hand a game) and, for each game,
the number of own draws the seat of ``--seat-agent`` had made when the hand ended and how it
ended: another seat won (an *event*: the hand died before that seat's next draw) or not (its
own win or a drawn hand: *censored*, the hand was on at least through that draw).  It prints

* the Kaplan-Meier table by own draw ``j``: hands at risk, hands another seat won, the hazard
  ``deaths / at risk`` and the survival ``Surv(j)``;
* the one-parameter rising hazard ``min(1, a · j)`` fitted by maximum likelihood over the
  same events and censorings, its log-likelihood beside the table's and the survival it
  implies next to the table's (the alternative to shipping the table);
* the table as the constant the planner ships
  (:data:`tenpai.rules.mcr.plan.race.BOTS_SURVIVAL`), ``Surv(0) = 1`` first, up to the last
  draw some hand survived (the planner keeps the last figure past the table's end).

The likelihood is concave in ``a`` (a sum of ``log(a·j)`` and ``log(1 − a·j)``), so a
ternary search on ``[0, 1/j_max)`` finds its maximum.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from tenpai.bench.mcr_replay import StoredGame, TableReplay, one_hand_seating, stored_run
from tenpai.bench.run_report_cli import print_report, run_report_parser

__all__ = ["HandEnd", "SurvivalError", "fit_hazard", "kaplan_meier", "log_likelihood", "main",
           "read_ends", "report"]


@dataclass(frozen=True, slots=True)
class HandEnd:
    """One hand from the seat's side: own draws made when it ended, and whether another seat
    won it (else the seat won, or the hand was drawn)."""

    draws: int
    other_won: bool


class SurvivalError(ValueError):
    """The results file cannot be read for the fit; the message names the file."""


def _game_end(path: str, game: StoredGame, seats: dict[int, str], seat_agent: str) -> HandEnd:
    """The end of one stored one-hand game from the seat of ``seat_agent`` (``seats``: the
    game's agents by seat)."""
    where, player = one_hand_seating(path, game, SurvivalError, "the fit")
    ours = [pos for pos in range(4) if seats.get(player[pos]) == seat_agent]
    if len(ours) != 1:
        raise SurvivalError(f"{where} has {len(ours)} seats of {seat_agent!r}; expected one")
    table = TableReplay()
    end = table.play_to_end(game.events)
    if end is None:
        raise SurvivalError(f"{where} has no hora or ryukyoku")
    other_won = end.type == "hora" and end.actor != ours[0]
    return HandEnd(table.draws[ours[0]], other_won)


def read_ends(path: str, seat_agent: str) -> list[HandEnd]:
    """Every stored game's end from the seat of ``seat_agent`` (one such seat a game)."""
    with stored_run(path, SurvivalError) as run:
        agents = {key: {r.seat: r.agent for r in rows} for key, rows in run.seats.items()}
        out = [_game_end(path, game, agents.get((game.deal, game.rotation), {}), seat_agent)
               for game in run.games()]
    if not out:
        raise SurvivalError(f"{path}: no stored game events to read")
    return out


def _death(h: HandEnd) -> int:
    """The own draw the hand did not reach (another seat won before it)."""
    return h.draws + 1


def kaplan_meier(ends: Sequence[HandEnd]) -> list[tuple[int, int, int, float, float]]:
    """``(j, at risk, deaths, hazard, Surv(j))`` for j = 1 … the last draw any hand reached or
    died before: a hand is at risk at ``j`` if it was on after draw ``j − 1`` and not censored
    before ``j``; it dies at ``j`` when another seat won between draws ``j − 1`` and ``j``."""
    last = max(_death(h) if h.other_won else h.draws for h in ends)
    rows = []
    s = 1.0
    for j in range(1, last + 1):
        risk = sum(1 for h in ends if (_death(h) if h.other_won else h.draws) >= j)
        deaths = sum(1 for h in ends if h.other_won and _death(h) == j)
        hazard = deaths / risk if risk else 0.0
        s *= 1.0 - hazard
        rows.append((j, risk, deaths, hazard, s))
    return rows


def log_likelihood(ends: Sequence[HandEnd], a: float) -> float:
    """Log-likelihood of the hazard ``min(1, a · j)`` (−inf where an observed hand is
    impossible)."""
    total = 0.0
    for h in ends:
        survived = h.draws
        for j in range(1, survived + 1):
            q = 1.0 - min(1.0, a * j)
            if q <= 0.0:
                return -math.inf
            total += math.log(q)
        if h.other_won:
            p = min(1.0, a * _death(h))
            if p <= 0.0:
                return -math.inf
            total += math.log(p)
    return total


def fit_hazard(ends: Sequence[HandEnd], steps: int = 200) -> float:
    """The maximum-likelihood ``a`` of the hazard ``min(1, a · j)`` (0 when no hand was won by
    another seat)."""
    if not any(h.other_won for h in ends):
        return 0.0
    top = max(max(h.draws for h in ends), 1)
    lo, hi = 0.0, 1.0 / top
    for _ in range(steps):
        m1, m2 = lo + (hi - lo) / 3, hi - (hi - lo) / 3
        if log_likelihood(ends, m1) < log_likelihood(ends, m2):
            lo = m1
        else:
            hi = m2
    return (lo + hi) / 2


def _table_log_likelihood(ends: Sequence[HandEnd],
                          rows: Sequence[tuple[int, int, int, float, float]]) -> float:
    """The log-likelihood of the Kaplan-Meier hazards themselves (one parameter a draw)."""
    total = 0.0
    for _j, risk, deaths, hazard, _s in rows:
        if deaths:
            total += deaths * math.log(hazard)
        if risk - deaths and hazard < 1.0:
            total += (risk - deaths) * math.log(1.0 - hazard)
    return total


def report(ends: Sequence[HandEnd]) -> list[str]:
    rows = kaplan_meier(ends)
    a = fit_hazard(ends)
    events = sum(1 for h in ends if h.other_won)
    lines = [f"{len(ends)} hands, {events} won by another seat, {len(ends) - events} censored "
             "(own win or drawn hand)",
             "draw  at risk  deaths  hazard  Surv(table)  hazard(fit)  Surv(fit)"]
    s_fit = 1.0
    for j, risk, deaths, hazard, s in rows:
        h_fit = min(1.0, a * j)
        s_fit *= 1.0 - h_fit
        lines.append(f"{j:4d}  {risk:7d}  {deaths:6d}  {hazard:6.3f}  {s:11.3f}  "
                     f"{h_fit:11.3f}  {s_fit:9.3f}")
    used = sum(1 for r in rows if r[2])
    lines.append(f"log-likelihood: table {_table_log_likelihood(ends, rows):.2f} "
                 f"({used} hazards above 0), one-parameter fit {log_likelihood(ends, a):.2f}")
    lines.append(f"one-parameter hazard a = {a:.5f}")
    # the planner divides by Surv(d): the table stops before a draw no hand survived, and
    # later draws keep its last figure (there are no data past it)
    kept = [r[4] for r in rows if round(r[4], 3) > 0.0]
    lines.append("BOTS_SURVIVAL = (1.0, " + ", ".join(f"{v:.3f}" for v in kept) + ")")
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    ap = run_report_parser(
        __doc__, "the agent whose own draws the hands are counted in (default planner)")
    args = ap.parse_args(argv)
    print_report("mcr_race_survival", SurvivalError,
                 lambda: report(read_ends(args.db, args.seat_agent)))


if __name__ == "__main__":
    main()
