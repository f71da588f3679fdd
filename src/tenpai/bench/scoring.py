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
library's ``Meld``/``HandConfig`` then ``estimate_hand_value``.  Agreement (han, fu below
yakuman, payments) is checked in a separate, untimed pass and reported next to the rates.
Rules: Tenhou's (red fives, open tanyao, no kiriage, counted yakuman), mapped to each peer's
options where it has them.
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from tenpai import tiles as T
from tenpai.rules.riichi import Meld, WinContext, WinResult, evaluate
from tenpai.rules.riichi.ruleset import TENHOU

__all__ = ["PlainWin", "ScoringBench", "plain_wins", "run_scoring_bench"]

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
#: is one tuple look-up, as a user holding physical ids would write it.
_CODES: Final = tuple(T.physical_to_tile(i, red=True) for i in range(136))
_code = _CODES.__getitem__


def ours(w: PlainWin) -> WinResult | None:
    """Build our context from the plain data and score it."""
    melds = tuple(
        Meld(kind, tuple(_code(i) for i in ids), None if seat < 0 else seat)  # type: ignore[arg-type]
        for kind, ids, seat in w.melds
    )
    return evaluate(WinContext(
        closed=tuple(_code(i) for i in w.closed),
        win_tile=_code(w.win),
        melds=melds,
        tsumo=w.tsumo,
        seat_wind=27 + w.seat_wind,
        round_wind=27 + w.round_wind,
        riichi=w.riichi,
        ippatsu=w.ippatsu,
        dora_indicators=tuple(_code(i) for i in w.dora),
        ura_indicators=tuple(_code(i) for i in w.ura),
        rules=TENHOU,
    ))


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

@dataclass
class ScoringBench:
    """Rates in hands per second (best pass) and agreement counts per peer."""

    hands: int
    repeat: int
    ours_per_s: float
    ours_evaluate_only_per_s: float
    peers: dict[str, float] = field(default_factory=dict)
    agree: dict[str, int] = field(default_factory=dict)
    examples: dict[str, list[str]] = field(default_factory=dict)
    wins: int = 0
    skipped: dict[str, str] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "hands": self.hands,
            "wins_with_yaku": self.wins,
            "hands_per_s": round(self.ours_per_s),
            "evaluate_only_per_s": round(self.ours_evaluate_only_per_s),
        }
        for peer, rate in self.peers.items():
            out[f"{peer}_per_s"] = round(rate)
            out[f"ratio_vs_{peer}"] = round(self.ours_per_s / rate, 3)
            out[f"agree_{peer}"] = self.agree[peer]
        out["skipped"] = self.skipped
        return out


def _best_rate(fn: Callable[[Any], object], inputs: Sequence[Any], repeat: int) -> float:
    best = 0.0
    for _ in range(repeat):
        start = time.perf_counter()
        for x in inputs:
            fn(x)
        best = max(best, len(inputs) / (time.perf_counter() - start))
    return best


def run_scoring_bench(n: int = 5_000, seed: int = 0, repeat: int = 3) -> ScoringBench:
    """Time the three scorers on the same ``n`` wins (see the module docstring)."""
    wins = plain_wins(n, seed)
    warm = plain_wins(min(n, 1_000), seed + 1)
    scorers: dict[str, Callable[[PlainWin], Any]] = {}
    skipped: dict[str, str] = {}
    try:
        scorers["riichienv"] = _riichienv(importlib.import_module("riichienv._riichienv"))
    except ImportError as err:
        skipped["riichienv"] = f"not installed ({err})"
    try:
        scorers["mahjong"] = _mahjong()
    except ImportError as err:
        skipped["mahjong"] = f"not installed ({err})"

    # Untimed agreement pass (also the warm-up of every cache and import).
    mine = [_our_key(ours(w)) for w in wins]
    result = ScoringBench(n, repeat, 0.0, 0.0, skipped=skipped,
                          wins=sum(1 for k in mine if k is not None))
    for name, score in scorers.items():
        keyed = [
            _riichienv_key(w, score(w)) if name == "riichienv" else _mahjong_key(score(w))
            for w in wins
        ]
        result.agree[name] = sum(1 for a, b in zip(mine, keyed) if a == b)
        result.examples[name] = [
            f"{w} ours {a} theirs {b}" for w, a, b in zip(wins, mine, keyed) if a != b
        ][:3]

    for w in warm:
        ours(w)
    for score in scorers.values():
        for w in warm:
            score(w)
    contexts = [_context_only(w) for w in wins]
    # Passes alternate between the sides, so a change of machine load hits all of them.
    for _ in range(repeat):
        result.ours_per_s = max(result.ours_per_s, _best_rate(ours, wins, 1))
        result.ours_evaluate_only_per_s = max(result.ours_evaluate_only_per_s,
                                              _best_rate(evaluate, contexts, 1))
        for name, score in scorers.items():
            result.peers[name] = max(result.peers.get(name, 0.0), _best_rate(score, wins, 1))
    return result


def _context_only(w: PlainWin) -> WinContext:
    melds = tuple(
        Meld(kind, tuple(_code(i) for i in ids), None if seat < 0 else seat)  # type: ignore[arg-type]
        for kind, ids, seat in w.melds
    )
    return WinContext(
        closed=tuple(_code(i) for i in w.closed), win_tile=_code(w.win), melds=melds,
        tsumo=w.tsumo, seat_wind=27 + w.seat_wind, round_wind=27 + w.round_wind,
        riichi=w.riichi, ippatsu=w.ippatsu, dora_indicators=tuple(_code(i) for i in w.dora),
        ura_indicators=tuple(_code(i) for i in w.ura), rules=TENHOU,
    )


def render(result: ScoringBench) -> None:
    """Print the readable table (rich)."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"Riichi win scoring: {result.hands} hands "
                        f"({result.wins} with a yaku), best of {result.repeat}")
    table.add_column("scorer")
    table.add_column("hands/s", justify="right")
    table.add_column("ours / theirs", justify="right")
    table.add_column("agree with ours", justify="right")
    table.add_row("tenpai (context + evaluate)", f"{result.ours_per_s:,.0f}", "", "")
    table.add_row("tenpai (evaluate only)", f"{result.ours_evaluate_only_per_s:,.0f}", "", "")
    for peer, rate in result.peers.items():
        table.add_row(peer, f"{rate:,.0f}", f"{result.ours_per_s / rate:.3f}",
                      f"{result.agree[peer]} / {result.hands}")
    console = Console()
    console.print(table)
    for peer, examples in result.examples.items():
        for e in examples:
            console.print(f"  [yellow]{peer} differs[/yellow]: {e}")
    for name, why in result.skipped.items():
        console.print(f"[yellow]skipped {name}: {why}[/yellow]")
