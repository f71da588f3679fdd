"""``TENPAI_SEARCH_CALL_Z_SCALE``: a lower bar for a call that replaces the prior's pass.

The paired rule leaves the prior's choice only on a paired gain of ``z`` standard errors.  At
an offer to call whose prior choice is the pass, the setting asks a call for ``z × scale``
instead; every other change (the pass over the prior's call, a discard over another) keeps
``z``.  The worlds and playouts are the same, so the only answers that move are calls the
search found better on average but by less than ``z`` standard errors.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from tenpai.agents.efficiency import EfficiencyAgent
from tenpai.cli.main import app
from tenpai.events import Event
from tenpai.search.agent import SearchAgent, make_search_agent
from tenpai.search.choice import choose_paired, paired_advantage
from tenpai.search.prior import AgentPrior, Candidate
from tenpai.search.settings import SearchSettings

from .helpers import decisions

PON = Event("pon", actor=1, target=0, pai=5, consumed=(5, 5))
CHI = Event("chi", actor=1, target=0, pai=5, consumed=(6, 7))
PASS = Event("none")
DISCARD = Event("dahai", actor=1, pai=5)
OTHER = Event("dahai", actor=1, pai=9)

#: Candidate 1 gains +1 on average, with a standard error of the paired difference of 1.15
#: (four worlds: +3, −1, +3, −1): above 0, below 1 standard error.
NOISY_GAIN = [[0.0, 3.0], [0.0, -1.0], [0.0, 3.0], [0.0, -1.0]]


def test_a_bar_per_candidate_moves_only_that_candidate() -> None:
    mean, se = paired_advantage(NOISY_GAIN, 1, 0)
    assert mean == 1.0 and se == pytest.approx((4 / 3) ** 0.5)
    assert 0 < mean < se
    assert choose_paired(NOISY_GAIN, 0, 1.0) == 0
    assert choose_paired(NOISY_GAIN, 0, [1.0, 0.0]) == 1
    assert choose_paired(NOISY_GAIN, 0, [0.0, 1.0]) == 0  # the base's own bar is not used
    assert choose_paired(NOISY_GAIN, 0, [1.0, 0.5]) == 1  # 1 > 0.5 × 1.15
    with pytest.raises(ValueError, match="3 bars for 2 candidates"):
        choose_paired(NOISY_GAIN, 0, [1.0, 1.0, 1.0])


def _agent(scale: float, z: float = 1.0, seed: int = 0) -> SearchAgent:
    settings = SearchSettings(budget_ms=1e6, worlds=8, top_k=3, call_offers=True, z=z,
                              call_z_scale=scale)
    return SearchAgent(AgentPrior(EfficiencyAgent(seed), 0.99), settings=settings, seed=seed)


def _cands(*actions: Event) -> list[Candidate]:
    return [Candidate(a, 1.0 / len(actions)) for a in actions]


def test_only_a_call_replacing_the_prior_pass_gets_the_lower_bar() -> None:
    agent = _agent(0.25, z=2.0)
    assert agent.bars(_cands(PASS, CHI, PON), 0, True) == [2.0, 0.5, 0.5]
    assert agent.bars(_cands(CHI, PASS, PON), 0, True) == [2.0, 2.0, 2.0]  # prior calls
    assert agent.bars(_cands(PASS, CHI), 0, False) == [2.0, 2.0]  # not an offer to call
    assert agent.bars(_cands(DISCARD, OTHER), 0, False) == [2.0, 2.0]
    assert _agent(1.0, z=2.0).bars(_cands(PASS, CHI, PON), 0, True) == [2.0, 2.0, 2.0]


def test_the_lower_bar_only_ever_turns_a_prior_pass_into_a_call() -> None:
    """The same offers to call of seeded games (a pass and a pon or chi, the wall not near
    its end), searched on the same worlds with the usual bar and with none: where the answers
    differ, the usual bar kept the prior's pass and the lower one took a call; and on these
    offers that happens (the setting does something)."""
    plain, low = _agent(1.0), _agent(0.0)
    offers = moved = 0
    for seed in range(12):
        for rnd, d in decisions(seed):  # a live round: answer the offer before the game moves
            if not (any(e.type in ("pon", "chi") for e in d.legal)
                    and any(e.type == "none" for e in d.legal) and rnd.wall.remaining > 20):
                continue
            offers += 1
            prior = EfficiencyAgent(0).act(d.observation, d.legal)
            a, b = plain.act(d.observation, d.legal), low.act(d.observation, d.legal)
            if a != b:
                moved += 1
                assert prior.type == "none" and a == prior
                assert b.type in ("pon", "chi")
        if offers >= 24:
            break
    assert offers >= 24
    assert all(s.searched and s.call_offer for s in plain.log + low.log)
    assert moved > 0, (offers, moved)


@pytest.mark.parametrize(("env", "message"), [
    ({"TENPAI_SEARCH_CALL_Z_SCALE": "-0.5"}, "CALL_Z_SCALE must be >= 0"),
    ({"TENPAI_SEARCH_CALL_Z_SCALE": "low"}, "CALL_Z_SCALE: cannot read 'low'"),
    ({"TENPAI_SEARCH_CALL_Z_SCALE": "0.5", "TENPAI_SEARCH_RULE": "puct"},
     "CALL_Z_SCALE scales the paired rule's z, so it needs TENPAI_SEARCH_RULE=paired"),
])
def test_bad_values_are_one_line(env: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_search_agent(0, env)


def test_the_arena_refuses_a_bad_scale_with_exit_2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TENPAI_SEARCH_CALL_Z_SCALE", "-1")
    r = CliRunner().invoke(app, ["arena", "--agents", "search,efficiency,efficiency,efficiency",
                                 "--games", "4", "--workers", "1", "--no-progress"])
    assert r.exit_code == 2
    assert "Traceback" not in r.output and "CALL_Z_SCALE" in r.output


def test_the_scale_is_named_in_the_agent_identity() -> None:
    assert SearchSettings.from_env({"TENPAI_SEARCH_CALL_Z_SCALE": "0"}).describe() == \
        "call_z_scale=0.0"
    assert SearchSettings.from_env({}).call_z_scale == 1.0
