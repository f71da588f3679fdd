"""``mcts`` and ``mcts_prior``: seed 000's search agent, and the same network's prior policy
without search — for the rule set of their model (the 108-tile game or Riichi,
:mod:`tenpai.mcts.rulesets`).

Both are the paper's *perfect-information* agent: the search model reads every hand and the
wall (Table 1, "the tree search process can access all the feature information"), so they see
what the other seats cannot.  They exist to generate strategy data and to measure the search;
the fair, imperfect-information player of the paper is the dropout agent (docs/mcts.md).
Actions are always among the legal ones: the root is limited to the legal ids.

``act_batch_with_info`` searches all requests together (one network call per round for the
leaves of every table) and returns, per decision, what training needs: the input planes, the
visit distribution π, the seat and the hand.  Random choices (root noise, the sampled first
moves) come from a generator seeded by the agent's seed, the deal and the moment in the hand,
so a game does not depend on which other tables were searched beside it.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from tenpai.events import Event
from tenpai.mcts.packed_planes import pack

__all__ = ["DropoutAgent", "MCTSAgent", "dropout_agent", "prior_agent", "search_agent"]

#: The registry agent's search settings: chance outcomes and the parent's value for untried
#: actions (tests/mcts/test_chance.py shows the paper's literal reading is optimistic about
#: deal-ins; arenas have not separated the two yet — docs/mcts.md).
SEARCH_DEFAULTS: dict[str, str] = {"outcomes": "chance", "unvisited": "parent"}

_ACTS = frozenset({"dahai", "chi", "pon", "daiminkan", "ankan", "kakan", "reach", "hora"})


class MCTSAgent:
    """Search with a model (``simulations=1``: play the prior's most likely legal action)."""

    def __init__(
        self,
        model: Any = "default",
        *,
        simulations: int = 50,
        seed: int = 0,
        sample_moves: int = 0,
        noise: bool = False,
        parallel: int = 4,
        access: str | None = None,
        transitions: str = "model",
        root_rules: bool = True,
        name: str = "mcts",
        threads: int | None = 1,
        outcomes: str = "choose",
        unvisited: str = "zero",
    ) -> None:
        import torch

        from tenpai.mcts.model import MCTSModel, NetEvaluator, resolve_model
        from tenpai.mcts.search import SearchConfig
        from tenpai.models.torchfile import file_fingerprint

        if threads is not None:
            torch.set_num_threads(threads)
        weights = ""
        if not isinstance(model, MCTSModel):
            path = resolve_model(model if isinstance(model, (str, Path)) else str(model))
            model = MCTSModel.load(path)
            weights = file_fingerprint(path)
        self.model = model
        self.name = name
        self.seed = seed
        self.sample_moves = sample_moves
        self.access = access or model.card.access
        if transitions not in ("model", "simulator"):
            raise ValueError(f"transitions must be model or simulator, not {transitions!r}")
        #: "model": the learned dynamics (the paper's search); "simulator": true transitions
        #: from copies of the table (Fig. 7b's comparison).
        self.transitions = transitions
        #: Use the rules' exact result of a legal win at the root (docs/mcts.md).
        self.root_rules = root_rules
        self.config = SearchConfig(simulations=simulations, noise=noise, parallel=parallel,
                                   outcomes=outcomes, unvisited=unvisited)
        self.evaluator = NetEvaluator(model.net, model.rules.tables)
        #: The rule set of the model (the arena refuses a line-up of other rules before play).
        self.model_rules = model.card.rules
        self.threads = threads
        #: Which weights and search settings this is, for a stored arena run (the registry
        #: takes them from the environment, so the name alone does not say).
        self.identity = (f"{weights}; simulations {simulations}; outcomes {outcomes}; "
                         f"unvisited {unvisited}" if weights else "")

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Arriving pickled in a self-play worker process or Ray actor: torch there would use
        every core, and several workers would fight over them, so pin its threads (one unless
        the agent was made with a count)."""
        import torch

        self.__dict__.update(state)
        torch.set_num_threads(self.threads or 1)

    @classmethod
    def from_env(cls, seed: int, *, prior: bool = False) -> MCTSAgent:
        """The registry's agent: model ``$TENPAI_MCTS_MODEL`` (default: the shipped weights),
        ``$TENPAI_MCTS_SIMULATIONS`` per move (default 50; the prior agent uses 1),
        ``$TENPAI_MCTS_OUTCOMES`` and ``$TENPAI_MCTS_UNVISITED`` (search settings, see
        :class:`tenpai.mcts.search.SearchConfig`), because the arena names agents without
        options."""
        import os

        model = os.environ.get("TENPAI_MCTS_MODEL", "default")
        outcomes = os.environ.get("TENPAI_MCTS_OUTCOMES", SEARCH_DEFAULTS["outcomes"])
        unvisited = os.environ.get("TENPAI_MCTS_UNVISITED", SEARCH_DEFAULTS["unvisited"])
        raw = os.environ.get("TENPAI_MCTS_SIMULATIONS", "50")
        try:
            sims = int(raw)
        except ValueError:
            raise ValueError(
                f"TENPAI_MCTS_SIMULATIONS must be a whole number, got {raw!r}"
            ) from None
        if sims < 1:
            raise ValueError(f"TENPAI_MCTS_SIMULATIONS must be at least 1, got {sims}")
        if prior:
            return cls(model, simulations=1, seed=seed, name="mcts_prior")
        return cls(model, simulations=sims, seed=seed, name="mcts", outcomes=outcomes,
                   unvisited=unvisited)

    # ------------------------------------------------------------------ protocol
    def act(self, observation: Any, legal: Sequence[Event]) -> Event:
        return self.act_batch([(observation, legal)])[0]

    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]:
        # Playing only (an arena seat): the safety planes are training data, not inputs.
        return [a for a, _info in self.act_batch_with_info(requests, record=False)]

    def act_batch_with_info(
        self, requests: Sequence[tuple[Any, Sequence[Event]]], record: bool = True
    ) -> list[tuple[Event, dict[str, Any]]]:
        """The choices and, per decision, what training keeps; ``record=False`` leaves out
        the public safety planes (``info["safe"]`` is None), which only the student reads."""
        import random

        from tenpai.mcts.search import SearchRequest, run_searches

        rules = self.model.rules
        searches: list[SearchRequest] = []
        tables: list[tuple[dict[int, Event], int, int, int]] = []
        engine_tables: list[Any] = []
        safe: list[np.ndarray | None] = []
        for obs, legal in requests:
            table = rules.check_table(getattr(obs, "_table", None), self.name)
            engine_tables.append(table)
            ids = rules.tables.space.legal_ids(legal)
            key = self._key(table, obs.seat)
            rng = np.random.default_rng([self.seed & 0xFFFFFFFF, *key])
            planes = rules.encode(table, obs.seat, self.access,
                                  random.Random(int(rng.integers(1 << 62))))
            known = rules.win_rewards(table, obs.seat, ids) if self.root_rules else {}
            searches.append(SearchRequest(planes, np.array(sorted(ids)), rng, known))
            moves = sum(1 for e in table.events if e.type in _ACTS)
            tables.append((ids, moves, obs.seat, table.hand_index))
            safe.append(rules.safety(table, obs.seat) if record else None)
        if self.transitions == "simulator":
            from tenpai.mcts.simulator import SimRoot, run_simulator_searches

            roots = [SimRoot(table, obs.seat, req.rng)
                     for table, (obs, _legal), req in zip(engine_tables, requests, searches)]
            results = run_simulator_searches(self.evaluator, roots, self.config, rules=rules)
        else:
            results = run_searches(self.evaluator, searches, self.config)
        out: list[tuple[Event, dict[str, Any]]] = []
        for req, res, (ids, moves, seat, hand), sp in zip(searches, results, tables, safe):
            pi = res.policy()
            if moves < self.sample_moves:
                choice = int(req.rng.choice(len(pi), p=pi))
            elif res.visits.sum() > 0:
                choice = int(np.argmax(res.visits))
            else:
                choice = int(np.argmax(res.prior))
            info = {
                "planes": pack(req.planes, rules.wall_scale),
                "safe": sp,
                "policy": pi.astype(np.float32),
                "legal": req.legal,
                "seat": seat,
                "hand": hand,
                "value": res.value.astype(np.float32),
                "action": choice,
            }
            out.append((ids[choice], info))
        return out

    @staticmethod
    def _key(table: Any, seat: int) -> tuple[int, int, int]:
        """Where a decision is: the deal of the hand (its start event), the moment, the seat."""
        start = next((e for e in reversed(table.events) if e.type == "start_kyoku"), None)
        deal = zlib.crc32(repr(start.tehais if start is not None else ()).encode())
        return deal, len(table.events), seat


class DropoutAgent:
    """The normal agent of dropout learning: the search's planes with the hidden ones (other
    hands, wall) zeroed — p = 0 of eq. 11 — and the most likely legal id.  It reads only its
    own hand and public facts (with a ``safety`` model, the safety planes too), although
    through the same table encoder as the search.

    ``take_wins``: a legal win is always taken, as every rule agent here does and as the
    search does through its exact root rules.  The network alone declines about a quarter of
    the wins offered (it must recognise a complete hand from the planes, and win decisions are
    about 2 % of its data; docs/mcts_runs.md), so this is the registry default; ``False`` is the
    paper's pure network."""

    def __init__(self, model: Any = "default", *, name: str = "dropout",
                 take_wins: bool = True) -> None:
        import torch

        from tenpai.mcts.dropout_model import DropoutModel
        from tenpai.mcts.model import MCTSModelError
        from tenpai.models.torchfile import file_fingerprint

        torch.set_num_threads(1)
        #: Which weights this is, for a stored arena run ("" for an in-memory model).
        self.identity = ""
        if not isinstance(model, DropoutModel):
            path = Path(str(model)) if str(model) != "default" else DROPOUT_DEFAULT
            if not path.exists():
                raise MCTSModelError(f"{path}: no such dropout model file")
            model = DropoutModel.load(path)
            self.identity = f"{file_fingerprint(path)}; wins {'always' if take_wins else 'network'}"
        self.model = model
        self.name = name
        self.take_wins = take_wins
        self.model_rules = model.rules.name

    def act(self, observation: Any, legal: Sequence[Event]) -> Event:
        return self.act_batch([(observation, legal)])[0]

    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]:
        x, legal_ids = self.encode(requests)
        out = []
        for row, ids, (_obs, legal) in zip(self.logits(x), legal_ids, requests):
            win = self.win_of(legal)
            keys = sorted(ids)
            out.append(win if win is not None else ids[keys[int(np.argmax(row[keys]))]])
        return out

    def win_of(self, legal: Sequence[Event]) -> Event | None:
        """The legal win this agent takes without asking the network (``take_wins``)."""
        return next((e for e in legal if e.type == "hora"), None) if self.take_wins else None

    def encode(
        self, requests: Sequence[tuple[Any, Sequence[Event]]]
    ) -> tuple[np.ndarray, list[dict[int, Event]]]:
        """The network's inputs for these decisions (one row each: the planes with the hidden
        ones zeroed, plus the safety planes if the model reads them) and each one's legal
        events by action id."""
        rules = self.model.rules
        planes = []
        safe = []
        legal_ids = []
        for obs, legal in requests:
            table = rules.check_table(getattr(obs, "_table", None), self.name)
            planes.append(rules.encode(table, obs.seat, "removed"))
            if self.model.safety:
                safe.append(rules.safety(table, obs.seat))
            legal_ids.append(rules.tables.space.legal_ids(legal))
        x = self.model.inputs(np.stack(planes), np.stack(safe) if safe else None)
        return x.numpy(), legal_ids

    def logits(self, x: np.ndarray) -> np.ndarray:
        """The network's scores of all action ids for the rows of ``x`` (one forward)."""
        import torch

        self.model.net.eval()
        with torch.inference_mode():
            out: np.ndarray = self.model.net(torch.from_numpy(x)).numpy()
        return out


#: Shipped weights of the dropout agent (when a run has produced them).
DROPOUT_DEFAULT = (
    Path(__file__).resolve().parent.parent / "mcts" / "weights" / "suits108_dropout.pt"
)


def search_agent(seed: int) -> MCTSAgent:
    """The registry's ``mcts``: seed 000's search with the shipped suits108 model (or
    $TENPAI_MCTS_MODEL; see :meth:`MCTSAgent.from_env`)."""
    return MCTSAgent.from_env(seed)


def prior_agent(seed: int) -> MCTSAgent:
    """The registry's ``mcts_prior``: the same network's prior policy, no search."""
    return MCTSAgent.from_env(seed, prior=True)


def dropout_agent(seed: int) -> DropoutAgent:
    """The registry's ``dropout``: seed 000's normal agent (dropout learning); model from
    $TENPAI_DROPOUT_MODEL; $TENPAI_DROPOUT_WINS=network leaves legal wins to the network
    (default: always taken).  The seed is unused: the agent plays its network's argmax."""
    import os

    wins = os.environ.get("TENPAI_DROPOUT_WINS", "always")
    if wins not in ("always", "network"):
        raise ValueError(f"TENPAI_DROPOUT_WINS must be always or network, got {wins!r}")
    return DropoutAgent(os.environ.get("TENPAI_DROPOUT_MODEL", "default"),
                        take_wins=wins == "always")
