"""The player's fixes of issue 15, each pinned on a case where the first version chose worse.

* eq. 17 at shanten 2-3 with nobody in riichi: the uncalibrated shanten chain rated a wider
  but farther hand above the current shanten, so the player broke shanten (seeded position);
* eq. 17's P(lose): the discard's own deal-in is counted before FS's folding risk of the rest;
* the chain's look-ahead level equals a brute-force count with the hand kernel;
* exact ties between discards go to the efficiency order.
"""

from __future__ import annotations

from typing import Any

import pytest

from tenpai import tiles as T
from tenpai.agents.efficiency import EfficiencyAgent
from tenpai.hand import shanten, ukeire
from tenpai.mdp.agent import MDPAgent
from tenpai.mdp.chain import improving_kinds, next_level_tiles
from tenpai.mdp.player import scenario_lose
from tenpai.mdp.settings import Settings
from tenpai.rules.riichi.game import RiichiGame
from tenpai.rules.riichi.ruleset import TENHOU

OLD = Settings(chain_measured_levels=1, far_keep_shanten=False, efficiency_ties=False,
               far_lose_after_discard=False)


def _decision_at(seed: int, step: int) -> Any:
    """Seat 0's pending decision after ``step`` steps of an all-``efficiency`` seeded game."""
    game = RiichiGame(TENHOU.with_(length="tonpuu"), seed=seed)
    agents = [EfficiencyAgent(i) for i in range(4)]
    for _ in range(step):
        game.step({d.seat: agents[d.seat].act(d.observation, d.legal) for d in game.pending()})
    return next(d for d in game.pending() if d.seat == 0)


def _shanten_after(counts: list[int], pai: int | None) -> int:
    assert pai is not None
    w = list(counts)
    w[T.kind_of(pai)] -= 1
    return shanten(w)


def test_quiet_far_hand_keeps_its_shanten() -> None:
    # Seed 1, step 55: seat 0 holds a shanten-2 hand, nobody is in riichi.  The first version
    # threw a tile that made the hand shanten 3 (it rated the wider farther hand higher).
    d = _decision_at(1, 55)
    obs = d.observation
    assert not any(obs.riichi)
    counts = list(obs.counts)
    best = min(_shanten_after(counts, e.pai) for e in d.legal if e.type == "dahai")
    assert best == 2
    old = MDPAgent(settings=OLD).act(obs, d.legal)
    assert _shanten_after(counts, old.pai) > best  # the bug this test pins
    new = MDPAgent().act(obs, d.legal)
    assert new.type == "dahai" and _shanten_after(counts, new.pai) == best


@pytest.mark.parametrize(("now", "fold"), [(0.04, 0.05), (0.0, 0.3), (0.2, 0.1)])
def test_discard_risk_counts_before_folding_risk(now: float, fold: float) -> None:
    p = scenario_lose(now, 0.0, fold)
    assert p == pytest.approx(now + (1 - now) * fold)
    assert p >= max(now, fold)


def test_dangerous_discard_no_longer_hidden_by_folding_risk() -> None:
    # A 4 % tile leaving a hand that folds at 5 % against a 2 % tile leaving 6 %: the first
    # form ranked the dangerous tile safer (max hides it), the corrected one does not.
    risky, safe = (0.04, 0.05), (0.02, 0.06)
    assert scenario_lose(*risky[:1], 0.0, risky[1], False) < scenario_lose(
        *safe[:1], 0.0, safe[1], False)
    assert scenario_lose(risky[0], 0.0, risky[1]) > scenario_lose(safe[0], 0.0, safe[1])


def test_next_level_tiles_equals_brute_force() -> None:
    hand = bytes(T.parse_counts("13m68m2p57p356s177z"))
    assert sum(hand) == 13
    unseen = [max(0, 4 - c) for c in hand]
    now, good = improving_kinds(hand)
    assert now == shanten(list(hand)) and now >= 1
    acc = 0.0
    total = 0
    for c in good:
        w = list(hand)
        w[c] += 1
        best = 0
        for j in range(34):
            if w[j] and j != c:
                w[j] -= 1
                if shanten(w) < now:
                    visible = [4 - u for u in unseen]
                    best = max(best, ukeire(w, visible).total)
                w[j] += 1
        acc += unseen[c] * best
        total += unseen[c]
    assert next_level_tiles(hand, unseen) == pytest.approx(acc / total)


def test_riichi_chain_uses_the_folding_factor_terms() -> None:
    # Ready on a single wait (5p), riichi allowed, two draws left, no ron.  The riichi chain
    # R_r = u_w T + sum_{c not w} u_c (a'_c + d (1 - b'_c) + b'_c R_{r-1}), R_0 = W + d, with
    # a', b' the folding-scaled terms (001 §VI-E); computed here by hand for r = 2.
    import numpy as np

    from tenpai.mdp.solver import Payoffs, build_edges, solve
    from tenpai.mdp.space import build_space

    hand = bytes(T.parse_counts("123m456m789m123p5p"))
    unseen = [0 if hand[k] else 2 for k in range(34)]
    unseen[13] = 3
    u = np.array(unseen, dtype=float) / sum(unseen)
    lose = np.full(34, 0.05)
    o, vl, vo, d, win, wash = 0.1, -3.0, -2.5, -0.05, -1.0, -2.2
    f = 0.5

    def ab(scale: float) -> tuple[np.ndarray, np.ndarray]:
        lr, orr = lose * scale, o * scale
        return lr * vl + (1 - lr) * orr * vo, (1 - lr) * (1 - orr)

    a, b = ab(1.0)
    ra, rb = ab(f)
    space = build_space([hand], 0, unseen, 10)
    edges = build_edges(space, unseen)
    nt = len(edges.tenpai)
    pay = Payoffs(u, a, b, lambda i, c, r: win, np.zeros(1), np.zeros(1), np.zeros(nt),
                  np.zeros(nt), np.full(1, wash), np.full(nt, wash), d, True, ra, rb)
    sol = solve(space, edges, pay, 2)
    miss = np.ones(34, dtype=bool)
    miss[13] = False
    r0 = wash + d
    r1 = u[13] * win + float(u[miss] @ (ra[miss] + d * (1 - rb[miss]) + rb[miss] * r0))
    r2 = u[13] * win + float(u[miss] @ (ra[miss] + d * (1 - rb[miss]) + rb[miss] * r1))
    assert sol.r[2, 0] == pytest.approx(r2)
    # Folding opponents make the riichi worth more than without the factor.
    plain = Payoffs(u, a, b, lambda i, c, r: win, np.zeros(1), np.zeros(1), np.zeros(nt),
                    np.zeros(nt), np.full(1, wash), np.full(nt, wash), d, True)
    assert solve(space, edges, plain, 2).r[2, 0] < sol.r[2, 0]


def _first_threatened_decision(seed: int, max_shanten: int) -> Any:
    """Seat 0's first own-turn decision facing a riichi with a hand at most ``max_shanten``
    from ready, in an all-``efficiency`` seeded game (None if the game has none)."""
    game = RiichiGame(TENHOU.with_(length="tonpuu"), seed=seed)
    agents = [EfficiencyAgent(i) for i in range(4)]
    while not game.done:
        for d in game.pending():
            obs = d.observation
            if (d.seat == 0 and any(e.type == "dahai" for e in d.legal) and any(obs.riichi[1:])
                    and not obs.riichi[0]
                    and min(_shanten_after(list(obs.counts), e.pai) for e in d.legal
                            if e.type == "dahai") <= max_shanten):
                return d
        game.step({d.seat: agents[d.seat].act(d.observation, d.legal) for d in game.pending()})
    return None


def test_root_fold_is_offered_against_a_riichi() -> None:
    # Facing a riichi at shanten <= 1, a discard that breaks the hand leaves an IPS root that
    # can only throw back random draws; with the FS fold at the root it is valued as folding.
    d = _first_threatened_decision(2, 1)
    assert d is not None
    dec = MDPAgent().explain(d.observation, d.legal)
    ips_values = [v for v in dec.values if "ips" in v.terms]
    assert ips_values and all("fold" in v.terms for v in ips_values)
    for v in ips_values:
        assert v.value == pytest.approx(max(v.terms["ips"], v.terms["fold"]))
    assert any(v.terms["fold"] > v.terms["ips"] for v in ips_values)
    off = MDPAgent(settings=Settings(root_fold=False)).explain(d.observation, d.legal)
    assert all("fold" not in v.terms for v in off.values)


def test_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from tenpai.mdp.agent import ENV_SETTINGS, settings_from_env

    monkeypatch.delenv(ENV_SETTINGS, raising=False)
    assert settings_from_env() == Settings()
    monkeypatch.setenv(ENV_SETTINGS, '{"root_fold": false, "riichi_fold_factors": [1, 1]}')
    s = settings_from_env()
    assert s.root_fold is False and s.riichi_fold_factors == (1, 1)
    monkeypatch.setenv(ENV_SETTINGS, '{"no_such_field": 1}')
    with pytest.raises(ValueError, match="unknown Settings fields"):
        settings_from_env()
    monkeypatch.setenv(ENV_SETTINGS, "{not json")
    with pytest.raises(ValueError, match="not JSON"):
        settings_from_env()
