"""Stored four-player Riichi arena games replayed into per-seat tallies (the point-flow data).

A results file keeps each game's whole events (``game_events``). :func:`read_runs` replays them
and gives, for every seat of every game, a :class:`SeatGame` whose ``tally`` counts what the
report of :mod:`tenpai.bench.riichi_point_flow` divides: the seat's score change split into
point flows by source (the keys of :data:`FLOWS`, which sum to the change exactly), its wins,
deal-ins by situation, riichi and its outcome, calls, tenpai timing, discards under another
seat's riichi, and its standing before the game's last hand. Every key counted during the
game's last hand is also counted under ``L_`` + key, so a figure can be split into "before the
last hand" and "in it".

The split of a win's payment (why it is done this way): a win's ``deltas`` hold the base
points, the honba (``honba_points`` of the run's rules a honba, 300 on both four-player
presets: all from the discarder of a ron, a third from each payer of a self-draw) and the riichi
sticks on the table in one number. The honba and sticks go to the first winner of a double ron
only, so a win takes them when none was taken yet in this hand and it either gained more than
its payers paid (the sticks) or there were no sticks to gain. Under pao (a daisangen or
daisuushii whose last dragon or wind set was called from another seat, the liable one) the
engine (:func:`tenpai.rules.riichi.payments.payments`) has the liable seat pay all the honba,
on a self-draw and on a ron off a third seat alike; what the liable seat pays for the win is
its own flow (``f_pao``), not a deal-in. The replay follows the calls as the engine does
(``completes_pao_sets``) and applies the liable seat when the win holds one of the rules' pao
yakuman: results files written before the engine's ``hora`` events named the liable seat
(``Event.pao``) have only the calls to go by. Where the event names it, the two must agree,
else the game is refused.

The replay checks itself against the stored seats: each seat's final score and rank, and the
flows summing to the score change; a file where they disagree is refused with a message naming
the file and the game, so a report is never built on a misread game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from tenpai.arena.record import final_ranks, hand_seating
from tenpai.arena.store import SeatRow
from tenpai.bench.mcr_replay import StoredGame, StoredRun, stored_run
from tenpai.events import Event
from tenpai.hand import shanten
from tenpai.rules.riichi.payments import completes_pao_sets
from tenpai.rules.riichi.ruleset import TENHOU, RiichiRules, preset
from tenpai.tiles import kind_of

__all__ = ["FLOWS", "GameReplay", "PointFlowError", "SeatGame", "read_runs"]

#: The sources of a seat's score change: tally key and label. Their sum is the change.
FLOWS: tuple[tuple[str, str], ...] = (
    ("f_ron", "own ron wins (base)"),
    ("f_tsumo", "own tsumo wins (base)"),
    ("f_di_riichi", "dealt in: into riichi"),
    ("f_di_dama", "dealt in: into dama (closed)"),
    ("f_di_open", "dealt in: into open hand"),
    ("f_paid_tsumo", "paid others' tsumo (base)"),
    ("f_pao", "paid as the liable seat (pao, base)"),
    ("f_draw", "exhaustive-draw tenpai payments"),
    ("f_riichi_paid", "riichi sticks put down"),
    ("f_sticks_won", "sticks collected on wins"),
    ("f_sticks_end", "leftover sticks at game end"),
    ("f_honba", "honba (received - paid)"),
)

_CALLS = ("chi", "pon", "daiminkan")
#: The own discards after which the hand's speed is sampled (no opponent in riichi yet).
_SPEED_TURNS = (3, 6, 9)


class PointFlowError(ValueError):
    """The results files cannot be read into point flows; the message names the file."""


@dataclass(slots=True)
class SeatGame:
    """One seat of one stored game: which results file (``run``, its index among those read),
    the game's key, the seat and its agent, and the seat's tallies of the game."""

    run: int
    deal: int
    rotation: int
    seat: int
    agent: str
    tally: Counter[str] = field(default_factory=Counter)


@dataclass(frozen=True, slots=True)
class DiscardSituation:
    """What the deal-in tallies need to know of the discard (or added kan) a ron was won on:
    the discarder's 14-tile shanten before it, the seats in riichi it faced, whether it was
    itself in riichi or declaring, how many of its tiles were safe against each riichi seat and
    against all of them."""

    shanten_before: int
    threats: tuple[int, ...]
    own_riichi: bool
    declaring: bool
    safe_against: dict[int, int]
    safe_against_all: int
    chankan: bool = False


def _win_kind(riichi: bool, opened: bool) -> str:
    """The line a hand was played on: ``riichi``, ``open`` or ``dama`` (closed, no riichi)."""
    return "riichi" if riichi else ("open" if opened else "dama")


@dataclass(slots=True)
class HandState:
    """One hand as the tallies follow it, by seat: closed kinds, calls, rivers, riichi, the
    kinds safe against each riichi seat, own discards, the first tenpai."""

    oya: int
    honba: int
    kyotaku: int
    round_index: int
    start_scores: list[int]
    closed: list[list[int]]
    opened: list[bool] = field(default_factory=lambda: [False] * 4)
    melds: list[int] = field(default_factory=lambda: [0] * 4)
    river: list[set[int]] = field(default_factory=lambda: [set() for _ in range(4)])
    #: kinds discarded by anyone since the seat's riichi was accepted (safe against it)
    passed: list[set[int]] = field(default_factory=lambda: [set() for _ in range(4)])
    riichi: list[bool] = field(default_factory=lambda: [False] * 4)
    declared: list[bool] = field(default_factory=lambda: [False] * 4)
    accepted_now: int = 0
    turns: list[int] = field(default_factory=lambda: [0] * 4)
    first_tenpai: list[int | None] = field(default_factory=lambda: [None] * 4)
    #: the discard or added kan just made, which a ron may take: (its actor, its situation)
    last: tuple[int, DiscardSituation] | None = None
    sticks_taken: bool = False  # a win of this hand took the honba and sticks (double ron)
    riichi_settled: set[int] = field(default_factory=set)  # riichi seats whose outcome is tallied
    faced: set[int] = field(default_factory=set)  # not in riichi when another's was accepted
    won: set[int] = field(default_factory=set)
    dealt: set[int] = field(default_factory=set)
    #: kinds of each seat's pons and kans, and the seat each is liable to (pao), as the engine
    sets: list[set[int]] = field(default_factory=lambda: [set() for _ in range(4)])
    liable: list[int | None] = field(default_factory=lambda: [None] * 4)

    def safe(self, p: int) -> set[int]:
        """Kinds that cannot win a ron for riichi seat ``p``: its river and what passed since."""
        return self.river[p] | self.passed[p]

    def threats(self, actor: int) -> tuple[int, ...]:
        return tuple(p for p in range(4) if p != actor and self.riichi[p])


class GameReplay:
    """The tallies of one game, event by event (:meth:`apply`), into its four seats' counters;
    ``rules`` are the run's (honba points, pao yakuman)."""

    def __init__(self, tallies: Sequence[Counter[str]], rules: RiichiRules = TENHOU) -> None:
        self.c = tallies
        self.rules = rules
        self.running: list[int] | None = None
        self.hand: HandState | None = None
        self.hand_starts: list[list[int]] = []
        self.at_last_start: list[Counter[str]] = [Counter() for _ in range(4)]
        self.final: list[int] | None = None
        self.double_rons = 0

    def apply(self, e: Event) -> None:
        if e.type == "start_kyoku":
            self._start(e)
            return
        h = self.hand
        if h is None:
            return
        if e.type != "hora":
            h.last = None  # the previous discard was not won on
        a = e.actor
        if e.type == "tsumo" and a is not None and e.pai is not None:
            h.closed[a][kind_of(e.pai)] += 1
        elif e.type == "dahai" and a is not None and e.pai is not None:
            self._discard(h, a, kind_of(e.pai))
        elif e.type == "reach" and a is not None:
            h.declared[a] = True
        elif e.type == "reach_accepted" and a is not None:
            self._riichi(h, a)
        elif e.type in _CALLS and a is not None:
            for tile in e.consumed:
                h.closed[a][kind_of(tile)] -= 1
            h.opened[a] = True
            h.melds[a] += 1
            if e.type != "chi" and e.pai is not None:
                self._set_called(h, a, kind_of(e.pai), e.target)
        elif e.type == "ankan" and a is not None:
            for tile in e.consumed:
                h.closed[a][kind_of(tile)] -= 1
            h.sets[a].add(kind_of(e.consumed[0]))
        elif e.type == "kakan" and a is not None and e.pai is not None:
            h.closed[a][kind_of(e.pai)] -= 1
            h.last = (a, DiscardSituation(-9, h.threats(a), h.riichi[a], False, {}, 0, True))
        elif e.type == "hora":
            self._win(h, e)
        elif e.type == "ryukyoku":
            self._draw(h, e)
        elif e.type == "end_kyoku":
            self._end_hand(h)
        elif e.type == "end_game":
            self._end_game(list(e.scores))

    # -- the hand's events -------------------------------------------------------------------

    def _start(self, e: Event) -> None:
        scores = list(e.scores)
        if self.running is None:
            self.running = list(scores)
        elif scores != self.running:
            raise ValueError(f"hand {len(self.hand_starts) + 1} starts with scores {scores}, "
                             f"not the {self.running} the earlier hands left")
        closed = [[0] * 34 for _ in range(4)]
        for s, tiles in enumerate(e.tehais):
            for tile in tiles or ():
                closed[s][kind_of(tile)] += 1
        h = HandState(e.oya or 0, e.honba or 0, e.kyotaku or 0,
                      (e.bakaze or 0) * 4 + (e.kyoku or 0), list(scores), closed)
        self.hand = h
        self.at_last_start = [Counter(c) for c in self.c]
        self.hand_starts.append(list(scores))
        for s in range(4):
            self.c[s]["hands"] += 1
            self.c[s]["hands_dealer"] += s == h.oya
            if shanten(closed[s]) == 0:
                h.first_tenpai[s] = 0

    def _discard(self, h: HandState, a: int, k: int) -> None:
        before = h.closed[a]
        sh_before = shanten(before)
        threats = h.threats(a)
        c = self.c[a]
        all_safe = 0
        if threats and not h.riichi[a]:
            safe_all = set.intersection(*(h.safe(p) for p in threats))
            all_safe = sum(before[x] for x in safe_all)
            _tally_threatened_discard(c, k in safe_all, all_safe, sh_before)
        situation = DiscardSituation(sh_before, threats, h.riichi[a],
                                     h.declared[a] and not h.riichi[a],
                                     {p: sum(before[x] for x in h.safe(p)) for p in threats},
                                     all_safe)
        before[k] -= 1
        h.river[a].add(k)
        for p in threats:
            h.passed[p].add(k)
        h.turns[a] += 1
        turn = h.turns[a]
        if turn in _SPEED_TURNS and not threats and not h.riichi[a]:
            c[f"sh_at{turn}_n"] += 1
            c[f"sh_at{turn}_sum"] += max(shanten(before), 0)
            c[f"sh_at{turn}_open"] += h.opened[a]
        if h.first_tenpai[a] is None and shanten(before) == 0:
            h.first_tenpai[a] = turn
        h.last = (a, situation)

    def _riichi(self, h: HandState, a: int) -> None:
        assert self.running is not None
        h.riichi[a] = True
        h.accepted_now += 1
        h.faced |= {p for p in range(4) if p != a and not h.riichi[p] and not h.declared[p]}
        self.running[a] -= 1000
        c = self.c[a]
        c["f_riichi_paid"] -= 1000
        c["riichi"] += 1
        c["riichi_turn_sum"] += h.turns[a]

    def _set_called(self, h: HandState, a: int, k: int, target: int | None) -> None:
        """A pon or open kan of kind ``k`` by seat ``a`` from ``target``: the seat it came from
        becomes liable when it completes the dragons or the winds (the engine's rule)."""
        h.sets[a].add(k)
        if self.rules.pao_yakuman and target is not None and completes_pao_sets(k, h.sets[a]):
            h.liable[a] = target

    def _liable(self, h: HandState, e: Event, tsumo: bool) -> int | None:
        """The seat that pays as liable (pao) for this win: the one the winner's dragons or
        winds were completed from, when the win holds a pao yakuman and (on a ron) another
        seat dealt it in; ``None`` otherwise (a ron off the liable seat is an ordinary one)."""
        assert e.actor is not None
        p = h.liable[e.actor]
        if e.pao is not None and e.pao != p:
            raise ValueError(f"seat {e.actor}'s win names seat {e.pao} liable (pao), its calls "
                             f"seat {p}")
        if p is None or not any(y in self.rules.pao_yakuman for y, _ in e.yaku):
            return None
        return p if tsumo or p != e.target else None

    def _honba_paid(self, h: HandState, s: int, tsumo: bool, pao: int | None) -> int:
        """The honba payer ``s`` pays on the first win of the hand, as the engine splits it:
        all of it from the liable seat under pao, else all from the discarder of a ron or an
        equal part from each payer of a self-draw."""
        total = self.rules.honba_points * h.honba
        if pao is not None:
            return total if s == pao else 0
        return total // 3 if tsumo else total

    def _win(self, h: HandState, e: Event) -> None:
        """Split one win's deltas into base points, honba and sticks; tally win and deal-in."""
        assert self.running is not None and e.actor is not None
        a = e.actor
        deltas = list(e.deltas)
        tsumo = e.target is None or e.target == a
        payers = [s for s in range(4) if s != a and deltas[s] < 0]
        sticks = deltas[a] + sum(deltas[s] for s in payers)
        takes_sticks = not h.sticks_taken and (sticks > 0 or h.kyotaku + h.accepted_now == 0)
        h.sticks_taken |= takes_sticks
        if h.won:
            self.double_rons += 1
        for s in range(4):
            self.running[s] += deltas[s]
        kind = _win_kind(h.riichi[a], h.opened[a])
        pao = self._liable(h, e, tsumo)
        base_total = honba_total = 0
        for s in payers:
            honba = min(self._honba_paid(h, s, tsumo, pao) if takes_sticks else 0, -deltas[s])
            base = -deltas[s] - honba
            base_total += base
            honba_total += honba
            self.c[s]["f_honba"] -= honba
            if s == pao:
                self.c[s]["f_pao"] -= base
                self.c[s]["pao_paid_n"] += 1
            elif tsumo:
                self.c[s]["f_paid_tsumo"] -= base
                self.c[s]["paid_tsumo_n"] += 1
            else:
                h.dealt.add(s)
                self._deal_in(h, s, a, kind, base)
        for s in range(4):
            if s == a:
                continue
            self.c[s][f"opp_{'tsumo' if tsumo else 'ron'}_{kind}"] += 1
            if not tsumo and e.target == s:
                self.c[s][f"opp_ron_{kind}_mine"] += 1
            if h.riichi[s] and s not in h.riichi_settled:
                self.c[s]["r_dealin" if not tsumo and e.target == s else "r_otherwin"] += 1
                h.riichi_settled.add(s)
        h.won.add(a)
        c = self.c[a]
        c["f_tsumo" if tsumo else "f_ron"] += base_total
        c["f_honba"] += honba_total
        c["f_sticks_won"] += sticks
        c["wins"] += 1
        c["win_tsumo" if tsumo else "win_ron"] += 1
        c["win_pts"] += base_total
        c["win_dealer"] += a == h.oya
        han = e.han or 0
        c["win_han_sum"] += han
        c[f"win_han{han if han < 5 else '5p'}"] += 1
        c[f"win_{kind}"] += 1
        c[f"win_{kind}_pts"] += base_total
        if h.riichi[a] and a not in h.riichi_settled:
            c["r_won"] += 1
            h.riichi_settled.add(a)

    def _deal_in(self, h: HandState, s: int, winner: int, kind: str, base: int) -> None:
        """Tally seat ``s``'s deal-in of ``base`` points into ``winner``'s hand of ``kind``, by
        the situation of the tile it dealt in with (forced by its own riichi, the riichi
        declaration tile, a robbed kan, or a free choice: how far its hand was, whether it was
        under riichi and held tiles safe against the winner or against every riichi)."""
        c = self.c[s]
        c[f"f_di_{kind}"] -= base
        c["di"] += 1
        c[f"di_{kind}"] += 1
        if kind == "open":
            c[f"di_open_m{min(h.melds[winner], 3)}"] += 1
        if h.last is None or h.last[0] != s:
            raise ValueError(f"seat {s} dealt in without a discard of its own just before")
        info = h.last[1]
        if info.chankan:
            c["di_chankan"] += 1
            return
        if info.own_riichi:
            c["di_own_riichi"] += 1
            return
        if info.declaring:
            c["di_declaring"] += 1
            return
        shb = info.shanten_before
        c["di_free"] += 1
        c["di_free_sh0" if shb <= 0 else ("di_free_sh1" if shb == 1 else "di_free_sh2p")] += 1
        c["di_free_pts"] += base
        if shb >= 2:
            c["di_free_sh2p_pts"] += base
        if not info.threats:
            c["di_nothr"] += 1
            c["di_nothr_pts"] += base
            c["di_nothr_sh2p"] += shb >= 2
            return
        c["di_thr"] += 1
        c["di_thr_pts"] += base
        c["di_thr_far"] += shb >= 2
        if h.riichi[winner]:
            c["di_thr_into_riichi"] += 1
            c["di_thr_had_safe_vs_winner"] += info.safe_against.get(winner, 0) > 0
            c["di_thr_safe_tiles_vs_winner"] += info.safe_against.get(winner, 0)
        c["di_thr_had_allsafe"] += info.safe_against_all > 0
        c["di_thr_had_allsafe_not_tenpai"] += info.safe_against_all > 0 and shb >= 1

    def _draw(self, h: HandState, e: Event) -> None:
        assert self.running is not None
        deltas = list(e.deltas or (0, 0, 0, 0))
        exhaustive = (e.kind or "exhaustive") == "exhaustive"
        for s in range(4):
            self.running[s] += deltas[s]
            c = self.c[s]
            c["f_draw"] += deltas[s]
            if exhaustive:
                c["draw_hands"] += 1
                c["draw_tenpai"] += bool(e.tehais) and e.tehais[s] is not None
            if h.riichi[s]:
                c["r_draw" if exhaustive else "r_abort"] += 1

    def _end_hand(self, h: HandState) -> None:
        assert self.running is not None
        won_by_riichi = {p for p in h.won if h.riichi[p]}
        for s in range(4):
            c = self.c[s]
            d = self.running[s] - h.start_scores[s]
            c["calls"] += h.opened[s]
            c["dealt_in_hands"] += s in h.dealt
            line = "riichi" if h.riichi[s] else ("open" if h.opened[s] else "closed")
            c[f"line_{line}"] += 1
            c[f"line_{line}_pts"] += d
            c["hand_pts"] += d
            rnd = min(h.round_index, 4)
            c[f"k{rnd}_pts"] += d
            c[f"k{rnd}_n"] += 1
            if s in h.faced:
                c["faced"] += 1
                c["faced_pts"] += d
                c["faced_won"] += s in h.won
                c["faced_dealt"] += s in h.dealt
                c["faced_other_riichi_won"] += bool(won_by_riichi - {s})
            c["dealer_pts" if h.oya == s else "nondealer_pts"] += d
            first = h.first_tenpai[s]
            if first is not None:
                c["tp_hands"] += 1
                c["tp_turn_sum"] += first
                c["tp_by6"] += first <= 6
                c["tp_by9"] += first <= 9

    def _end_game(self, final: list[int]) -> None:
        """The sticks left on the table at the end, the game's result, and every tally of the
        last hand again under ``L_`` (counted since the last hand's start)."""
        assert self.running is not None and self.hand_starts
        start, last_start = self.hand_starts[0], self.hand_starts[-1]
        standing, ranks = final_ranks(last_start), final_ranks(final)
        for s in range(4):
            c = self.c[s]
            c["f_sticks_end"] += final[s] - self.running[s]
            for key in set(c) | set(self.at_last_start[s]):
                if not key.startswith("L_"):
                    c["L_" + key] += c[key] - self.at_last_start[s][key]
            c["pre_last_pts"] += last_start[s] - start[s]
            c["last_pts"] += final[s] - last_start[s]
            c["pre_last_standing_sum"] += standing[s]
            c["games"] += 1
            c["score"] += final[s] - start[s]
            c["rank_sum"] += ranks[s]
            c[f"rank{ranks[s]}"] += 1
            c[f"pre{standing[s]}"] += 1
            c[f"pre{standing[s]}_rank_sum"] += ranks[s]
            c[f"pre{standing[s]}_to{ranks[s]}"] += 1
        self.final = final


def _tally_threatened_discard(c: Counter[str], safe: bool, n_safe: int, sh_before: int) -> None:
    """A discard made under another seat's riichi (not in riichi itself): whether the seat held
    a tile safe against every riichi and whether it discarded one; the same for far hands."""
    c["thr_disc"] += 1
    c["thr_had_safe"] += n_safe > 0
    c["thr_safe_disc"] += safe
    c["thr_unsafe_with_safe"] += n_safe > 0 and not safe
    if sh_before >= 2:
        c["thr_far_disc"] += 1
        c["thr_far_had_safe"] += n_safe > 0
        c["thr_far_unsafe_with_safe"] += n_safe > 0 and not safe


def _riichi_rules(run: StoredRun) -> RiichiRules:
    """The rules of a run of ``--rules riichi`` (its ``--preset``); any other run is refused."""
    rules = run.config.get("rules")
    if rules != "riichi":
        raise PointFlowError(f"{run.path}: a run of --rules {rules}; the tool reads four-player "
                             "Riichi runs (--rules riichi)")
    name = (run.config.get("options") or {}).get("preset", "tenhou")
    try:
        return preset(name)
    except KeyError as exc:
        raise PointFlowError(f"{run.path}: {exc.args[0]}") from None


def _game_seats(path: str, run: int, game: StoredGame, rows: list[SeatRow] | None,
                rules: RiichiRules) -> list[SeatGame]:
    """The four seats of one stored game with their tallies, checked against the stored
    seats (final score and rank, flows summing to the score change)."""
    where = f"{path}: game (deal {game.deal}, rotation {game.rotation})"
    if rows is None or [r.seat for r in rows] != [0, 1, 2, 3]:
        raise PointFlowError(f"{where} has events but not four stored seats "
                             "(the tool reads four-player Riichi runs)")
    seats = [SeatGame(run, game.deal, game.rotation, r.seat, r.agent) for r in rows]
    replay = GameReplay([s.tally for s in seats], rules)
    try:
        for e in game.events:
            if e.type == "start_kyoku" and (hand_seating(e) != (0, 1, 2, 3) or len(e.tehais) != 4):
                raise ValueError("changes seats or has not four hands: not a four-player "
                                 "Riichi game")
            replay.apply(e)
    except ValueError as exc:
        raise PointFlowError(f"{where}: {exc}") from None
    if replay.final is None:
        raise PointFlowError(f"{where} has no end_game")
    ranks = final_ranks(replay.final)
    for s, (seat, row) in enumerate(zip(seats, rows, strict=True)):
        flows = sum(seat.tally[k] for k, _ in FLOWS)
        if row.score != replay.final[s] or row.rank != ranks[s] or flows != seat.tally["score"]:
            raise PointFlowError(
                f"{where}, seat {s}: the events give score {replay.final[s]}, rank {ranks[s]} "
                f"and flows summing to {flows:+} for a change of {seat.tally['score']:+}; the "
                f"stored seat has score {row.score}, rank {row.rank}")
        seat.tally["double_rons"] += replay.double_rons if s == 0 else 0
    return seats


def read_runs(paths: Sequence[str]) -> list[SeatGame]:
    """Every seat of every game with stored events in the results files, in file order
    (``SeatGame.run`` is the file's index in ``paths``); a file without any is an error."""
    out: list[SeatGame] = []
    for index, path in enumerate(paths):
        before = len(out)
        with stored_run(path, PointFlowError) as run:
            rules = _riichi_rules(run)
            for game in run.games():
                out.extend(_game_seats(path, index, game,
                                       run.seats.get((game.deal, game.rotation)), rules))
        if len(out) == before:
            raise PointFlowError(f"{path}: no stored game events to read")
    return out
