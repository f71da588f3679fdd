"""Where a Botzone score comes from: an MCR arena run split by the way each hand ended.

``python -m tenpai.bench.mcr_score_breakdown RUN.db [--seat-agent planner]`` reads a results
file of ``tenpai arena --rules mcr --preset botzone`` (one hand a game) and splits every seat's
score per game into its sources:

* its own self-drawn wins (each opponent pays 8 + fans) and its own discard wins (the
  discarder pays 8 + fans, the others 8);
* dealing in (paying 8 + fans);
* another seat's self-drawn win (paying 8 + fans) and another's win off a third seat (8);
* drawn hands (0); whatever the stored score holds beyond the hand's payments is shown as
  *other* (0 when the arena's score is the hand's payments);
* in a run with ``--seat-errors forfeit``, a game a Botzone seat's error ended (the stored
  ``penalty`` ending): its own forfeit (−30) for the offender, another's forfeit (+10) for the
  others — their own sources, so the paired difference shows what the bots' errors gave us.
  Such a hand never ended in play: it has no fans and no end state.

Per kind of seat (``--seat-agent`` and the rest) it prints how often each source happened,
its points per game and the mean fans of the wins behind it; then the paired difference
``seat-agent − the others`` (the arena's measure: per wall, the mean of our seat-games minus
the mean of theirs) split the same way, each part with its 95 % interval, the parts summing
to the total; then, from the replayed events, how far each kind got: the share of hands it
was ever ready with a win of 8 fans or more on a discard, the draw it first got there, and
where its hand stood when a hand ended without its win (drawn, or another seat won).

``--against BASE.db [--base-agent planner]`` pairs the run with another run of the same walls
(the same seed; other walls are refused): per wall, (ours − the others) here minus the same in
the base run, in total and per source, with a 95 % t interval over the walls — how a lever
moved each source, game by game.  Only walls whose seat-games both runs played in full are
paired (a run stopped at a fixed time ends part-way through a wall).

Development tool for issue 43's target against the greedy Botzone bots: it says which source
a lever should move (docs/mcr_strength.md).
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from tenpai.arena.distributions import student_t_ppf
from tenpai.arena.store import SeatRow
from tenpai.bench.mcr_danger_calibration import winning_kinds
from tenpai.bench.mcr_replay import StoredGame, TableReplay, one_hand_seating, stored_run
from tenpai.bench.run_report_cli import print_report, refuse_other_walls, run_report_parser
from tenpai.events import Event
from tenpai.hand import shanten_mcr

__all__ = ["END_STATES", "SOURCES", "SeatHand", "compare", "main", "read_run", "report"]

#: The sources of a seat's score, in the order printed.
SOURCES = ("own self-draw win", "own discard win", "dealt in", "another's self-draw",
           "another's win off a third seat", "drawn hand", "own forfeit", "another's forfeit",
           "other")

#: Where a seat's hand stood when the hand ended without its win.
END_STATES = ("ready, 8+ fans on a discard", "ready, under 8 fans", "one away", "two or more away")


@dataclass(frozen=True, slots=True)
class SeatHand:
    """One seat of one stored one-hand game: its score, the source of that score, the fans
    of the win that decided it (``None`` for a drawn hand), the draw at which the seat first
    held a hand ready with a discard win of 8 fans or more (``None``: never), and, when the
    seat did not win, where its hand stood at the end (an entry of :data:`END_STATES`)."""

    row: SeatRow
    source: str
    delta: int
    fans: int | None
    ready_draw: int | None
    end_state: str | None


class BreakdownError(ValueError):
    """The results file cannot be broken down; the message names the file and the game."""


def _end_state(table: TableReplay, seat: int) -> str:
    counts = table.counts[seat]
    sh = shanten_mcr(counts)
    if sh > 0:
        return END_STATES[2] if sh == 1 else END_STATES[3]
    wins = winning_kinds(counts, tuple(table.melds[seat]), table.seat_wind(seat),
                         table.prevalent)
    return END_STATES[0] if wins else END_STATES[1]


def _ready_with_eight(table: TableReplay, seat: int) -> bool:
    counts = table.counts[seat]
    return shanten_mcr(counts) == 0 and bool(
        winning_kinds(counts, tuple(table.melds[seat]), table.seat_wind(seat), table.prevalent))


def _game_hands(path: str, game: StoredGame, rows: list[SeatRow]) -> list[SeatHand]:
    """The four :class:`SeatHand` of one game, from its events and its stored seats."""
    where, player = one_hand_seating(path, game, BreakdownError, "the breakdown")
    table = TableReplay()
    ready_draw: dict[int, int] = {}

    def note_ready(e: Event) -> None:
        if e.type == "dahai" and e.actor is not None and e.actor not in ready_draw \
                and _ready_with_eight(table, e.actor):
            ready_draw[e.actor] = table.draws[e.actor]

    end = table.play_to_end(game.events, note_ready)
    by_player = {r.seat: r for r in rows}
    if end is None:
        raise BreakdownError(f"{where} has no hora or ryukyoku")
    deltas = list(end.deltas) if end.deltas else [0, 0, 0, 0]
    if end.type == "ryukyoku" and end.kind == "penalty" and end.actor is not None:
        return [SeatHand(by_player[player[pos]],
                         "own forfeit" if pos == end.actor else "another's forfeit",
                         deltas[pos], None, ready_draw.get(pos), None)
                for pos in range(4)]
    winner = end.actor if end.type == "hora" else None
    self_drawn = winner is not None and (end.target is None or end.target == winner)
    out: list[SeatHand] = []
    for pos in range(4):
        r = by_player[player[pos]]
        if winner is None:
            source = "drawn hand"
        elif pos == winner:
            source = "own self-draw win" if self_drawn else "own discard win"
        elif self_drawn:
            source = "another's self-draw"
        elif pos == end.target:
            source = "dealt in"
        else:
            source = "another's win off a third seat"
        end_state = None if pos == winner else _end_state(table, pos)
        out.append(SeatHand(r, source, deltas[pos], end.han if winner is not None else None,
                            ready_draw.get(pos), end_state))
    return out


def read_run(path: str) -> list[SeatHand]:
    """Every seat of every stored game of a results file (games without stored events are
    left out; a file without any is an error)."""
    hands: list[SeatHand] = []
    with stored_run(path, BreakdownError) as run:
        for game in run.games():
            rows = run.seats.get((game.deal, game.rotation))
            if rows is None or len(rows) != 4:
                raise BreakdownError(f"{path}: game (deal {game.deal}, rotation "
                                     f"{game.rotation}) has events but not four stored seats")
            hands.extend(_game_hands(path, game, rows))
    if not hands:
        raise BreakdownError(f"{path}: no stored game events to read")
    return hands


def _with_source(h: SeatHand, source: str) -> SeatRow:
    """The seat's row with its score replaced by the points it got from ``source``."""
    if source == "other":
        value = h.row.score - h.delta
    else:
        value = h.delta if h.source == source else 0
    return dataclasses.replace(h.row, score=value)


def _kind_table(label: str, hands: list[SeatHand]) -> list[str]:
    n = len(hands)
    total = sum(h.row.score for h in hands)
    lines = [f"{label}: {n} seat-games, score per game {total / n:+.2f}",
             f"  {'source':<31} {'share':>6} {'points/game':>11} {'mean fans':>9}"]
    for source in SOURCES:
        if source == "other":
            pts = sum(h.row.score - h.delta for h in hands)
            lines.append(f"  {source:<31} {'':>6} {pts / n:>+11.2f}")
            continue
        hit = [h for h in hands if h.source == source]
        pts = sum(h.delta for h in hit)
        fans = [h.fans for h in hit if h.fans is not None]
        mean_fans = f"{sum(fans) / len(fans):9.1f}" if fans else f"{'-':>9}"
        lines.append(f"  {source:<31} {len(hit) / n:6.1%} {pts / n:>+11.2f} {mean_fans}")
    ready = [h.ready_draw for h in hands if h.ready_draw is not None]
    won = [h for h in hands if h.source in SOURCES[:2]]
    won_ready = sum(1 for h in hands if h.ready_draw is not None and h.source in SOURCES[:2])
    lines.append(f"  ever ready with an 8-fan discard win: {len(ready) / n:.1%} of hands"
                 + (f", first at draw {sum(ready) / len(ready):.1f} on average" if ready else "")
                 + (f"; won {won_ready / len(ready):.1%} of those" if ready else "")
                 + f"; wins {len(won) / n:.1%} of hands")
    for outcome, drawn in (("drawn hands", True), ("hands another seat won", False)):
        sel = [h for h in hands if h.end_state is not None
               and h.source not in SOURCES[:2] and (h.source == "drawn hand") == drawn]
        if not sel:
            continue
        cells = ", ".join(f"{state} {sum(1 for h in sel if h.end_state == state) / len(sel):.1%}"
                          for state in END_STATES)
        lines.append(f"  at the end of {outcome} ({len(sel)}): {cells}")
    return lines


def report(hands: list[SeatHand], seat_agent: str) -> list[str]:
    """The printed breakdown (see the module docstring)."""
    mine = [h for h in hands if h.row.agent == seat_agent]
    if not mine:
        raise BreakdownError(f"--seat-agent {seat_agent!r} plays no seat of this run "
                             f"(agents: {', '.join(sorted({h.row.agent for h in hands}))})")
    others = sorted({h.row.agent for h in hands} - {seat_agent})
    lines = _kind_table(seat_agent, mine)
    for other in others:
        lines += _kind_table(other, [h for h in hands if h.row.agent == other])
    games = _seat_games(hands, seat_agent)
    whole = _whole_walls(games)
    partial = len(games) - len(whole)
    skipped = f", {partial} played only in part left out" if partial else ""
    for other in others:
        total = _per_wall(hands, seat_agent, None, other)
        walls = sorted(set(total) & whole)
        lines.append(f"paired by wall ({len(walls)} walls{skipped}), {seat_agent} − {other}, "
                     f"points per game: {_interval([total[d] for d in walls]).strip()}")
        for source in SOURCES:
            part = _per_wall(hands, seat_agent, source, other)
            lines.append(f"  {source:<31} {_interval([part[d] for d in walls if d in part])}")
    return lines


def _whole_walls(games: dict[int, set[tuple[int, int]]]) -> set[int]:
    """The walls on which an agent played as many seat-games as on its fullest one (``games``:
    its :func:`_seat_games`).  A run stopped part-way through a wall holds only some of its
    rotations there, and that wall's mean would rest on those seats alone (the per-game
    tables above still count them)."""
    most = max((len(g) for g in games.values()), default=0)
    return {d for d, g in games.items() if len(g) == most}


def _per_wall(hands: list[SeatHand], seat_agent: str, source: str | None,
              other: str | None = None) -> dict[int, float]:
    """Per wall (deal): the mean of ``seat_agent``'s seat-games minus the mean of ``other``'s
    (every other seat's when None), on the whole score (``source`` None) or on one source's
    points: the arena's paired score difference (``paired_tests``' ``score_diff``)."""
    ours: defaultdict[int, list[float]] = defaultdict(list)
    theirs: defaultdict[int, list[float]] = defaultdict(list)
    for h in hands:
        value = float(h.row.score if source is None else _with_source(h, source).score)
        if h.row.agent == seat_agent:
            ours[h.row.deal].append(value)
        elif other is None or h.row.agent == other:
            theirs[h.row.deal].append(value)
    return {d: sum(v) / len(v) - sum(theirs[d]) / len(theirs[d])
            for d, v in ours.items() if theirs[d]}


def _seat_games(hands: list[SeatHand], agent: str) -> dict[int, set[tuple[int, int]]]:
    """Per wall, the (rotation, seat) of every seat-game ``agent`` played there."""
    games: defaultdict[int, set[tuple[int, int]]] = defaultdict(set)
    for h in hands:
        if h.row.agent == agent:
            games[h.row.deal].add((h.row.rotation, h.row.seat))
    return games


def _same_games(ours: dict[int, set[tuple[int, int]]],
                theirs: dict[int, set[tuple[int, int]]]) -> set[int]:
    """The walls on which the two agents played the same seat-games (:func:`_seat_games` of
    each run).  A run stopped before its end may hold some of a wall's games only; compared
    with all of them in the base run, that wall's mean would rest on other seats and
    rotations, so it is left out."""
    return {d for d, games in ours.items() if theirs.get(d) == games}


def _interval(values: list[float]) -> str:
    """The mean with its 95 % Student-t interval (the mean alone for one value)."""
    n = len(values)
    if n == 0:
        return "no wall in common"
    mean = sum(values) / n
    if n < 2:
        return f"{mean:+7.2f}"
    sd = (sum((v - mean) ** 2 for v in values) / (n - 1)) ** 0.5
    half = student_t_ppf(0.975, n - 1) * sd / n ** 0.5
    return f"{mean:+7.2f} [{mean - half:+.2f}, {mean + half:+.2f}]"


def compare(hands: list[SeatHand], seat_agent: str, base: list[SeatHand],
            base_agent: str) -> list[str]:
    """This run against a run of the same walls (``base``): per wall, (ours − the others)
    here minus the same there, on the whole score and on each source, with a 95 % t
    interval over the walls both runs played."""
    for agent, run in ((seat_agent, hands), (base_agent, base)):
        if not any(h.row.agent == agent for h in run):
            raise BreakdownError(f"{agent!r} plays no seat of its run")
    ours = {(h.row.deal, h.row.rotation, h.row.seat): h for h in hands}
    changed = 0
    for h in base:
        other = ours.get((h.row.deal, h.row.rotation, h.row.seat))
        if h.row.agent == base_agent and other is not None and other.row.score != h.row.score:
            changed += 1
    ours_games, base_games = _seat_games(hands, seat_agent), _seat_games(base, base_agent)
    same = _same_games(ours_games, base_games)
    left_out = len(ours_games.keys() | base_games.keys()) - len(same)
    lines: list[str] = []
    for source in (None, *SOURCES):
        here = _per_wall(hands, seat_agent, source)
        there = _per_wall(base, base_agent, source)
        walls = sorted(set(here) & set(there) & same)
        if not walls:
            raise BreakdownError("the two runs share no wall")
        diffs = [here[d] - there[d] for d in walls]
        if source is None:
            skipped = f", {left_out} played in only one run or only in part left out" \
                if left_out else ""
            lines.append(f"{seat_agent} here − {base_agent} in the base run, paired by wall "
                         f"({len(walls)} walls{skipped}; {changed} games with another result "
                         f"for our seat), points per game: {_interval(diffs).strip()}")
        else:
            lines.append(f"  {source:<31} {_interval(diffs)}")
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    ap = run_report_parser(
        __doc__, "the agent whose seats are compared with the others (default planner)")
    ap.add_argument("--against", metavar="BASE.db",
                    help="a run of the same walls to pair with, game by game")
    ap.add_argument("--base-agent", default="planner",
                    help="the agent in --against's run compared with --seat-agent (planner)")
    args = ap.parse_args(argv)

    def lines() -> list[str]:
        hands = read_run(args.db)
        out = report(hands, args.seat_agent)
        if args.against is not None:
            base = read_run(args.against)
            refuse_other_walls(args.db, args.against, BreakdownError)
            out += compare(hands, args.seat_agent, base, args.base_agent)
        return out

    print_report("mcr_score_breakdown", BreakdownError, lines)


if __name__ == "__main__":
    main()
