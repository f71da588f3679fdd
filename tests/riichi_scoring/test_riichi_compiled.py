"""The compiled scorer (``_score.c``) against the Python yaku classes, its specification.

Random legal wins (``tenpai.rules.riichi.random_wins``) under the three presets and house-rule
variants are scored both ways and must give equal ``WinResult``s and equal payments; the C side
must answer every one of them (it may decline a context with ``NotImplemented``, but on these
it never needs to).  Bad input must raise a typed error, never crash the interpreter.
"""

from __future__ import annotations

import importlib
import os
import random
from typing import Any

import pytest

from tenpai.rules.riichi import MAHJONG_SOUL, TENHOU, TENHOU_SANMA, Meld, WinContext, preset
from tenpai.rules.riichi.compiled import load
from tenpai.rules.riichi.context import ScoringError
from tenpai.rules.riichi.evaluate import WinResult, compiled_module, evaluate, evaluate_python
from tenpai.rules.riichi.payments import payments, payments_python
from tenpai.rules.riichi.random_wins import RULE_VARIANTS, RandomWin, random_wins

_MODULE: Any = compiled_module()
_ALL_RULES = (TENHOU, MAHJONG_SOUL, TENHOU_SANMA, *RULE_VARIANTS)

needs_compiled = pytest.mark.skipif(_MODULE is None, reason="compiled scorer not built or "
                                                            "TENPAI_PURE_PYTHON set")


def test_compiled_scorer_is_in_use_when_built() -> None:
    """A built extension must not be switched off silently (a yaku table mismatch warns)."""
    try:  # by name, as tenpai.native loads it: mypy cannot read an extension module
        importlib.import_module("tenpai.rules.riichi._score")
    except ImportError:
        pytest.skip("compiled scorer not built")
    if os.environ.get("TENPAI_PURE_PYTHON"):
        assert _MODULE is None
    else:
        assert _MODULE is not None


def _differences(wins: list[RandomWin]) -> tuple[list[str], int]:
    """Disagreements (first few) and how many contexts the C side declined."""
    bad: list[str] = []
    declined = 0
    for w in wins:
        fast = _MODULE.evaluate(w.ctx)
        if fast is NotImplemented:
            declined += 1
            continue
        spec = evaluate_python(w.ctx)
        if fast != spec:
            bad.append(f"{w.ctx}\n  C:      {fast}\n  Python: {spec}")
            continue
        if spec is None:
            continue
        seats = dict(winner=w.winner, dealer=w.dealer, discarder=w.discarder, honba=w.honba,
                     kyotaku=w.kyotaku, pao=w.pao)
        got = _MODULE.payments(spec, w.ctx.rules, w.winner, w.dealer, w.discarder, w.honba,
                               w.kyotaku, w.pao)
        want = payments_python(spec, w.ctx.rules, **seats)  # type: ignore[arg-type]
        if got != want:
            bad.append(f"{w.ctx} {seats}\n  C: {got}\n  Python: {want}")
    return bad[:5], declined


@needs_compiled
def test_compiled_equals_python_on_50k_random_wins() -> None:
    wins = random_wins(50_000, seed=37, rules=_ALL_RULES)
    bad, declined = _differences(wins)
    assert not bad, "\n".join(bad)
    assert declined == 0


@needs_compiled
@pytest.mark.slow
def test_compiled_equals_python_on_a_million_random_wins() -> None:
    for chunk in range(20):
        wins = random_wins(50_000, seed=1_000 + chunk, rules=_ALL_RULES)
        bad, declined = _differences(wins)
        assert not bad, "\n".join(bad)
        assert declined == 0


@needs_compiled
def test_the_public_entry_points_take_the_compiled_path() -> None:
    wins = random_wins(300, seed=5)
    for w in wins:
        assert evaluate(w.ctx) == evaluate_python(w.ctx)
        r = evaluate(w.ctx)
        if r is None:
            continue
        seats = dict(winner=w.winner, dealer=w.dealer, discarder=w.discarder, honba=w.honba,
                     kyotaku=w.kyotaku, pao=w.pao)
        assert payments(r, w.ctx.rules, **seats) == payments_python(  # type: ignore[arg-type]
            r, w.ctx.rules, **seats)  # type: ignore[arg-type]


def test_a_yaku_table_that_differs_switches_the_compiled_path_off() -> None:
    """The load check: a yaku added or changed on one side only is refused with a warning."""
    if _MODULE is None:
        pytest.skip("compiled scorer not built")
    from tenpai.rules.riichi.yaku import ALL_YAKU
    from tenpai.rules.riichi.yaku.yakuman import Tsuuiisou

    class Changed(Tsuuiisou):
        han_closed = 26

    changed = [Changed() if y.id == "tsuuiisou" else y for y in ALL_YAKU]
    table = [(y.id, y.han_closed, y.han_open or 0, int(y.yakuman), int(y.double))
             for y in changed]
    with pytest.raises(ValueError, match="tsuuiisou"):
        _MODULE.setup(WinContext, Meld, WinResult, type(TENHOU), ScoringError, table)
    with pytest.raises(ValueError, match="yaku"):
        _MODULE.setup(WinContext, Meld, WinResult, type(TENHOU), ScoringError, table[:-1])
    assert load(WinResult) is not None  # set up again with the real table


# ----------------------------------------------------------------------------------- bad input

def _raw(**fields: Any) -> WinContext:
    """A WinContext that skipped its own checks (what only a buggy caller could build)."""
    base = dict(closed=tuple([0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 9]), win_tile=9,
                melds=(), tsumo=True, seat_wind=27, round_wind=27, riichi=False,
                double_riichi=False, ippatsu=False, haitei=False, houtei=False, rinshan=False,
                chankan=False, tenhou=False, chiihou=False, renhou=False,
                dora_indicators=(), ura_indicators=(), rules=TENHOU, nukidora=0)
    base.update(fields)
    ctx = object.__new__(WinContext)
    for k, v in base.items():
        object.__setattr__(ctx, k, v)
    return ctx


def test_impossible_hands_are_typed_errors_on_both_paths() -> None:
    with pytest.raises(ScoringError, match="copies"):
        WinContext(closed=(0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9), win_tile=9)
    with pytest.raises(ScoringError, match="tiles"):
        WinContext(closed=(0, 1, 2), win_tile=0)
    with pytest.raises(KeyError, match="unknown Riichi preset"):
        preset("tenhou_yonma")


@needs_compiled
@pytest.mark.parametrize("fields", [
    {"closed": (0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9)},  # a fifth copy
    {"closed": (0, 1, 2)},  # wrong hand size
    {"closed": (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 99), "win_tile": 99},  # no such tile
    {"closed": (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, -1), "win_tile": -1},
    {"win_tile": 20},  # not in the hand
    {"seat_wind": 5},
    {"dora_indicators": (40,)},
    {"nukidora": 9},
    {"melds": (Meld("pon", (1, 1, 1)),) * 5},
    {"closed": (0,) * 14 + (1,) * 20},
])
def test_the_compiled_path_refuses_impossible_contexts(fields: dict[str, Any]) -> None:
    with pytest.raises(ScoringError):
        _MODULE.evaluate(_raw(**fields))


@needs_compiled
@pytest.mark.parametrize("fields", [
    {"closed": "not a tuple"},
    {"closed": [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 9]},
    {"seat_wind": 27.0},
    {"dora_indicators": (5,) * 70},
    {"melds": [Meld("pon", (1, 1, 1))]},
])
def test_types_the_compiled_path_does_not_read_are_left_to_python(
        fields: dict[str, Any]) -> None:
    assert _MODULE.evaluate(_raw(**fields)) is NotImplemented


def test_integers_of_other_types_are_scored_by_python() -> None:
    """numpy integers pass WinContext's checks; the compiled path declines them, evaluate
    answers through Python."""
    np = pytest.importorskip("numpy")
    for w in random_wins(200, seed=21):
        c = w.ctx
        odd = WinContext(
            closed=tuple(np.int64(t) for t in c.closed), win_tile=np.int64(c.win_tile),
            melds=c.melds, tsumo=c.tsumo, seat_wind=np.int64(c.seat_wind),
            round_wind=c.round_wind, riichi=c.riichi, double_riichi=c.double_riichi,
            ippatsu=c.ippatsu, haitei=c.haitei, houtei=c.houtei, rinshan=c.rinshan,
            chankan=c.chankan, tenhou=c.tenhou, chiihou=c.chiihou, renhou=c.renhou,
            dora_indicators=c.dora_indicators, ura_indicators=c.ura_indicators,
            rules=c.rules, nukidora=c.nukidora)
        assert evaluate(odd) == evaluate_python(c)


@needs_compiled
def test_other_classes_are_left_to_python() -> None:
    class Ctx:
        pass

    assert _MODULE.evaluate(Ctx()) is NotImplemented
    assert _MODULE.evaluate(None) is NotImplemented
    assert _MODULE.evaluate(_raw(rules=object())) is NotImplemented


_GARBAGE: tuple[Any, ...] = (None, -1, 0, 1, 36, 37, 2**70, -(2**70), 3.5, "x", b"x", (), (1,),
                             tuple(range(14)), (0,) * 14, [0] * 14, object(), True, {}, (None,))


@needs_compiled
def test_fuzz_garbage_never_crashes() -> None:
    """Random garbage in every field: a result, None, NotImplemented or a typed error."""
    rng = random.Random(7)
    names = ("closed", "win_tile", "melds", "tsumo", "seat_wind", "round_wind", "riichi",
             "dora_indicators", "ura_indicators", "rules", "nukidora", "renhou")
    good = random_wins(50, seed=9)
    for i in range(4_000):
        w = good[i % len(good)].ctx
        fields = {n: getattr(w, n) for n in WinContext.__dataclass_fields__}
        for _ in range(rng.randint(1, 3)):
            name = rng.choice(names)
            if name == "melds" and rng.random() < 0.5:
                fields[name] = tuple(rng.choice(_GARBAGE) for _ in range(rng.randint(0, 5)))
            elif name == "closed" and rng.random() < 0.5:
                fields[name] = tuple(rng.randrange(-3, 40) for _ in range(rng.randint(0, 16)))
            else:
                fields[name] = rng.choice(_GARBAGE)
        try:
            out = _MODULE.evaluate(_raw(**fields))
        except (ScoringError, TypeError):
            continue
        assert out is None or out is NotImplemented or isinstance(out, WinResult)
        if isinstance(out, WinResult):
            for args in ((0, 0, None, 0, 0, None), (1, 0, 2, -1, 0, None), (0, 0, 0, 0, 0, 0),
                         (rng.choice(_GARBAGE),) * 6, (0, 1, 9, 0, 0, 2**70)):
                got = _MODULE.payments(out, TENHOU, *args)
                assert got is NotImplemented or isinstance(got, list)


@needs_compiled
def test_payments_refusals_keep_the_python_messages() -> None:
    w = next(x for x in random_wins(50, seed=3) if evaluate(x.ctx) is not None and x.ctx.tsumo)
    r = evaluate(w.ctx)
    assert r is not None
    with pytest.raises(ScoringError, match="tsumo result takes no discarder"):
        payments(r, w.ctx.rules, winner=w.winner, dealer=w.dealer,
                 discarder=(w.winner + 1) % w.ctx.rules.players)
    with pytest.raises(ScoringError, match="not a seat"):
        payments(r, w.ctx.rules, winner=7, dealer=w.dealer)


# ----------------------------------------------------------------------------- constructors

def _construct(cls: type, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    try:
        obj = cls(*args, **kwargs)
    except Exception as err:
        return ("raised", type(err), str(err))
    fields = [getattr(obj, f, "<unset>") for f in cls.__slots__]  # type: ignore[attr-defined]
    return ("built", fields)


@needs_compiled
def test_compiled_constructors_equal_the_dataclass_ones() -> None:
    """WinContext/Meld built by the extension equal the dataclass-built ones, and every input
    the checks refuse is refused with the same typed error and message."""
    rng = random.Random(11)
    wins = random_wins(600, seed=12, rules=_ALL_RULES)
    cases: list[tuple[type, tuple[Any, ...], dict[str, Any]]] = []
    for w in wins:
        kw = {f: getattr(w.ctx, f) for f in WinContext.__dataclass_fields__}
        cases.append((WinContext, (), dict(kw)))
        cases.append((WinContext, (kw.pop("closed"), kw.pop("win_tile")), dict(kw)))
        for m in w.ctx.melds:
            cases.append((Meld, (m.kind, m.tiles), {"from_seat": m.from_seat}))
        broken = {f: getattr(w.ctx, f) for f in WinContext.__dataclass_fields__}
        name = rng.choice(["closed", "win_tile", "seat_wind", "riichi", "ippatsu", "rinshan",
                           "haitei", "tenhou", "renhou", "nukidora", "dora_indicators",
                           "melds", "tsumo", "chankan", "double_riichi"])
        broken[name] = rng.choice((*_GARBAGE, True, False, 27, 30, 33, (34, 34)))
        cases.append((WinContext, (), broken))
        if rng.random() < 0.3:
            cases.append((WinContext, (), {**broken, "unknown_field": 1}))
    for kind in ("chi", "pon", "daiminkan", "kakan", "ankan", "kan", 5):
        for tiles in ((0, 1, 2), (1, 1, 1), (34, 4, 4), (4, 4, 4, 34), (7, 8, 9), (27, 28, 29),
                      (1, 2), [1, 1, 1], (1, 1, 1, 1), (0, 1, 40)):
            for seat in (None, 0, 3, 4, -1, True):
                cases.append((Meld, (kind, tiles, seat), {}))
    cases.append((Meld, (), {"kind": "pon"}))
    cases.append((Meld, ("pon", (1, 1, 1), None, 2), {}))
    for cls, args, kwargs in cases:
        fast = _construct(cls, args, kwargs)
        _MODULE.uninstall_constructors()
        try:
            spec = _construct(cls, args, kwargs)
        finally:
            load(WinResult)
        assert fast == spec, (cls.__name__, args, kwargs)
