"""The defensive agent: danger estimates by hand, safe-tile bookkeeping, folding in real games."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from tenpai import tiles as T
from tenpai.agents import make_agent
from tenpai.agents.defensive import DefensiveAgent, _safe_kinds, danger, find_threats
from tenpai.engine.runner import play
from tenpai.events import Event
from tenpai.hand import shanten
from tenpai.rules.riichi.game import RiichiGame
from tenpai.rules.riichi.ruleset import TENHOU

M = {n: n - 1 for n in range(1, 10)}  # 1m..9m kinds
NONE_SEEN = [0] * 34


def test_genbutsu_is_safe_and_suji_beats_non_suji() -> None:
    five = M[5]
    assert danger(five, frozenset({five}), NONE_SEEN) == 0.0
    # Two two-sided shapes (4 each), a closed wait (1) and pair waits (1.5) on a middle tile.
    assert danger(five, frozenset(), NONE_SEEN) == pytest.approx(10.5)
    assert danger(five, frozenset({M[2]}), NONE_SEEN) == pytest.approx(6.5)  # half suji
    assert danger(five, frozenset({M[2], M[8]}), NONE_SEEN) == pytest.approx(2.5)  # full suji
    assert danger(M[1], frozenset(), NONE_SEEN) == pytest.approx(5.5)
    assert danger(M[1], frozenset({M[4]}), NONE_SEEN) == pytest.approx(1.5)


def test_kabe_and_one_chance_lower_the_two_sided_danger() -> None:
    wall = NONE_SEEN.copy()
    wall[M[2]] = 4  # all 2m seen: no 2-3 shape can wait on 1m
    assert danger(M[1], frozenset(), wall) == pytest.approx(1.5)
    one_chance = NONE_SEEN.copy()
    one_chance[M[2]] = 3
    assert danger(M[1], frozenset(), one_chance) == pytest.approx(2 + 1.5)


def test_honour_danger_follows_the_copies_left() -> None:
    east = 27
    seen = NONE_SEEN.copy()
    dangers = []
    for copies in range(5):
        seen[east] = copies
        dangers.append(danger(east, frozenset(), seen))
    assert dangers == sorted(dangers, reverse=True)
    assert dangers[4] == 0.0 and dangers[3] < 1.0


def test_safe_kinds_include_discards_passed_after_riichi_only() -> None:
    t = T.parse
    events = [
        Event("dahai", actor=2, pai=t("9s")[0]),  # before the riichi: not safe for seat 1
        Event("dahai", actor=1, pai=t("3m")[0]),
        Event("reach", actor=1),
        Event("dahai", actor=1, pai=t("5p")[0]),
        Event("reach_accepted", actor=1),
        Event("dahai", actor=2, pai=t("7s")[0]),
    ]
    kinds = {T.to_compact([k]) for k in _safe_kinds(events, 1, in_riichi=True)}
    assert kinds == {"3m", "5p", "7s"}
    assert {T.to_compact([k]) for k in _safe_kinds(events, 1, in_riichi=False)} == {"3m", "5p"}


class _Watcher:
    """Wraps the defensive agent and checks each folding discard against one riichi.

    The check is independent of the agent's danger table: holding an absolutely safe tile, a
    folding hand must discard one.
    """

    def __init__(self, seed: int) -> None:
        self.inner = DefensiveAgent(seed)
        self.name = "watched"
        self.checked = 0
        self.unsafe: list[str] = []

    def act(self, obs: Any, legal: Sequence[Event]) -> Event:
        action = self.inner.act(obs, legal)
        threats = find_threats(obs)
        riichi = [t for t in threats if obs.riichi[t.seat]]
        own = obs.counts
        if (
            len(threats) == 1
            and riichi
            and action.type == "dahai"
            and sum(own) % 3 == 2
            and shanten(own) >= 2  # too far to push: it must fold
        ):
            # Absolutely safe: genbutsu, or an honour whose other copies are all in sight.
            seen = [v + c for v, c in zip(obs.visible_counts(), own)]
            safe = riichi[0].safe | {k for k in range(27, 34) if seen[k] == 4}
            held = [k for k in range(34) if own[k] and k in safe]
            if held:
                self.checked += 1
                assert action.pai is not None
                if T.kind_of(action.pai) not in safe:
                    self.unsafe.append(T.to_compact(obs.hand))
        return action

    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]:
        return [self.act(o, legal) for o, legal in requests]


def test_folds_with_genbutsu_against_a_riichi_in_real_games() -> None:
    rules = TENHOU.with_(length="tonpuu")
    checked = 0
    for seed in range(12):
        watcher = _Watcher(seed)
        agents = [watcher, *(make_agent("efficiency", seed * 4 + i) for i in range(1, 4))]
        play(RiichiGame(rules, seed=seed), agents)
        assert watcher.unsafe == [], f"seed {seed}: unsafe fold from {watcher.unsafe}"
        checked += watcher.checked
    assert checked >= 10, "too few folding decisions were exercised"


def test_it_is_registered() -> None:
    assert make_agent("defensive", 3).name == "defensive"


@pytest.mark.slow
def test_defensive_beats_efficiency_by_a_confirmed_margin(tmp_path: Any) -> None:
    """400 tonpuu games (about two minutes): ``-m slow``."""
    from tenpai.arena.runner import make_config, run_tournament
    from tenpai.arena.stats import paired_test
    from tenpai.arena.store import ResultsStore

    config, _ = make_config(
        "riichi", ("defensive", "efficiency", "efficiency", "efficiency"), 400, 7
    )
    with ResultsStore(tmp_path / "d.db") as store:
        run_tournament(config, store, workers=1, progress=False)
        test = paired_test(store.seat_rows(), "defensive", "efficiency")
    assert test.high < 0, f"interval {test.low:+.3f}..{test.high:+.3f} does not exclude 0"
    assert test.p_a_better < 0.01


def test_open_hands_without_a_visible_yaku_are_not_threats() -> None:
    from types import SimpleNamespace

    from tenpai.agents.defensive import _shows_a_yaku
    from tenpai.engine.meld import Meld

    def meld(kind: str, text: str) -> Meld:
        return Meld(kind, tuple(T.parse(text)))  # type: ignore[arg-type]

    table = SimpleNamespace(oya=0, bakaze=0)
    mixed_chis = [meld("chi", "123m"), meld("chi", "789p"), meld("chi", "345s")]
    assert not _shows_a_yaku(mixed_chis, table, 1)
    assert _shows_a_yaku([meld("chi", "234m"), meld("chi", "567p"), meld("pon", "888s")], table, 1)
    assert _shows_a_yaku([meld("chi", "123m"), meld("pon", "999m"), meld("pon", "111z")], table, 1)
    assert _shows_a_yaku([meld("pon", "777z"), meld("chi", "123m")], table, 1)  # chun pon
    assert _shows_a_yaku([meld("pon", "111m"), meld("pon", "999p")], table, 1)  # all pons
    south_pon = [meld("pon", "222z"), meld("chi", "123m"), meld("chi", "789p")]
    assert _shows_a_yaku(south_pon, table, 1)  # South is seat 1's own wind
    assert not _shows_a_yaku(south_pon, table, 2)  # but not West's, nor the East round's
