"""The compiled fan evaluator (``_fans.c``) against the Python fan classes, its specification.

Every comparison is of whole results: the fan list (class and count, in order), the total, the
flowers and the shape of the chosen reading.  Hands come from
:mod:`tenpai.rules.mcr.handgen` (every shape, melds and kongs of every kind, self-drawn,
last tile, robbed kong, replacement tile, last copy, flowers) plus near misses that do not win,
so ``None`` is compared too.  The C side may answer ``NotImplemented`` for a case it leaves to
Python; the tests count those (none so far) and require at least 99.9 % coverage.

    PYTHONPATH=src .venv/bin/pytest tests/mcr_scoring/test_mcr_compiled.py -m slow   # 1,000,000

Skipped when the extension is not built or ``TENPAI_PURE_PYTHON`` is set.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections import Counter
from types import SimpleNamespace
from typing import Any, cast

import pytest

from tenpai.rules.mcr import MCRContext, MCRInputError, Meld, evaluate
from tenpai.rules.mcr.evaluate import compiled_available, evaluate_compiled, evaluate_python
from tenpai.rules.mcr.handgen import random_context, random_contexts
from tenpai.tiles import to_compact

pytestmark = pytest.mark.skipif(not compiled_available(),
                                reason="the MCR C extension is not built / disabled")


def _describe(ctx: MCRContext) -> str:
    melds = " ".join(f"{m.kind}:{to_compact(m.tiles)}" for m in ctx.melds)
    return (f"{to_compact(ctx.concealed)} [{melds}] win {to_compact([ctx.win_tile])} "
            f"self_drawn={ctx.self_drawn} seat={ctx.seat_wind} round={ctx.prevalent_wind} "
            f"last_tile={ctx.last_tile} replacement={ctx.kong_replacement} "
            f"robbing={ctx.robbing_kong} last_copy={ctx.last_copy} flowers={ctx.flowers}")


def _near_miss(rng: random.Random) -> MCRContext | None:
    """A winning hand with one concealed tile (not the winning one) changed: mostly no win."""
    ctx = random_context(rng)
    tiles = list(ctx.concealed)
    spots = [i for i, t in enumerate(tiles) if t != ctx.win_tile]
    if not spots:
        return None
    tiles[rng.choice(spots)] = rng.randrange(34)
    try:
        return MCRContext(tuple(tiles), ctx.win_tile, ctx.melds, self_drawn=ctx.self_drawn,
                          seat_wind=ctx.seat_wind, prevalent_wind=ctx.prevalent_wind,
                          flowers=ctx.flowers)
    except MCRInputError:
        return None


def _compare(contexts: Any) -> tuple[int, list[str], Counter[str]]:
    """(hands compared, disagreements, fans seen); NotImplemented answers are counted in
    the Counter under ``"<python>"``."""
    bad: list[str] = []
    seen: Counter[str] = Counter()
    n = 0
    for ctx in contexts:
        n += 1
        theirs = evaluate_compiled(ctx)
        if theirs is NotImplemented:
            seen["<python>"] += 1
            continue
        ours = evaluate_python(ctx)
        if ours != theirs:
            bad.append(f"{_describe(ctx)}\n  python {ours}\n  C      {theirs}")
        if ours is None:
            seen["<no win>"] += 1
        else:
            seen.update(ours.counts())
    return n, bad, seen


def test_fifty_thousand_random_wins_agree() -> None:
    n, bad, seen = _compare(random_contexts(50_000, seed=37))
    assert not bad, f"{len(bad)} disagreements:\n" + "\n".join(bad[:10])
    assert seen["<python>"] <= n // 1000, f"C left {seen['<python>']} of {n} hands to Python"
    assert len(set(seen) - {"<python>", "<no win>"}) >= 80, sorted(seen)


def test_near_misses_agree_including_no_win() -> None:
    rng = random.Random(5)
    contexts = [c for c in (_near_miss(rng) for _ in range(5000)) if c is not None]
    n, bad, seen = _compare(contexts)
    assert not bad, "\n".join(bad[:10])
    assert seen["<no win>"] > n // 2  # the comparison really covers refusals


def test_evaluate_uses_the_compiled_path() -> None:
    ctx = next(random_contexts(1, seed=1))
    result = evaluate(ctx)
    assert result == evaluate_python(ctx)
    assert result is not None and result.meets_minimum in (True, False)


@pytest.mark.slow
def test_a_million_random_wins_agree(request: pytest.FixtureRequest) -> None:
    if "slow" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("long check: run with -m slow")
    n, bad, seen = _compare(random_contexts(1_000_000, seed=2026))
    assert n == 1_000_000
    assert not bad, f"{len(bad)} disagreements:\n" + "\n".join(bad[:20])
    assert seen["<python>"] <= n // 1000


# ---------------------------------------------------------------------------
# Bad input: a typed error, never a crash.
# ---------------------------------------------------------------------------

def _ns_context(ctx: MCRContext, **changes: Any) -> SimpleNamespace:
    fields = {name: getattr(ctx, name) for name in (
        "concealed_counts", "win_tile", "melds", "self_drawn", "seat_wind", "prevalent_wind",
        "last_tile", "kong_replacement", "robbing_kong", "last_copy", "flowers")}
    fields.update(changes)
    return SimpleNamespace(**fields)


def _compiled_ns(ns: SimpleNamespace) -> Any:
    """The compiled evaluator on a hand-made context, possibly malformed: deliberately not an
    MCRContext (whose constructor would refuse bad fields before the compiled checks run), hence
    the cast."""
    return evaluate_compiled(cast(MCRContext, ns))


def test_a_fifth_copy_is_refused() -> None:
    ctx = MCRContext(tuple([0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 8]), 8)
    counts = list(ctx.concealed_counts)
    counts[8] = 5
    counts[0] = 2
    with pytest.raises(MCRInputError, match="0-4"):
        _compiled_ns(_ns_context(ctx, concealed_counts=tuple(counts)))
    pung = SimpleNamespace(kind="pung", base=8)
    counts = list(ctx.concealed_counts)
    counts[8] = 2
    counts[3] = 0
    with pytest.raises(MCRInputError, match="copies"):
        _compiled_ns(_ns_context(ctx, concealed_counts=tuple(counts), melds=(pung,)))


def test_a_tampered_context_object_is_refused() -> None:
    """The extension reads MCRContext's slots directly; a frozen context changed behind its
    checks (object.__setattr__) must still be refused, not trusted."""
    ctx = MCRContext(tuple([0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 8]), 8)
    counts = list(ctx.concealed_counts)
    counts[8], counts[0] = 5, 2
    object.__setattr__(ctx, "concealed_counts", tuple(counts))
    with pytest.raises(MCRInputError, match="0-4"):
        evaluate_compiled(ctx)
    ctx = MCRContext(tuple([0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 8]), 8)
    object.__setattr__(ctx, "win_tile", 99)
    with pytest.raises(MCRInputError, match="win_tile"):
        evaluate_compiled(ctx)
    meld = Meld.pung(8)
    ctx = MCRContext(tuple([0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8]), 8, (meld,))
    object.__setattr__(meld, "base", -3)
    with pytest.raises(MCRInputError, match="base"):
        evaluate_compiled(ctx)


def test_a_hand_of_the_wrong_size_is_refused() -> None:
    ctx = MCRContext(tuple([0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 8]), 8)
    counts = list(ctx.concealed_counts)
    counts[1] = 0
    with pytest.raises(MCRInputError, match="13 concealed tiles"):
        _compiled_ns(_ns_context(ctx, concealed_counts=tuple(counts)))
    with pytest.raises(MCRInputError, match="34"):
        _compiled_ns(_ns_context(ctx, concealed_counts=(1,) * 14))
    with pytest.raises(MCRInputError, match="melds"):
        _compiled_ns(_ns_context(ctx, melds=(Meld.chow(0),) * 5))


def _garbage(rng: random.Random) -> Any:
    return rng.choice((-1, 0, 1, 3, 4, 5, 9, 33, 34, 37, 99, 2**70, "x", None, 1.5, (), [1]))


def _fuzzed(rng: random.Random) -> SimpleNamespace:
    ctx = random_context(rng)
    ns = _ns_context(ctx)
    missing = ""
    for _ in range(rng.randint(1, 3)):
        what = rng.randrange(6)
        if what == 0:
            counts = list(ctx.concealed_counts)
            counts[rng.randrange(34)] = _garbage(rng)
            cut = counts[:rng.randrange(40)]
            ns.concealed_counts = tuple(counts) if rng.random() < 0.8 else cut
        elif what == 1:
            ns.win_tile = _garbage(rng)
        elif what == 2:
            ns.melds = tuple(SimpleNamespace(kind=rng.choice(("chow", "pung", "exposed_kong",
                                                               "concealed_kong", "kong", 3)),
                                             base=_garbage(rng))
                             for _ in range(rng.randint(0, 5)))
        elif what == 3:
            setattr(ns, rng.choice(("seat_wind", "prevalent_wind", "flowers")), _garbage(rng))
        elif what == 4:
            counts = [0] * 34
            for _ in range(rng.choice((11, 14, 14, 15))):
                counts[rng.randrange(34)] += 1
            ns.concealed_counts = tuple(counts)
            ns.melds = ns.melds[:1] if sum(counts) == 11 else ()
        else:
            missing = rng.choice(("melds", "flowers", "win_tile", "self_drawn"))
    if missing:
        delattr(ns, missing)
    return ns


def test_fuzzed_contexts_raise_typed_errors_or_agree() -> None:
    rng = random.Random(99)
    outcomes: Counter[str] = Counter()
    for _ in range(20_000):
        ns = _fuzzed(rng)
        try:
            got = _compiled_ns(ns)
        except (MCRInputError, AttributeError) as err:
            outcomes[type(err).__name__] += 1
            continue
        outcomes["answered"] += 1
        # A context the checks let through must be one Python can score the same way.
        try:
            ctx = MCRContext(
                tuple(k for k in range(34) for _ in range(ns.concealed_counts[k])),
                ns.win_tile, tuple(Meld(m.kind, (m.base,) * 3 if m.kind == "pung" else
                                        (m.base, m.base + 1, m.base + 2) if m.kind == "chow"
                                        else (m.base,) * 4, 1 if m.kind != "concealed_kong"
                                        else 0) for m in ns.melds),
                self_drawn=ns.self_drawn, seat_wind=ns.seat_wind,
                prevalent_wind=ns.prevalent_wind, last_tile=ns.last_tile,
                kong_replacement=ns.kong_replacement, robbing_kong=ns.robbing_kong,
                last_copy=ns.last_copy, flowers=ns.flowers)
        except MCRInputError:
            continue  # a situation only MCRContext checks (robbing + self-drawn, ...)
        if ctx.last_copy == ns.last_copy:
            assert got == evaluate_python(ctx), _describe(ctx)
    assert outcomes["MCRInputError"] > 5000 and outcomes["answered"] > 1000, outcomes


def test_pure_python_switch_turns_the_compiled_path_off() -> None:
    code = ("from tenpai.rules.mcr.evaluate import compiled_available;"
            "print(compiled_available())")
    env = {**os.environ, "TENPAI_PURE_PYTHON": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "False"
