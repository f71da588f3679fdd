"""Where a Riichi seat's points go: a four-player arena run split into point flows and play figures.

``python -m tenpai.bench.riichi_point_flow RUN.db [RUN2.db ...] [--seat-agent search]
[--against BASE.db [--base-agent NAME]] [--json]`` reads the stored events of one or more
results files of ``tenpai arena --rules riichi`` (several are pooled, e.g. two seeds of the same
line-up) and compares the ``--seat-agent`` seats with the other seats of the same games:

* placement, and the score change split into its sources, per game and per hand: own ron and
  tsumo wins, deal-ins by the winner's line (riichi, dama, open), others' tsumo, payments as the
  liable seat of a pao yakuman, exhaustive-draw payments, riichi sticks put down / collected /
  left at the end, honba; the parts sum exactly
  to each seat's score change (checked on every seat-game);
* the win side (rate, points, han, line), riichi and its outcome, calls, tenpai timing;
* defence: deal-ins by situation (forced by own riichi, on the declaration tile, free; under a
  riichi threat, holding safe tiles), discards under another's riichi;
* the same flows before the game's last hand and in it, net points by round, placement by the
  standing before the last hand.

Each figure is a ratio pooled over the games (a sum over a sum); the difference ours − others
has a 95 % Student-t interval over the deals (the deal's rotations are one unit): the deals'
linearised residuals ``z_d = (num_d − R den_d) / mean(den_d)``, ours minus others per deal.
With several files, the pooled report comes first, then each file's own.

``--against BASE.db`` pairs this run (one file) with a run of the same seed (the same deals;
other walls are refused) by deal: for every figure, ``--seat-agent`` here (B) minus
``--base-agent`` there (A), the residuals of each arm's seats per deal differenced, with a 95 %
t interval over the deals both hold: how a lever moved each figure, deal by deal.

Development tool for issue 38 (docs/search_runs.md, "Where the points go against mjai-manue").
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from tenpai.arena.distributions import student_t_ppf
from tenpai.bench.riichi_tallies import FLOWS, PointFlowError, SeatGame, read_runs
from tenpai.bench.run_report_cli import print_report, refuse_other_walls, run_report_parser

__all__ = ["SECTIONS", "Count", "Figure", "Paired", "PairedRow", "Row", "Split", "compare", "main",
           "paired_by_deal", "paired_rows", "report", "report_rows", "split_by_kind"]


@dataclass(frozen=True, slots=True)
class Figure:
    """A pooled ratio: the sum of the tally keys ``num`` over the sum of ``den`` (a key written
    with a leading ``-`` is subtracted), printed with ``digits`` decimals (``-1``: whole
    points with thousands separators) after multiplying by ``scale``."""

    label: str
    num: tuple[str, ...]
    den: tuple[str, ...]
    digits: int = 3
    scale: float = 1.0


@dataclass(frozen=True, slots=True)
class Count:
    """A plain count of tally ``key`` per kind of seat (too few for a ratio worth an interval)."""

    label: str
    key: str


def _fig(label: str, num: str | tuple[str, ...], den: str | tuple[str, ...], digits: int = 3,
         scale: float = 1.0) -> Figure:
    return Figure(label, (num,) if isinstance(num, str) else num,
                  (den,) if isinstance(den, str) else den, digits, scale)


def _pts(label: str, num: str | tuple[str, ...], den: str = "games") -> Figure:
    return _fig(label, num, den, -1)


_DEALT_IN = ("f_di_riichi", "f_di_dama", "f_di_open")
_STICKS = ("f_riichi_paid", "f_sticks_won", "f_sticks_end")
_FLOW_KEYS = tuple(k for k, _ in FLOWS)
#: The flows not shown per hand (sticks and honba follow the game's course, not a hand's).
_PER_GAME_ONLY = (*_STICKS, "f_honba")


def _before_and_in_last_hand() -> list[Figure | Count]:
    rows: list[Figure | Count] = []
    for key, label in FLOWS:
        rows.append(_pts(f"pre  {label}", (key, f"-L_{key}")))
        rows.append(_pts(f"last {label}", f"L_{key}"))
    for key, label in (("di", "deal-ins"), ("wins", "wins"), ("riichi", "riichi"),
                       ("calls", "hands opened")):
        rows.append(_fig(f"pre  {label} / hand", (key, f"-L_{key}"), ("hands", "-L_hands")))
        rows.append(_fig(f"last {label} / hand", f"L_{key}", "L_hands"))
    return rows


#: The rows of the report by section (the figures of the session-29 analysis, in its order).
_ROWS: list[tuple[str, list[Figure | Count]]] = [
    ("placement", [
        _fig("average rank", "rank_sum", "games"),
        *(_fig(f"share of rank {k}", f"rank{k}", "games") for k in range(1, 5)),
        _pts("final score change (points/game)", "score"),
    ]),
    ("point flows, points per game (sum = score change)", [
        *(_pts(label, key) for key, label in FLOWS),
        _pts("  all deal-ins", _DEALT_IN),
        _pts("  riichi sticks net", _STICKS),
        _pts("  sum of the parts", _FLOW_KEYS),
    ]),
    ("point flows, points per hand", [
        _fig("hands per game", "hands", "games", 2),
        *(_pts(label, key, "hands") for key, label in FLOWS if key not in _PER_GAME_ONLY),
    ]),
    ("win side (per hand unless said)", [
        _fig("win rate", "wins", "hands"),
        _fig("  ron wins / hand", "win_ron", "hands"),
        _fig("  tsumo wins / hand", "win_tsumo", "hands"),
        _pts("average base points of a win", "win_pts", "wins"),
        _fig("average han of a win", "win_han_sum", "wins", 2),
        *(_fig(f"  share of wins with {h} han", f"win_han{h}", "wins")
          for h in ("1", "2", "3", "4", "5p")),
        *(row for wk in ("riichi", "dama", "open") for row in (
            _fig(f"{wk} wins / hand", f"win_{wk}", "hands"),
            _pts(f"  average points of a {wk} win", f"win_{wk}_pts", f"win_{wk}"))),
        _fig("riichi rate (accepted / hand)", "riichi", "hands"),
        _fig("  own discards before riichi (mean turn)", "riichi_turn_sum", "riichi", 2),
        *(_fig(f"  riichi outcome: {oc}", f"r_{oc}", "riichi")
          for oc in ("won", "dealin", "draw", "otherwin", "abort")),
        _fig("hands with a call / hand", "calls", "hands"),
        _fig("reached tenpai (shanten 0) / hand", "tp_hands", "hands"),
        _fig("  tenpai by own 6th discard / hand", "tp_by6", "hands"),
        _fig("  tenpai by own 9th discard / hand", "tp_by9", "hands"),
        _fig("  turn of first tenpai (own discards)", "tp_turn_sum", "tp_hands", 2),
        _fig("tenpai at exhaustive draw / drawn hand", "draw_tenpai", "draw_hands"),
    ]),
    ("defence side", [
        _fig("deal-in rate (deal-ins / hand)", "di", "hands"),
        *(_fig(f"  into {k} / hand", f"di_{k}", "hands") for k in ("riichi", "dama", "open")),
        _fig("average base points of a deal-in", _DEALT_IN, "di", -1, -1.0),
        Count("deal-ins: own riichi (forced) count", "di_own_riichi"),
        Count("deal-ins: on the riichi declaration tile", "di_declaring"),
        Count("deal-ins: chankan", "di_chankan"),
        Count("deal-ins: free choices", "di_free"),
        _fig("free deal-ins with 14-tile shanten 0 / hand", "di_free_sh0", "hands"),
        _fig("free deal-ins with shanten 1 / hand", "di_free_sh1", "hands"),
        _fig("free deal-ins with shanten >= 2 / hand", "di_free_sh2p", "hands"),
        _pts("  points lost to them per game", "di_free_sh2p_pts"),
        _fig("discards under an opponent's riichi / hand", "thr_disc", "hands"),
        _fig("  deal-in rate per threatened discard", "di_thr", "thr_disc"),
        _fig("  had a tile safe vs every riichi / thr. disc.", "thr_had_safe", "thr_disc"),
        _fig("  discarded a safe tile / thr. disc.", "thr_safe_disc", "thr_disc"),
        _fig("  unsafe discard although holding safe", "thr_unsafe_with_safe", "thr_disc"),
        _fig("  same, with shanten >= 2 (/ far thr. disc.)", "thr_far_unsafe_with_safe",
             "thr_far_disc"),
        _fig("  far (shanten >= 2) thr. discards / hand", "thr_far_disc", "hands"),
        _fig("deal-ins under riichi threat / hand", "di_thr", "hands"),
        _pts("  points lost to them per game", "di_thr_pts"),
        Count("  count", "di_thr"),
        Count("  into the riichi player", "di_thr_into_riichi"),
        Count("    ... holding a genbutsu/passed tile vs it", "di_thr_had_safe_vs_winner"),
        Count("  holding a tile safe vs every riichi", "di_thr_had_allsafe"),
        Count("    ... and not tenpai", "di_thr_had_allsafe_not_tenpai"),
        Count("  with shanten >= 2", "di_thr_far"),
        _fig("deal-ins without a riichi threat / hand", "di_nothr", "hands"),
        _pts("  points lost to them per game", "di_nothr_pts"),
        Count("  count", "di_nothr"),
        Count("  with shanten >= 2", "di_nothr_sh2p"),
    ]),
    ("net points per hand by own line (sticks put down included)", [
        _pts("net points per hand (all)", "hand_pts", "hands"),
        *(row for ln in ("riichi", "open", "closed") for row in (
            _fig(f"share of hands: {ln}", f"line_{ln}", "hands"),
            _pts(f"  net points per {ln} hand", f"line_{ln}_pts", f"line_{ln}"))),
        _pts("dealer hands: net points per game", "dealer_pts"),
        _pts("non-dealer hands: net points per game", "nondealer_pts"),
    ]),
    ("hands facing another seat's riichi (not in riichi when it was accepted)", [
        _fig("share of hands", "faced", "hands"),
        _pts("  net points per such hand", "faced_pts", "faced"),
        _pts("  net points per game from them", "faced_pts"),
        _fig("  won the hand", "faced_won", "faced"),
        _fig("  dealt in", "faced_dealt", "faced"),
        _fig("  a riichi player won", "faced_other_riichi_won", "faced"),
    ]),
    ("share of opponents' ron wins paid by this seat (1/3 = neutral)", [
        row for wk in ("riichi", "dama", "open") for row in (
            _fig(f"  opponents' {wk} ron wins paid", f"opp_ron_{wk}_mine", f"opp_ron_{wk}"),
            _fig(f"  opponents' {wk} ron wins / hand", f"opp_ron_{wk}", "hands"),
            _fig(f"  opponents' {wk} tsumo wins / hand", f"opp_tsumo_{wk}", "hands"))
    ]),
    ("hand speed: shanten after own n-th discard, no opponent riichi yet (closed part)", [
        row for n in (3, 6, 9) for row in (
            _fig(f"  mean shanten after discard {n}", f"sh_at{n}_sum", f"sh_at{n}_n"),
            _fig("    share of those hands opened by then", f"sh_at{n}_open", f"sh_at{n}_n"))
    ]),
    ("deal-ins into open hands by the winner's calls", [
        _fig(f"  winner with {m}{'+' if m == 3 else ''} calls / hand", f"di_open_m{m}", "hands")
        for m in (1, 2, 3)
    ]),
    ("before and in the game's last hand", [
        _pts("score change before the last hand /game", "pre_last_pts"),
        _pts("points in the last hand (incl. leftover) /game", "last_pts"),
        _fig("standing before the last hand (mean)", "pre_last_standing_sum", "games"),
    ]),
    ("point flows before the last hand | in the last hand, points per game",
     _before_and_in_last_hand()),
    ("net points by round (hands incl. repeats), per game", [
        _pts(f"  {name} hands: net points per game", f"k{k}_pts")
        for k, name in enumerate(("E1", "E2", "E3", "E4", "S+"))
    ]),
    ("placement by standing before the game's last hand", [
        row for p in range(1, 5) for row in (
            _fig(f"standing {p}: share of games", f"pre{p}", "games"),
            _fig(f"  final rank when standing {p}", f"pre{p}_rank_sum", f"pre{p}", 2),
            _fig(f"  finished 4th when standing {p}", f"pre{p}_to4", f"pre{p}"))
    ]),
]

#: The report: sections of figures and counts, in the order printed.
SECTIONS: tuple[tuple[str, tuple[Figure | Count, ...]], ...] = tuple(
    (title, tuple(rows)) for title, rows in _ROWS)


def _total(s: SeatGame, keys: tuple[str, ...]) -> float:
    return float(sum(-s.tally[k[1:]] if k.startswith("-") else s.tally[k] for k in keys))


def _half_width(values: list[float]) -> float | None:
    """The half-width of the 95 % Student-t interval of the mean of ``values`` (None for
    fewer than two)."""
    n = len(values)
    if n < 2:
        return None
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return student_t_ppf(0.975, n - 1) * sd / math.sqrt(n)


def _ratio(sums: dict[tuple[int, int], list[float]]) -> float | None:
    num = sum(v[0] for v in sums.values())
    den = sum(v[1] for v in sums.values())
    return num / den if den else None


def _residuals(sums: dict[tuple[int, int], list[float]], ratio: float | None
               ) -> dict[tuple[int, int], float]:
    """Each deal's linearised residual of the pooled ratio, ``(num_d − R den_d) / mean(den)``
    (all zero when the ratio is undefined: the deal adds nothing to the interval)."""
    mean_den = sum(v[1] for v in sums.values()) / len(sums) if sums else 0.0
    if ratio is None or not mean_den:
        return {d: 0.0 for d in sums}
    return {d: (v[0] - ratio * v[1]) / mean_den for d, v in sums.items()}


def _deal_sums(seats: list[SeatGame], fig: Figure) -> dict[tuple[int, int], list[float]]:
    """Per deal (results file, deal): the figure's numerator and denominator summed."""
    sums: defaultdict[tuple[int, int], list[float]] = defaultdict(lambda: [0.0, 0.0])
    for s in seats:
        acc = sums[(s.run, s.deal)]
        acc[0] += _total(s, fig.num)
        acc[1] += _total(s, fig.den)
    return dict(sums)


@dataclass(frozen=True, slots=True)
class Split:
    """A figure for ours and the others, their difference and its 95 % half-width (None when
    undefined: a ratio over nothing, or a single deal)."""

    ours: float | None
    others: float | None
    diff: float | None
    half: float | None


def split_by_kind(ours: list[SeatGame], others: list[SeatGame], fig: Figure) -> Split:
    """The figure pooled over our seats and over the others', and ours − others with its
    interval over the deals (per deal, our residual minus theirs)."""
    mine, theirs = _deal_sums(ours, fig), _deal_sums(others, fig)
    deals = sorted(set(mine) | set(theirs))
    for sums in (mine, theirs):
        for d in deals:
            sums.setdefault(d, [0.0, 0.0])
    r_ours, r_others = _ratio(mine), _ratio(theirs)
    z_ours, z_others = _residuals(mine, r_ours), _residuals(theirs, r_others)
    if r_ours is None or r_others is None:
        return Split(r_ours, r_others, None, None)
    half = _half_width([z_ours[d] - z_others[d] for d in deals])
    return Split(r_ours, r_others, r_ours - r_others, half)


@dataclass(frozen=True, slots=True)
class Paired:
    """A figure in the base run (A) and in this run (B), B − A and its 95 % half-width over the
    deals both runs hold, and how many deals that is."""

    base: float | None
    here: float | None
    diff: float | None
    half: float | None
    deals: int


def paired_by_deal(here: list[SeatGame], base: list[SeatGame], fig: Figure) -> Paired:
    """B − A for one figure over the deals both runs hold: each arm's pooled ratio on those
    deals, and per deal the difference of the arms' residuals, with a t interval over them.
    A deal only one run holds is left out of both arms (a run cut short, or a base of more
    games): pooling it into one arm would compare other deals, the very noise pairing removes."""
    sums_b, sums_a = _deal_sums(here, fig), _deal_sums(base, fig)
    deals = sorted(set(sums_b) & set(sums_a))
    sums_b = {d: sums_b[d] for d in deals}
    sums_a = {d: sums_a[d] for d in deals}
    r_b, r_a = _ratio(sums_b), _ratio(sums_a)
    z_b, z_a = _residuals(sums_b, r_b), _residuals(sums_a, r_a)
    if r_a is None or r_b is None:
        return Paired(r_a, r_b, None, None, len(deals))
    return Paired(r_a, r_b, r_b - r_a, _half_width([z_b[d] - z_a[d] for d in deals]), len(deals))


def _scaled(value: float | None, fig: Figure) -> float | None:
    return None if value is None else value * fig.scale


def _bounds(diff: float | None, half: float | None, fig: Figure
            ) -> tuple[float | None, float | None]:
    """The interval's bounds in the figure's unit (a negative scale turns them round)."""
    if diff is None or half is None:
        return None, None
    low, high = sorted(((diff - half) * fig.scale, (diff + half) * fig.scale))
    return low, high


@dataclass(frozen=True, slots=True)
class Row:
    """One printed row of the report, in the figure's unit: ours, the others', the difference
    and its 95 % bounds (``digits`` None: a plain count, no difference)."""

    section: str
    label: str
    digits: int | None
    ours: float | None
    others: float | None
    diff: float | None = None
    low: float | None = None
    high: float | None = None


@dataclass(frozen=True, slots=True)
class PairedRow:
    """One row of the pairing: the figure in the base run (A) and here (B), B − A and its 95 %
    bounds over the ``deals`` both runs hold."""

    label: str
    digits: int
    base: float | None
    here: float | None
    diff: float | None
    low: float | None
    high: float | None
    deals: int


def _kinds(seats: list[SeatGame], seat_agent: str) -> tuple[list[SeatGame], list[SeatGame]]:
    ours = [s for s in seats if s.agent == seat_agent]
    if not ours:
        agents = ", ".join(sorted({s.agent for s in seats}))
        raise PointFlowError(f"--seat-agent {seat_agent!r} plays no seat of this run "
                             f"(agents: {agents})")
    return ours, [s for s in seats if s.agent != seat_agent]


def report_rows(ours: list[SeatGame], others: list[SeatGame]) -> list[Row]:
    """Every row of :data:`SECTIONS` for the two kinds of seat."""
    rows: list[Row] = []
    for title, figures in SECTIONS:
        for fig in figures:
            if isinstance(fig, Count):
                rows.append(Row(title, fig.label, None, sum(s.tally[fig.key] for s in ours),
                                sum(s.tally[fig.key] for s in others)))
                continue
            sp = split_by_kind(ours, others, fig)
            rows.append(Row(title, fig.label, fig.digits, _scaled(sp.ours, fig),
                            _scaled(sp.others, fig), _scaled(sp.diff, fig),
                            *_bounds(sp.diff, sp.half, fig)))
    return rows


def _num(value: float | None, digits: int, signed: bool = False) -> str:
    """A value as printed: ``digits`` decimals, or whole points with separators for -1."""
    if value is None:
        return "-"
    sign = "+" if signed else ""
    return f"{value:{sign},.0f}" if digits < 0 else f"{value:{sign}.{digits}f}"


def _interval(diff: float | None, low: float | None, high: float | None, digits: int) -> str:
    text = f"{_num(diff, digits, True):>9}"
    if low is None or high is None:
        return text
    return f"{text} [{_num(low, digits, True)}, {_num(high, digits, True)}]"


def _row_line(row: Row) -> str:
    if row.digits is None:
        return f"  {row.label:<46} ours {row.ours:>6.0f}  others {row.others:>6.0f}"
    return (f"  {row.label:<46} ours {_num(row.ours, row.digits):>9}  others "
            f"{_num(row.others, row.digits):>9}  diff "
            f"{_interval(row.diff, row.low, row.high, row.digits)}")


def _report_lines(ours: list[SeatGame], others: list[SeatGame], seat_agent: str, title: str
                  ) -> list[str]:
    deals = len({(s.run, s.deal) for s in ours + others})
    games = sum(s.tally["games"] for s in ours)
    lines = [f"=== {title}: {games} games, {deals} deals; {seat_agent} seats ({len(ours)}) vs "
             f"the others ({len(others)}) (diff = {seat_agent} - others, 95 % t by deal) ==="]
    section = None
    for row in report_rows(ours, others):
        if row.section != section:
            section = row.section
            lines.append(f"-- {section}")
        lines.append(_row_line(row))
    return lines


def _rank_per_points(seats: list[SeatGame]) -> float | None:
    """Least-squares slope of the final rank on the score change over all seat-games
    (places per point; None when every score change is the same)."""
    xs = [float(s.tally["score"]) for s in seats]
    ys = [float(s.tally["rank_sum"]) for s in seats]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    if not sxx:
        return None
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx


def _by_file(seats: list[SeatGame], paths: Sequence[str]) -> list[tuple[str, list[SeatGame]]]:
    """The pooled title and seats, then, with several files, each file's own."""
    parts = [(" + ".join(paths) if len(paths) > 1 else paths[0], seats)]
    if len(paths) > 1:
        parts += [(p, [s for s in seats if s.run == i]) for i, p in enumerate(paths)]
    return parts


def report(seats: list[SeatGame], seat_agent: str, paths: Sequence[str]) -> list[str]:
    """The printed report (see the module docstring)."""
    _kinds(seats, seat_agent)
    double = sum(s.tally["double_rons"] for s in seats)
    lines = [f"seat-games read: {len(seats)} (every one's events give its stored score and "
             f"rank, its flows sum to its score change); double rons: {double}"]
    slope = _rank_per_points(seats)
    if slope is not None and slope:
        lines.append(f"rank on the score change, least squares over all {len(seats)} "
                     f"seat-games: {slope * 1000:+.4f} places per 1,000 points "
                     f"({-1 / slope:,.0f} points per place)")
    for i, (title, part) in enumerate(_by_file(seats, paths)):
        ours, others = _kinds(part, seat_agent)
        lines += ([""] if i else []) + _report_lines(
            ours, others, seat_agent, ("pooled: " if len(paths) > 1 and not i else "") + title)
    return lines


def _arms(here: list[SeatGame], seat_agent: str, base: list[SeatGame], base_agent: str
          ) -> tuple[list[SeatGame], list[SeatGame]]:
    """The seats compared: ``seat_agent``'s here (B) and ``base_agent``'s in the base run (A)."""
    b = [s for s in here if s.agent == seat_agent]
    a = [s for s in base if s.agent == base_agent]
    for agent, seats, where in ((seat_agent, b, "this run"), (base_agent, a, "the base run")):
        if not seats:
            raise PointFlowError(f"{agent!r} plays no seat of {where}")
    if not {s.deal for s in a} & {s.deal for s in b}:
        raise PointFlowError("the two runs share no deal")
    return b, a


def paired_rows(here: list[SeatGame], seat_agent: str, base: list[SeatGame], base_agent: str
                ) -> list[PairedRow]:
    """Every figure of :data:`SECTIONS` (not the plain counts), this run's ``seat_agent``
    seats (B) against ``base_agent``'s in a run of the same deals (A), paired by deal."""
    b, a = _arms(here, seat_agent, base, base_agent)
    rows = []
    for _, figures in SECTIONS:
        for fig in figures:
            if isinstance(fig, Figure):
                p = paired_by_deal(b, a, fig)
                rows.append(PairedRow(fig.label, fig.digits, _scaled(p.base, fig),
                                      _scaled(p.here, fig), _scaled(p.diff, fig),
                                      *_bounds(p.diff, p.half, fig), p.deals))
    return rows


def compare(here: list[SeatGame], seat_agent: str, base: list[SeatGame], base_agent: str
            ) -> list[str]:
    """The printed pairing of :func:`paired_rows`, with how many of our seat-games ended with
    another score change than the same seat of the same game in the base run."""
    b, a = _arms(here, seat_agent, base, base_agent)
    before = {(x.deal, x.rotation, x.seat): x.tally["score"] for x in a}
    changed = sum(1 for y in b if (y.deal, y.rotation, y.seat) in before
                  and before[(y.deal, y.rotation, y.seat)] != y.tally["score"])
    rows = paired_rows(here, seat_agent, base, base_agent)
    common = {(x.run, x.deal) for x in b} & {(x.run, x.deal) for x in a}
    b_in, a_in = ([x for x in arm if (x.run, x.deal) in common] for arm in (b, a))
    lines = [f"=== paired by deal ({rows[0].deals} deals): B = {seat_agent} here ({len(b_in)} "
             f"seat-games), A = {base_agent} in the base run ({len(a_in)} on those deals); "
             "B - A, 95 % t by deal ===",
             f"  seat-games with another score change than in the base run: {changed}"]
    lines += [f"  {r.label:<46} A {_num(r.base, r.digits):>9}  B {_num(r.here, r.digits):>9}  "
              f"B-A {_interval(r.diff, r.low, r.high, r.digits)}" for r in rows]
    return lines


def _json_report(seats: list[SeatGame], paths: Sequence[str], seat_agent: str,
                 paired: list[PairedRow] | None) -> str:
    parts = []
    for title, part in _by_file(seats, paths):
        ours, others = _kinds(part, seat_agent)
        parts.append({"title": title, "games": sum(s.tally["games"] for s in ours),
                      "deals": len({(s.run, s.deal) for s in part}),
                      "rows": [dataclasses.asdict(r) for r in report_rows(ours, others)]})
    slope = _rank_per_points(seats)
    doc: dict[str, object] = {
        "files": list(paths), "seat_agent": seat_agent, "seat_games": len(seats),
        "double_rons": sum(s.tally["double_rons"] for s in seats),
        "places_per_1000_points": None if slope is None else slope * 1000, "reports": parts}
    if paired is not None:
        doc["paired"] = [dataclasses.asdict(r) for r in paired]
    return json.dumps(doc, indent=1)


def main(argv: Sequence[str] | None = None) -> None:
    ap = run_report_parser(
        __doc__, "the agent whose seats are compared with the others (default search)",
        results="results files of tenpai arena --rules riichi (several are pooled)",
        default_agent="search", several=True)
    ap.add_argument("--against", metavar="BASE.db",
                    help="a run of the same seed (same deals) to pair with, deal by deal")
    ap.add_argument("--base-agent", default=None,
                    help="the agent in --against's run compared with --seat-agent "
                         "(default: the same as --seat-agent)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    paths: list[str] = list(args.db)
    base_agent: str = args.base_agent or args.seat_agent

    def lines() -> list[str]:
        if args.against is not None and len(paths) != 1:
            raise PointFlowError(f"--against pairs one results file with the base run, not "
                                 f"{len(paths)}")
        seats = read_runs(paths)
        _kinds(seats, args.seat_agent)
        paired_lines: list[str] = []
        paired_json = None
        if args.against is not None:
            base = read_runs([args.against])
            refuse_other_walls(paths[0], args.against, PointFlowError)
            paired_lines = ["", *compare(seats, args.seat_agent, base, base_agent)]
            paired_json = paired_rows(seats, args.seat_agent, base, base_agent)
        if args.json:
            return [_json_report(seats, paths, args.seat_agent, paired_json)]
        return report(seats, args.seat_agent, paths) + paired_lines

    print_report("riichi_point_flow", PointFlowError, lines)


if __name__ == "__main__":
    main()
