"""The search's leaf values are those of the plain path it shortcuts: one export of a world
serving every candidate of it (``CompiledPlayout.play_out_many``) gives the hand ends of one
``rollout.run(rollout.export_state(world), ...)`` per candidate, valued as the placement
model's table says, and the leaf values a seeded search computes are the ones
recorded before the shortcut (commit 7a1bece; a deliberate change of the values must update
the digest and say why)."""

from __future__ import annotations

import hashlib

import pytest

from tenpai.events import Event
from tenpai.rules.riichi import rollout
from tenpai.search.agent import SearchAgent
from tenpai.search.prior import AgentPrior, Candidate
from tenpai.search.prior_searcher import placement_value
from tenpai.search.settings import SearchSettings
from tenpai.search.worlds import WorldSampler

from .test_prepared_worlds import SEEDS, tables

built = pytest.mark.skipif(not rollout.available(), reason="compiled rollout core not built")


def _candidates(legal: list[Event], seat: int) -> list[dict[int, Event]]:
    """Every legal answer of the decision (discards, riichi declarations, calls, passes)."""
    return [{seat: e} for e in legal]


@built
@pytest.mark.parametrize("policy", ["greedy-fold", "fast-fold"])
def test_one_export_per_world_gives_the_per_candidate_hand_ends(policy: str) -> None:
    from tenpai.search.compiled_playout import CompiledPlayout, end_of_row

    backend = CompiledPlayout(policy)
    values = {n: placement_value("", "tenhou", n) for n in (3, 4)}
    checked = 0
    for rnd, d in tables().values():
        sampler = WorldSampler()
        prep = sampler.prepare(rnd, d.seat, reuse_round=True)
        value = values[rnd.players]
        for seed in SEEDS:
            world = sampler.world(prep, seed).round
            cands = _candidates(list(d.legal), d.seat)
            seeds = [seed, seed + 7]
            many = backend.play_out_many(world, cands, seeds)
            start = tuple(world.scores)
            for first, ends in zip(cands, many):
                ((seat, e),) = first.items()
                if world.phase == "act" and seat == world.turn and e.type == "dahai":
                    rows = rollout.run(rollout.export_state(world), world.rules, policy, seeds,
                                       first_discard=e.pai)
                    expected = [end_of_row(world, row, start) for row in rows]
                    checked += 1
                else:  # a prefix in Python: one candidate per call, its own export
                    expected = [backend.play_out(world, first, s) for s in seeds]
                assert ends == expected, (seed, e)
                for end in ends:
                    got = value.value(end, d.seat)
                    if end.next_position is not None:
                        # the value cached by position is the model's table, computed afresh
                        table = value.model.table_probs(end.next_position)
                        assert got == value.utility.of(table[d.seat])
    assert checked >= 40


def _search_values_digest() -> str:
    """The leaf values a seeded search computes at :func:`tables` (compiled ``greedy-fold``
    playouts, the placement value; up to six legal answers as candidates), every world and
    candidate, to 12 significant digits: any change to the search's values moves them by far
    more, while another machine's libm may differ in the last bit of a float (the exact bits
    were compared with 7a1bece's sources when this digest was recorded)."""
    from tenpai.agents.efficiency import EfficiencyAgent

    rows: list[object] = []
    for rnd, d in tables().values():
        agent = SearchAgent(AgentPrior(EfficiencyAgent(), 0.4),
                            settings=SearchSettings(policy="c:greedy-fold", budget_ms=1e6,
                                                    worlds=8))
        cands = [Candidate(e, 0.0) for e in list(d.legal)[:6]]
        values, _, _ = agent.world_values(rnd, d.seat, cands)
        rows.append([[f"{v:.12g}" for v in w] for w in values])
    return hashlib.sha256(repr(rows).encode()).hexdigest()


#: :func:`_search_values_digest` before the shared export (commit 7a1bece; recorded to 12
#: significant digits from the code after it, whose exact bits matched 7a1bece's).
BEFORE = "92d98d80e186c16f52b4a8ef2d8549702e331bcbb3f42102f0921d5c826fd968"


@built
def test_the_search_values_are_those_computed_before() -> None:
    assert _search_values_digest() == BEFORE
