"""The PettingZoo AEC environment shared by every rule set (``tenpai.env.<rules>_v0``).

The engine may ask several seats at once (a claim window); AEC lets one agent act at a time.
So the environment queues the seats of each window in the engine's order, collects one
answer per seat with ``step``, and applies them together through the game's own ``step`` —
the engine then resolves priorities exactly as it does for the arena.  Between windows the
flow advances by itself (draws, dora, settlements, the next hand).

Rewards are zero until the game ends; then every player gets the reward chosen at
construction (``"rank"``: placement points, ``"score"``: the raw score change) and ``infos``
carry the final scores, the raw score deltas and the placements either way (docs/env.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Literal

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from tenpai.engine.flow import Decision
from tenpai.env.adapters.base import TABLE_BOUND, RuleAdapter
from tenpai.env.render import render_ansi
from tenpai.events import Event

__all__ = ["DEFAULT_PLACEMENT_POINTS", "MahjongAEC", "RewardMode", "placements"]

RewardMode = Literal["rank", "score"]
#: Placement points for 1st … 4th under ``reward="rank"`` (zero-sum, evenly spaced).
DEFAULT_PLACEMENT_POINTS: Final = (1.0, 1.0 / 3.0, -1.0 / 3.0, -1.0)
_SEED_SPAN: Final = 2**31


def placements(scores: Sequence[int]) -> list[float]:
    """Each player's place, 1 = first; players tied on score share the mean of their places
    (so tied players get equal rewards instead of a seat-order tie-break)."""
    out: list[float] = []
    for s in scores:
        above = sum(1 for o in scores if o > s)
        tied = sum(1 for o in scores if o == s)
        out.append(above + (tied + 1) / 2)
    return out


def rank_rewards(scores: Sequence[int], points: Sequence[float]) -> list[float]:
    """Placement points, tied players sharing the mean of their places' points."""
    out: list[float] = []
    for s in scores:
        above = sum(1 for o in scores if o > s)
        tied = sum(1 for o in scores if o == s)
        out.append(float(np.mean(points[above : above + tied])))
    return out


class MahjongAEC(AECEnv):  # type: ignore[misc]
    """One four-player game per episode; agents ``player_0`` … ``player_3`` are the game's
    players (seats in Riichi and suits108; players who change seats in a full MCR game)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo reads it as a plain dict
        "render_modes": ["ansi"],
        "name": "tenpai_mahjong",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        adapter: RuleAdapter,
        *,
        render_mode: str | None = None,
        reward: RewardMode = "rank",
        placement_points: Sequence[float] = DEFAULT_PLACEMENT_POINTS,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}; choose one of: ansi")
        if reward not in ("rank", "score"):
            raise ValueError(f"reward {reward!r}; choose rank or score")
        if len(placement_points) != 4:
            raise ValueError(f"placement_points needs 4 values, got {len(placement_points)}")
        self.adapter = adapter
        self.metadata = {**self.metadata, "name": adapter.env_name}
        self.render_mode = render_mode
        self.reward_mode: RewardMode = reward
        self.placement_points = tuple(float(p) for p in placement_points)
        self.possible_agents = [f"player_{i}" for i in range(4)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        n_actions = adapter.actions.n
        # One space object per agent, each returned as is on every call: PettingZoo's tests
        # require that, and seeding one agent's space must not reseed another's.
        self.observation_spaces = {a: _observation_space(adapter) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self._seed_rng = np.random.default_rng()
        self._decisions: dict[int, Decision] = {}
        self._queue: list[int] = []
        self._answers: dict[int, Event] = {}
        self._start: tuple[int, ...] = ()
        self.game_seed = 0

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> gymnasium.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a game.  ``reset(seed=s)`` plays the arena's deal ``s``; ``reset()`` draws the
        next deal seed from a generator seeded by the last explicit seed (so a sequence of
        resets after one seeded reset is reproducible)."""
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
            self.game_seed = int(seed)
        else:
            self.game_seed = int(self._seed_rng.integers(_SEED_SPAN))
        self.agents = self.possible_agents[:]
        self.adapter.new_game(self.game_seed, self.agents)
        self._start = self.adapter.start_scores()
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._load_window()

    def _load_window(self) -> None:
        """Queue the players the engine waits for now (in the engine's order)."""
        game = self.adapter.game
        assert game is not None
        pending = list(game.pending())
        if not pending:
            self._finish()
            return
        self._decisions = {d.seat: d for d in pending}
        self._queue = [d.seat for d in pending]
        self._answers = {}
        self.agent_selection = self.possible_agents[self._queue[0]]

    def _finish(self) -> None:
        """The game is over: final rewards and infos for everybody, all agents terminate."""
        game = self.adapter.game
        assert game is not None
        final = tuple(game.final_scores)
        deltas = [f - s for f, s in zip(final, self._start)]
        places = placements(final)
        ranked = rank_rewards(final, self.placement_points)
        self._decisions, self._queue, self._answers = {}, [], {}
        for i, agent in enumerate(self.possible_agents):
            reward = ranked[i] if self.reward_mode == "rank" else float(deltas[i])
            self.rewards[agent] = reward
            self.terminations[agent] = True
            self.infos[agent] = {
                "final_scores": final,
                "score_delta": deltas[i],
                "placement": places[i],
                "rank_reward": ranked[i],
            }
        self.agent_selection = self.possible_agents[0]

    def step(self, action: Any) -> None:
        """Answer for ``agent_selection``; the engine moves once every queued player answered.

        An id outside the mask raises :class:`~tenpai.env.actions.IllegalActionIdError`
        naming the legal ids (the game is left as it was, so the caller may retry)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        player = self._index[agent]
        decision = self._decisions[player]
        event = self.adapter.actions.action_to_event(decision.legal, int(action))
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._answers[player] = event
        self._queue.pop(0)
        if self._queue:
            self.agent_selection = self.possible_agents[self._queue[0]]
        else:
            game = self.adapter.game
            assert game is not None
            game.step(self._answers)
            self._load_window()
        self._accumulate_rewards()

    # ------------------------------------------------------------------ observing
    def observe(self, agent: str) -> dict[str, Any]:
        """The observation of ``agent``; its mask is all zero unless it is deciding now."""
        player = self._index[agent]
        decision = self._decisions.get(player) if player in self._queue else None
        obs = self.adapter.encode(player, decision)
        if decision is not None:
            mask = self.adapter.actions.mask(decision.legal)
        else:
            mask = np.zeros(self.adapter.actions.n, dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def legal_events(self, agent: str) -> tuple[Event, ...]:
        """The engine's legal events of ``agent`` now (empty when it is not deciding)."""
        player = self._index[agent]
        d = self._decisions.get(player) if player in self._queue else None
        return d.legal if d is not None else ()

    def decision(self, agent: str) -> Decision | None:
        """The engine's pending decision of ``agent`` (legal events and the engine's own
        observation, which built-in agents act on), or None."""
        player = self._index[agent]
        return self._decisions.get(player) if player in self._queue else None

    # ------------------------------------------------------------------ rendering
    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; use render_mode='ansi'")
            return None
        if self.adapter.game is None:
            return f"{self.adapter.env_name}: call reset() first"
        finished: tuple[int, ...] = ()
        if self.adapter.game.done:
            finished = tuple(self.adapter.game.final_scores)
        acting = self._queue[0] if self._queue else None
        decision = self._decisions.get(acting) if acting is not None else None
        return render_ansi(
            self.adapter, self.possible_agents, acting, decision, finished=finished
        )

    def close(self) -> None:
        """Nothing to release (no windows, no processes)."""


def _observation_space(adapter: RuleAdapter) -> spaces.Dict:
    """``{"observation": {"planes", "table"}, "action_mask"}`` for one agent."""
    planes = spaces.Box(0, 4, adapter.plane_shape, dtype=np.uint8)
    table = spaces.Box(-TABLE_BOUND, TABLE_BOUND, (len(adapter.table_fields),), dtype=np.int32)
    return spaces.Dict(
        {
            "observation": spaces.Dict({"planes": planes, "table": table}),
            "action_mask": spaces.Box(0, 1, (adapter.actions.n,), dtype=np.int8),
        }
    )


def wrapped(raw: MahjongAEC) -> Any:
    """``raw`` with PettingZoo's standard checks (action bounds, call order): what each
    environment module's ``env()`` returns."""
    from pettingzoo.utils import wrappers

    e: Any = wrappers.AssertOutOfBoundsWrapper(raw)
    return wrappers.OrderEnforcingWrapper(e)
