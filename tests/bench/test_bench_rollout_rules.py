"""``tenpai bench rollout --rules riichi|mcr``: the MCR bench's sides play the worlds they say
(the core every world ``--playouts`` times, the Python reference the first ``--python-worlds``
once, the core those same worlds for the ratio), its hands end alike on both sides, a preset
the compiled MCR playouts do not play and an unknown rule set are refused in one line, and the
Riichi bench's JSON keeps its keys.  Speed is never asserted."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from cli.refusal import one_line
from tenpai.bench import mcr_rollout
from tenpai.cli.main import app
from tenpai.rules.riichi import rollout as riichi_rollout
from tenpai.search.mcr import compiled

needs_mcr_core = pytest.mark.skipif(not compiled.available(),
                                    reason="the compiled MCR rollout core is not built")


def _json(args: list[str]) -> dict[str, Any]:
    res = CliRunner().invoke(app, ["bench", "rollout", *args, "--json"])
    assert res.exit_code == 0, (res.output[-1500:], res.exception)
    line = [ln for ln in res.stdout.splitlines() if ln.startswith("{")][-1]
    out: dict[str, Any] = json.loads(line)
    return out


@needs_mcr_core
def test_mcr_sides_play_the_worlds_they_say_and_end_alike() -> None:
    s = _json(["--rules", "mcr", "--preset", "botzone", "--worlds", "3", "--playouts", "2",
               "--python-worlds", "2", "--repeat", "1", "--seed", "5"])
    assert (s["rules"], s["preset"], s["worlds"], s["seeds"], s["python_worlds"],
            s["repeat"]) == ("mcr", "botzone", 3, 2, 2, 1)
    for policy in ("greedy", "greedy-fold"):
        assert s[f"c:{policy} hands/pass"] == 3 * 2
        assert s[f"c:{policy} on the Python worlds hands/pass"] == 2 * 2
        assert s[f"python:{policy} hands/pass"] == 2
        assert s[f"{policy} agreement"] == 2 and s[f"{policy} uncovered"] == 0
        assert s[f"{policy} speed-up min"] <= s[f"{policy} speed-up"] <= s[
            f"{policy} speed-up max"]
        assert s[f"{policy} speed-up"] > 0 and len(s[f"{policy} speed-up per pass"]) == 1
    assert s["python:efficiency hands/pass"] == 2
    assert "efficiency speed-up" not in s  # no compiled twin, so no ratio
    sides = {k.removesuffix(" hands/cpu_s median") for k in s
             if k.endswith(" hands/cpu_s median")}
    assert sides == {"c:greedy", "c:greedy on the Python worlds", "python:greedy",
                     "c:greedy-fold", "c:greedy-fold on the Python worlds",
                     "python:greedy-fold", "python:efficiency"}


@needs_mcr_core
def test_mcr_bench_passes_interleave_and_worlds_are_seeded() -> None:
    bench = mcr_rollout.run_mcr_rollout_bench(worlds=2, seeds=1, python_worlds=3, repeat=2,
                                              seed=1)
    assert all(len(v) == 2 and min(v) > 0 for v in bench.rates.values())
    assert all(len(v) == 2 for v in bench.ratios.values())
    # more Python worlds than worlds: the Python worlds are still played by both sides
    assert bench.hands["c:greedy"] == 2 and bench.hands["c:greedy on the Python worlds"] == 3
    assert bench.agree == {"greedy": 3, "greedy-fold": 3}
    a, b = mcr_rollout.hand_starts(3, seed=7), mcr_rollout.hand_starts(3, seed=7)
    assert [compiled.export_state(w) for w in a] == [compiled.export_state(w) for w in b]
    assert all(w.rules.name == "botzone" and w.phase == "act" for w in a)


@pytest.mark.parametrize(("args", "words"), [
    (["--rules", "mcr", "--preset", "tenhou"], ("--preset", "botzone")),
    (["--rules", "mcr", "--preset", "mcr_official"], ("--preset", "botzone")),
    (["--rules", "go"], ("--rules", "riichi or mcr")),
])
def test_flags_that_mean_nothing_are_refused_in_one_line(args: list[str],
                                                         words: tuple[str, ...]) -> None:
    res = CliRunner().invoke(app, ["bench", "rollout", *args, "--worlds", "1", "--repeat", "1"])
    one_line(res, *words)


def test_a_missing_mcr_core_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled, "available", lambda: False)
    monkeypatch.setattr(compiled, "unavailable_reason",
                        lambda: "the compiled MCR rollout core is not built")
    res = CliRunner().invoke(app, ["bench", "rollout", "--rules", "mcr", "--worlds", "1"])
    one_line(res, "not built")


@pytest.mark.skipif(not riichi_rollout.available(), reason="the Riichi rollout core is not built")
def test_riichi_stays_the_default_with_its_keys() -> None:
    s = _json(["--worlds", "2", "--playouts", "1", "--repeat", "1"])
    sides = ("c:fast", "c:fast-kan", "c:greedy", "c:greedy-fold", "c:greedy-fold+solo",
             "c:efficiency", "python:fast", "python:fast-kan", "python:greedy",
             "python:greedy-fold", "python:greedy-fold+solo")
    want = {"preset", "worlds", "seeds", "python_worlds", "repeat",
            *(f"{side} hands/cpu_s {m}" for side in sides for m in ("median", "min", "max")),
            *(f"{p} speed-up" for p in ("fast", "fast-kan", "greedy", "greedy-fold")),
            "greedy-fold solo / playout"}
    assert set(s) == want and (s["preset"], s["python_worlds"]) == ("tenhou", 10)
