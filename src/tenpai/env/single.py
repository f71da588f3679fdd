"""A Gymnasium environment: one learning seat, built-in agents (``make_agent``) in the others.

It wraps the AEC environment of the rule set: every decision of the other players is answered
by their agents (acting on the engine's own observation and legal events, as in the arena)
until the learner must decide or the game is over.  Observations, action ids and rewards are
the AEC environment's (docs/env.md).

Illegal ids: with ``illegal_action="raise"`` (the default) ``step`` raises
:class:`~tenpai.env.actions.IllegalActionIdError` naming the legal ids, and nothing moves.
With ``"fallback"`` the environment plays a documented legal substitute instead — the pass
when it is legal, else the tsumogiri discard, else the legal action with the lowest id — adds
``illegal_penalty`` to that step's reward and sets ``info["illegal_action"]``; that mode is for
algorithms that cannot mask (and for ``gymnasium.utils.env_checker.check_env``, which steps
with unmasked samples).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import gymnasium
import numpy as np

from tenpai.agents.registry import make_agent
from tenpai.engine.agent import Agent
from tenpai.env.adapters import make_adapter
from tenpai.env.aec import DEFAULT_PLACEMENT_POINTS, MahjongAEC, RewardMode

__all__ = ["SingleSeatEnv"]

IllegalMode = Literal["raise", "fallback"]


class SingleSeatEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """``SingleSeatEnv("riichi", seat=0, opponents="efficiency")``.

    ``opponents`` is one agent name for all three other seats or three names in seat order
    (skipping the learner's seat); ``options`` are the rule set's arena options (``preset``,
    Riichi's ``length``).  Opponent agents are created at every reset with seeds derived from
    the game seed, so ``reset(seed=s)`` replays the same game for the same actions.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        rules: str = "riichi",
        *,
        seat: int = 0,
        opponents: str | Sequence[str] = "efficiency",
        options: dict[str, str] | None = None,
        reward: RewardMode = "rank",
        placement_points: Sequence[float] = DEFAULT_PLACEMENT_POINTS,
        illegal_action: IllegalMode = "raise",
        illegal_penalty: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        if not 0 <= seat < 4:
            raise ValueError(f"seat must be 0-3, got {seat}")
        names = [opponents] * 3 if isinstance(opponents, str) else list(opponents)
        if len(names) != 3:
            raise ValueError(f"opponents: one name or three, got {len(names)}")
        for name in names:
            make_agent(name, 0)  # fail now, with the list of known agents, not at reset
        if illegal_action not in ("raise", "fallback"):
            raise ValueError(f"illegal_action {illegal_action!r}; choose raise or fallback")
        self.aec = MahjongAEC(
            make_adapter(rules, options),
            render_mode=render_mode,
            reward=reward,
            placement_points=placement_points,
        )
        self.rules = rules
        self.seat = seat
        self.learner = self.aec.possible_agents[seat]
        self.opponent_names = names
        self.illegal_action: IllegalMode = illegal_action
        self.illegal_penalty = float(illegal_penalty)
        self.render_mode = render_mode
        self.observation_space = self.aec.observation_space(self.learner)
        self.action_space = self.aec.action_space(self.learner)
        self._agents: dict[str, Agent] = {}

    # ------------------------------------------------------------------ episode
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new game: ``seed`` is the deal seed (None: the next one from ``np_random``)."""
        super().reset(seed=seed)
        game_seed = seed if seed is not None else int(self.np_random.integers(2**31))
        self.aec.reset(seed=game_seed)
        others = [a for a in self.aec.possible_agents if a != self.learner]
        self._agents = {
            a: make_agent(name, game_seed * 4 + i)
            for i, (a, name) in enumerate(zip(others, self.opponent_names))
        }
        reward = self._advance()
        return self.aec.observe(self.learner), {"opponent_reward": reward}

    def step(
        self, action: np.int64 | int
    ) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        aec = self.aec
        if aec.terminations.get(self.learner, True):
            raise RuntimeError("the game is over: call reset()")
        info: dict[str, Any] = {}
        reward = 0.0
        a = int(action)
        legal = aec.adapter.actions.legal_ids(aec.legal_events(self.learner))
        if a not in legal and self.illegal_action == "fallback":
            info["illegal_action"] = a
            a = self._fallback(legal)
            reward += self.illegal_penalty
        aec.step(a)  # raises IllegalActionIdError for an illegal id in "raise" mode
        reward += aec.rewards[self.learner]
        reward += self._advance()
        terminated = aec.terminations[self.learner]
        if terminated:
            info.update(aec.infos[self.learner])
        return aec.observe(self.learner), float(reward), terminated, False, info

    def _advance(self) -> float:
        """Let the other players act until the learner decides or the game ends; returns the
        learner's reward collected meanwhile (non-zero only when the game ends)."""
        aec = self.aec
        reward = 0.0
        while not aec.terminations[self.learner] and aec.agent_selection != self.learner:
            agent = aec.agent_selection
            decision = aec.decision(agent)
            assert decision is not None
            event = self._agents[agent].act(decision.observation, decision.legal)
            aec.step(aec.adapter.actions.event_to_action(event))
            reward += aec.rewards[self.learner]
        return reward

    @staticmethod
    def _fallback(legal: dict[int, Any]) -> int:
        """The documented substitute for an illegal id (module docstring)."""
        for i, e in sorted(legal.items()):
            if e.type == "none":
                return i
        for i, e in sorted(legal.items()):
            if e.type == "dahai" and e.tsumogiri:
                return i
        return min(legal)

    # ------------------------------------------------------------------ helpers
    def action_masks(self) -> np.ndarray:
        """The learner's current mask as booleans (the name sb3-contrib's MaskablePPO reads)."""
        mask: np.ndarray = self.aec.observe(self.learner)["action_mask"]
        return mask.astype(bool)

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()


def _register() -> None:
    """``gymnasium.make("tenpai/RiichiSingle-v0", opponents="expert")`` and friends."""
    for rules, name in (("riichi", "Riichi"), ("mcr", "MCR"), ("suits108", "Suits108")):
        env_id = f"tenpai/{name}Single-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id, entry_point="tenpai.env.single:SingleSeatEnv", kwargs={"rules": rules}
            )


_register()
