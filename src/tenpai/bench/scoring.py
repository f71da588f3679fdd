"""``tenpai bench scoring``: a whole Riichi win evaluation (yaku, han, fu, points) against the
``mahjong`` library (Python) and RiichiEnv (Rust), same hands, same process.

Hands are random *winning* shapes built from a seeded 136-tile wall (so every physical tile,
red fives included, is used at most once): 90 % four sets and a pair with 0-3 calls (chi,
pon, open and closed kans), 8 % seven pairs, 2 % thirteen orphans; a random situation (tsumo
half the time, riichi for 40 % of closed hands, ippatsu, one dora indicator per kan plus one,
ura indicators with riichi, seat and round winds).  Some hands have no yaku: every side must
say so, which is part of the work.

Fair timing: every side starts from the same plain data (physical tile ids, meld lists,
flags) prepared before timing, and the timed loop builds what that side's API needs *and*
scores: our ``Meld``/``WinContext`` then ``evaluate``; RiichiEnv's ``Meld``/``Conditions``/
``HandEvaluator`` then ``calc`` (the Rust classes directly, not the Python wrapper); the
library's ``Meld``/``HandConfig`` then ``estimate_hand_value``.  Our side is timed twice: as
it runs (the compiled scorer and constructors when built) and as the pure-Python
specification (``evaluate_python`` with the dataclass constructors).

Honest timing: the sides run interleaved in one process, ``repeat`` passes, the order of the
sides turning every pass; each pass scores ``n`` wins generated for it alone (no side re-scores
a hand it has scored before, so no whole-hand cache can help) and starts with our
decomposition caches cleared.  Each figure is the CPU time of the pass per win (the machine is
shared, CPU time is what load disturbs least); the table gives medians and ranges.  Agreement
(han, fu below yakuman, payments) is checked on a separate, untimed set of wins.  The two
slow sides (our Python path and ``mahjong``, twenty times slower) are timed on the first
``n_slow`` wins of each pass: the fast sides need long passes to resolve 10 %, and the slow
ones would otherwise take minutes; the wins are independent draws, so a prefix is a fair
sample of the pass.
Rules: Tenhou's (red fives, open tanyao, no kiriage, counted yakuman), mapped to each peer's
options where it has them.
"""

from __future__ import annotations

import importlib
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from tenpai import tiles as T
from tenpai.hand.decompose import _placed_readings, _suit_readings
from tenpai.rules.riichi import Meld, WinContext, WinResult, evaluate
from tenpai.rules.riichi.compiled import install_constructors
from tenpai.rules.riichi.evaluate import compiled_module, evaluate_python
from tenpai.rules.riichi.reading import _closed_decompositions
from tenpai.rules.riichi.ruleset import TENHOU

__all__ = ["PlainWin", "ScoringBench", "ours", "ours_python", "plain_wins", "run_scoring_bench"]

_ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


@dataclass(frozen=True, slots=True)
class PlainWin:
    """One win as plain data every library can be fed from.

    ``closed`` are physical ids (0-135) of the concealed tiles, winning tile included;
    ``melds`` are ``(kind, ids, from_seat)`` with our kind names; winds are 0-3 (E S W N).
    """

    closed: tuple[int, ...]
    win: int
    melds: tuple[tuple[str, tuple[int, ...], int], ...]
    tsumo: bool
    riichi: bool
    ippatsu: bool
    seat_wind: int
    round_wind: int
    dora: tuple[int, ...]
    ura: tuple[int, ...]


class _Wall:
    def __init__(self, rng: random.Random) -> None:
        self.left = {k: rng.sample(range(4 * k, 4 * k + 4), 4) for k in range(34)}

    def take(self, kind: int, n: int) -> list[int] | None:
        ids = self.left[kind]
        if len(ids) < n:
            return None
        return [ids.pop() for _ in range(n)]

    def any(self, rng: random.Random) -> int:
        kind = rng.choice([k for k, ids in self.left.items() if ids])
        return self.left[kind].pop()


def _one(rng: random.Random) -> PlainWin | None:
    wall = _Wall(rng)
    closed: list[int] = []
    melds: list[tuple[str, tuple[int, ...], int]] = []
    form = rng.random()
    if form < 0.08:
        for k in rng.sample(range(34), 7):
            closed += wall.take(k, 2) or []
    elif form < 0.10:
        for k in _ORPHANS:
            closed += wall.take(k, 1) or []
        extra = wall.take(rng.choice(_ORPHANS), 1)
        if extra is None:
            return None
        closed += extra
    else:
        calls = rng.choices((0, 1, 2, 3), (45, 25, 18, 12))[0]
        for i in range(4):
            chow = rng.random() < 0.55
            if chow:
                start = 9 * rng.randrange(3) + rng.randrange(7)
                parts = [wall.take(start + d, 1) for d in range(3)]
                if any(p is None for p in parts):
                    return None
                ids = [p[0] for p in parts if p is not None]
            else:
                kind = rng.randrange(34)
                kan = i < calls and rng.random() < 0.25
                got = wall.take(kind, 4 if kan else 3)
                if got is None:
                    return None
                ids = got
            if i < calls:
                if chow:
                    kind_name = "chi"
                elif len(ids) == 4:
                    kind_name = rng.choice(("daiminkan", "ankan"))
                else:
                    kind_name = "pon"
                seat = -1 if kind_name == "ankan" else rng.randrange(1, 4)
                melds.append((kind_name, tuple(sorted(ids)), seat))
            else:
                closed += ids
        pair = wall.take(rng.randrange(34), 2)
        if pair is None:
            return None
        closed += pair
    if len(closed) + 3 * len(melds) != 14:
        return None
    opened = any(kind != "ankan" for kind, _, _ in melds)
    riichi = not opened and rng.random() < 0.4
    kans = sum(1 for kind, _, _ in melds if kind in ("daiminkan", "ankan"))
    dora = tuple(wall.any(rng) for _ in range(1 + kans))
    return PlainWin(
        closed=tuple(sorted(closed)),
        win=rng.choice(closed),
        melds=tuple(melds),
        tsumo=rng.random() < 0.5,
        riichi=riichi,
        ippatsu=riichi and rng.random() < 0.15,
        seat_wind=rng.randrange(4),
        round_wind=rng.choice((0, 0, 1)),
        dora=dora,
        ura=tuple(wall.any(rng) for _ in range(1 + kans)) if riichi else (),
    )


def plain_wins(n: int, seed: int) -> list[PlainWin]:
    """``n`` random winning shapes with situations (see the module docstring)."""
    rng = random.Random(seed)
    out: list[PlainWin] = []
    while len(out) < n:
        w = _one(rng)
        if w is not None:
            out.append(w)
    return out


# ------------------------------------------------------------------------------ each side

#: Our tile code of each physical id (red fives kept), so the conversion every caller does
#: is one look-up, as a user holding physical ids would write it: ``bytes.translate`` through
#: this table converts a whole tuple of ids in one call.
_CODES: Final = tuple(T.physical_to_tile(i, red=True) for i in range(136))
_code = _CODES.__getitem__
_TABLE: Final = bytes(_CODES) + bytes(256 - len(_CODES))


def _codes(ids: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(bytes(ids).translate(_TABLE))


def _build(w: PlainWin) -> WinContext:
    melds = tuple([
        Meld(kind, _codes(ids), None if seat < 0 else seat)  # type: ignore[arg-type]
        for kind, ids, seat in w.melds
    ]) if w.melds else ()
    return WinContext(
        closed=_codes(w.closed),
        win_tile=_code(w.win),
        melds=melds,
        tsumo=w.tsumo,
        seat_wind=27 + w.seat_wind,
        round_wind=27 + w.round_wind,
        riichi=w.riichi,
        ippatsu=w.ippatsu,
        dora_indicators=_codes(w.dora),
        ura_indicators=_codes(w.ura),
        rules=TENHOU,
    )


def ours(w: PlainWin) -> WinResult | None:
    """Build our context from the plain data and score it (the compiled path when built)."""
    return evaluate(_build(w))


def ours_python(w: PlainWin) -> WinResult | None:
    """The same through the Python specification (run with the dataclass constructors)."""
    return evaluate_python(_build(w))


def _riichienv(rc: Any) -> Callable[[PlainWin], Any]:
    types = {"chi": rc.MeldType.Chi, "pon": rc.MeldType.Pon, "daiminkan": rc.MeldType.Daiminkan,
             "kakan": rc.MeldType.Kakan, "ankan": rc.MeldType.Ankan}
    winds = (rc.Wind.East, rc.Wind.South, rc.Wind.West, rc.Wind.North)
    hand_evaluator, meld_cls, conditions = rc.HandEvaluator, rc.Meld, rc.Conditions

    def score(w: PlainWin) -> Any:
        melds = [meld_cls(types[kind], list(ids), kind != "ankan", seat)
                 for kind, ids, seat in w.melds]
        cond = conditions(tsumo=w.tsumo, riichi=w.riichi, ippatsu=w.ippatsu,
                          player_wind=winds[w.seat_wind], round_wind=winds[w.round_wind])
        return hand_evaluator(list(w.closed), melds).calc(w.win, list(w.dora), list(w.ura), cond)

    return score


def _mahjong() -> Callable[[PlainWin], Any]:
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
    from mahjong.meld import Meld as LibMeld

    types = {"chi": LibMeld.CHI, "pon": LibMeld.PON, "daiminkan": LibMeld.KAN,
             "kakan": LibMeld.SHOUMINKAN, "ankan": LibMeld.KAN}
    options = OptionalRules(
        has_open_tanyao=TENHOU.open_tanyao,
        has_aka_dora=TENHOU.red_fives > 0,
        has_double_yakuman=TENHOU.double_yakuman_variants,
        kazoe_limit=HandConstants.KAZOE_LIMITED if TENHOU.kazoe_yakuman
        else HandConstants.KAZOE_SANBAIMAN,
        kiriage=TENHOU.kiriage_mangan,
        fu_for_open_pinfu=True,
        fu_for_pinfu_tsumo=False,
    )
    estimate = HandCalculator.estimate_hand_value

    def score(w: PlainWin) -> Any:
        melds = [LibMeld(meld_type=types[kind], tiles=list(ids), opened=kind != "ankan")
                 for kind, ids, _ in w.melds]
        config = HandConfig(is_tsumo=w.tsumo, is_riichi=w.riichi, is_ippatsu=w.ippatsu,
                            player_wind=27 + w.seat_wind, round_wind=27 + w.round_wind,
                            options=options)
        tiles = list(w.closed) + [i for _, ids, _ in w.melds for i in ids]
        return estimate(tiles, w.win, melds=melds, dora_indicators=list(w.dora), config=config,
                        ura_dora_indicators=list(w.ura))

    return score


# ------------------------------------------------------------------------------ agreement

def _our_key(r: WinResult | None) -> tuple[int, int, int, int] | None:
    """(han, fu or 0 for yakuman, first payment, second payment) as both peers express them."""
    if r is None:
        return None
    fu = 0 if r.yakuman else r.fu
    if not r.tsumo:
        return (r.han, fu, r.ron, 0)
    if r.dealer:
        return (r.han, fu, r.tsumo_non_dealer, r.tsumo_non_dealer)
    return (r.han, fu, r.tsumo_dealer, r.tsumo_non_dealer)


def _riichienv_key(w: PlainWin, r: Any) -> tuple[int, int, int, int] | None:
    if not r.is_win:
        return None
    fu = 0 if r.yakuman else r.fu
    if not w.tsumo:
        return (r.han, fu, r.ron_agari, 0)
    if w.seat_wind == 0:
        return (r.han, fu, r.tsumo_agari_ko, r.tsumo_agari_ko)
    return (r.han, fu, r.tsumo_agari_oya, r.tsumo_agari_ko)


def _mahjong_key(r: Any) -> tuple[int, int, int, int] | None:
    if r.error:
        return None
    yakuman = any(getattr(y, "is_yakuman", False) for y in r.yaku)
    fu = 0 if yakuman else r.fu
    return (r.han, fu, r.cost["main"], r.cost["additional"])


# ------------------------------------------------------------------------------ timing

OURS: Final = "tenpai"
OURS_PYTHON: Final = "tenpai (Python)"


@dataclass
class ScoringBench:
    """Microseconds per win of every side, one figure per timed pass, and agreement counts.

    Every pass scores wins nobody has scored before in this process (a fresh seed per pass)
    and starts with our decomposition caches cleared, so no side is timed on warm caches."""

    hands: int
    repeat: int
    n_slow: int
    us: dict[str, list[float]] = field(default_factory=dict)
    agree: dict[str, int] = field(default_factory=dict)
    examples: dict[str, list[str]] = field(default_factory=dict)
    wins: int = 0
    compiled: bool = False
    skipped: dict[str, str] = field(default_factory=dict)

    def median(self, side: str) -> float:
        return statistics.median(self.us[side])

    def paired(self, side: str) -> list[float]:
        """``side``'s time over ours in each pass (same wins, moments apart): load drift
        between passes cancels out of these."""
        return [theirs / ours for theirs, ours in zip(self.us[side], self.us[OURS])]

    def summary(self) -> dict[str, Any]:
        ours_us = self.median(OURS)
        out: dict[str, Any] = {
            "hands": self.hands,
            "hands_slow_sides": self.n_slow,
            "repeat": self.repeat,
            "compiled": self.compiled,
            "wins_with_yaku": self.wins,
            "us_per_hand": round(ours_us, 3),
            "us_range": [round(min(self.us[OURS]), 3), round(max(self.us[OURS]), 3)],
            "hands_per_s": round(1e6 / ours_us),
        }
        for side, times in self.us.items():
            if side == OURS:
                continue
            key = "python" if side == OURS_PYTHON else side
            med = statistics.median(times)
            out[f"{key}_us_per_hand"] = round(med, 3)
            out[f"{key}_us_range"] = [round(min(times), 3), round(max(times), 3)]
            out[f"{key}_per_s"] = round(1e6 / med)
            out[f"ratio_vs_{key}"] = round(med / ours_us, 3)
            paired = self.paired(side)
            out[f"ratio_vs_{key}_per_pass"] = [round(statistics.median(paired), 3),
                                               round(min(paired), 3), round(max(paired), 3)]
            out[f"agree_{key}"] = self.agree[side]
        out["skipped"] = self.skipped
        return out


def _clear_our_caches() -> None:
    _closed_decompositions.cache_clear()
    _suit_readings.cache_clear()
    _placed_readings.cache_clear()


def _cpu_us(fn: Callable[[Any], object], inputs: Sequence[Any]) -> float:
    start = time.process_time()
    for x in inputs:
        fn(x)
    return (time.process_time() - start) / len(inputs) * 1e6


#: Sides twenty times slower than the compiled ones: timed on the first ``n_slow`` wins of each
#: pass, so a pass stays long enough for the fast sides without minutes for the slow ones.
SLOW_SIDES: Final = frozenset({OURS_PYTHON, "mahjong"})


def run_scoring_bench(n: int = 30_000, seed: int = 0, repeat: int = 9,
                      n_slow: int = 6_000) -> ScoringBench:
    """Time every side on the same wins, interleaved (see the module docstring)."""
    scorers: dict[str, Callable[[PlainWin], Any]] = {OURS: ours}
    skipped: dict[str, str] = {}
    module = compiled_module()
    if module is not None:
        scorers[OURS_PYTHON] = ours_python
    try:
        scorers["riichienv"] = _riichienv(importlib.import_module("riichienv._riichienv"))
    except ImportError as err:
        skipped["riichienv"] = f"not installed ({err})"
    try:
        scorers["mahjong"] = _mahjong()
    except ImportError as err:
        skipped["mahjong"] = f"not installed ({err})"

    # Untimed agreement pass on wins of their own (the timed passes never see these).
    n_slow = min(n, n_slow)
    check = plain_wins(n_slow, seed)
    mine = [_our_key(ours(w)) for w in check]
    result = ScoringBench(n, repeat, n_slow=n_slow, skipped=skipped, compiled=module is not None,
                          wins=sum(1 for k in mine if k is not None))
    for name, score in scorers.items():
        if name == OURS:
            continue
        with _python_constructors(module, name == OURS_PYTHON):
            keyed = [_key(name, w, score(w)) for w in check]
        result.agree[name] = sum(1 for a, b in zip(mine, keyed) if a == b)
        result.examples[name] = [
            f"{w} ours {a} theirs {b}" for w, a, b in zip(check, mine, keyed) if a != b
        ][:3]

    names = list(scorers)
    for r in range(repeat):
        wins = plain_wins(n, seed + 1 + r)
        # The order of the sides turns every pass, so drifting load hits all of them alike.
        for name in names[r % len(names):] + names[:r % len(names)]:
            _clear_our_caches()
            with _python_constructors(module, name == OURS_PYTHON):
                inputs = wins[:n_slow] if name in SLOW_SIDES else wins
                result.us.setdefault(name, []).append(_cpu_us(scorers[name], inputs))
    return result


class _python_constructors:
    """While active, ``WinContext``/``Meld`` use their dataclass constructors (the pure-Python
    side must not borrow the compiled constructors)."""

    def __init__(self, module: Any, active: bool) -> None:
        self.module = module if active else None

    def __enter__(self) -> None:
        if self.module is not None:
            self.module.uninstall_constructors()

    def __exit__(self, *exc: object) -> None:
        if self.module is not None:
            install_constructors(self.module)


def _key(name: str, w: PlainWin, r: Any) -> tuple[int, int, int, int] | None:
    if name == "riichienv":
        return _riichienv_key(w, r)
    if name == "mahjong":
        return _mahjong_key(r)
    return _our_key(r)


def render(result: ScoringBench) -> None:
    """Print the readable table (rich)."""
    from rich.console import Console
    from rich.table import Table

    path = "compiled" if result.compiled else "pure Python"
    table = Table(title=f"Riichi win scoring: {result.hands} fresh wins per pass (the first "
                        f"{result.n_slow} for {', '.join(sorted(SLOW_SIDES))}), "
                        f"{result.repeat} interleaved passes, CPU time; tenpai = {path}")
    table.add_column("scorer")
    table.add_column("µs / win (median)", justify="right")
    table.add_column("range", justify="right")
    table.add_column("theirs / ours", justify="right")
    table.add_column("per pass: median (range)", justify="right")
    table.add_column("agree with ours", justify="right")
    ours_us = result.median(OURS)
    for side, times in result.us.items():
        med = statistics.median(times)
        paired = result.paired(side)
        table.add_row(side, f"{med:.2f}", f"{min(times):.2f}-{max(times):.2f}",
                      "" if side == OURS else f"{med / ours_us:.2f}",
                      "" if side == OURS else f"{statistics.median(paired):.2f} "
                                              f"({min(paired):.2f}-{max(paired):.2f})",
                      "" if side == OURS else f"{result.agree[side]} / {result.n_slow}")
    console = Console()
    console.print(table)
    for peer, examples in result.examples.items():
        for e in examples:
            console.print(f"  [yellow]{peer} differs[/yellow]: {e}")
    for name, why in result.skipped.items():
        console.print(f"[yellow]skipped {name}: {why}[/yellow]")
