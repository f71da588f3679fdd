"""Step many game flows at once, every pending decision answered by one call per agent.

This is the engine-level core of every batched driver: the self-play runner
(:class:`tenpai.selfplay.vector.VectorRunner`), the vine estimator's branch rollouts
(:mod:`tenpai.rl.vine`) and the arena's batched tables (:mod:`tenpai.arena.record`).  It lives
here, beside :func:`tenpai.engine.runner.play`, because it needs nothing but flows and agents,
and the arena sits below self-play.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tenpai.engine.agent import Agent
from tenpai.engine.flow import Decision, GameFlow
from tenpai.events import Event

__all__ = ["AnswerHook", "ask_agent", "step_flows"]

#: Called with (flow index, decision, action, info) for every answer of a step.
AnswerHook = Callable[[int, Decision, Event, Any], None]


def step_flows(
    flows: Sequence[GameFlow],
    agents: Sequence[Sequence[Agent]],
    *,
    on_answer: AnswerHook | None = None,
    on_step: Callable[[int], None] | None = None,
) -> tuple[int, int]:
    """Step every flow once, all pending decisions answered in one batch call per agent.

    ``agents[i][seat]`` answers seat ``seat`` of ``flows[i]``.  Decisions are grouped by agent
    object, in the order the flows and their pending seats come, so a network agent shared by
    every seat of every flow runs one forward per head per call.  ``on_answer(i, decision,
    action, info)`` sees each answer before any flow moves (the flow still shows the decision:
    a trainer records it there, or snapshots the flow); then each flow with answers is stepped
    and ``on_step(i)`` called.  Returns the batch calls made and the decisions answered.

    Drivers keep their flows themselves (see the module docstring for who calls it).
    """
    groups: dict[int, tuple[Agent, list[tuple[int, Decision]]]] = {}
    for i, game in enumerate(flows):
        for d in list(game.pending()):
            agent = agents[i][d.seat]
            groups.setdefault(id(agent), (agent, []))[1].append((i, d))
    answers: list[dict[int, Event]] = [{} for _ in flows]
    calls = asked = 0
    for agent, items in groups.values():
        chosen, infos = ask_agent(agent, [(d.observation, d.legal) for _i, d in items])
        calls += 1
        asked += len(items)
        for (i, d), action, info in zip(items, chosen, infos):
            answers[i][d.seat] = action
            if on_answer is not None:
                on_answer(i, d, action, info)
    for i, game in enumerate(flows):
        mine = answers[i]
        if not mine:
            continue
        game.step(mine)
        if on_step is not None:
            on_step(i)
    return calls, asked


def ask_agent(
    agent: Agent, requests: Sequence[tuple[Any, Sequence[Event]]]
) -> tuple[list[Event], list[Any]]:
    """One batch call: ``act_batch_with_info`` when the agent has it (actions and their infos),
    else ``act_batch`` (infos ``None``); an agent answering another count is an error."""
    with_info = getattr(agent, "act_batch_with_info", None)
    if with_info is not None:
        pairs = list(with_info(requests))
        _check_count(agent, len(pairs), len(requests))
        return [a for a, _i in pairs], [i for _a, i in pairs]
    chosen = list(agent.act_batch(requests))
    _check_count(agent, len(chosen), len(requests))
    return chosen, [None] * len(chosen)


def _check_count(agent: Agent, got: int, asked: int) -> None:
    if got != asked:
        raise RuntimeError(f"agent {agent.name!r} answered {got} of {asked} requests")
