"""The vine estimator of policy improvement (TRPO's "vine", with common random numbers).

Why: REINFORCE credits each sampled discard with its hand's outcome, and in Riichi that outcome
is almost pure noise for one discard — the same deal played with two sampling streams gives
per-seat hand outcomes correlated at only 0.07, and a learned value explains 5-9 % of the
return variance (docs/rl.md).  The vine procedure (Schulman et al. 2015, *Trust Region Policy
Optimization*, sec. 5.2) removes nearly all of that noise by asking, at chosen states, what
*each* of several discards would have earned from the very same table:

1. **Trunk.**  The current weights play whole games greedily in every seat (the learner in
   ``greedy`` mode: :class:`SLAgent`'s choices, positions recorded).
2. **Branch points.**  ``states`` of each game's discard decisions with at least two legal
   kinds, chosen uniformly by reservoir sampling from a generator seeded by the run's seed and
   the game's (so the choice does not depend on how many tables play at once).  Each is kept
   as a snapshot (:func:`tenpai.engine.snapshot.clone`) taken before the discard.
3. **Branches.**  At each branch point the greedy kind and ``alternatives`` other legal kinds
   drawn without replacement from the policy's softmax at ``temperature`` (Gumbel top-k) are
   evaluated: a copy of the snapshot plays that kind (the physical tile
   :meth:`SLAgent.discard_of_kind` picks) and then every seat continues greedily until the hand
   ends (the next ``start_kyoku`` or the end of the game).  ``Q`` = the seat's point change
   over that hand (scores at the next hand's start, or the final scores, less those at this
   hand's start, as :func:`tenpai.rl.rewards.hand_deltas`; riichi deposits and honba included)
   / ``points_scale``.  A copy keeps the walls, and greedy play is deterministic, so the
   branches differ *only* by the one discard: common random numbers.  The greedy kind's
   outcome is the trunk's own (the trunk *is* the branch that plays it; the tests check that a
   re-played greedy branch reproduces it exactly), which saves a third of the rollouts.
4. **Update** (:func:`vine_update`): ``A_k = Q_k - mean_k Q``, loss ``-mean_s sum_k A_k log
   pi(a_k | s)`` less an entropy bonus.

All live trunks and branch rollouts of all tables are stepped together
(:func:`tenpai.engine.batch.step_flows`): one ``act_batch`` call of the shared agent per step.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch
from torch import nn

from tenpai.agents.sl import SLAgent
from tenpai.arena.games import make_game, rules_entry
from tenpai.engine.batch import AnswerHook, step_flows
from tenpai.engine.flow import Decision, GameFlow
from tenpai.engine.snapshot import clone
from tenpai.events import Event
from tenpai.rl.policy import DiscardSample, SamplingSLAgent, masked_log_softmax
from tenpai.rl.policy_mcr import SamplingSLMCRAgent
from tenpai.rl.rewards import scores_by_player
from tenpai.rl.update import gradient_step, masked_policy
from tenpai.selfplay.vector import check_tables

__all__ = [
    "ESTIMATORS",
    "VineBatch",
    "VineConfig",
    "VineCounts",
    "VineState",
    "VineStats",
    "advantages",
    "collect_vine",
    "vine_batch",
    "vine_update",
]

#: Policy-gradient estimators of ``tenpai train pg``.
ESTIMATORS = ("reinforce", "vine")
_MASK63 = (1 << 63) - 1

#: The greedy learner that plays trunks and rollouts (``greedy=True``).
Learner = SamplingSLAgent | SamplingSLMCRAgent


@dataclass(frozen=True, slots=True)
class VineConfig:
    """How many branch points per trunk game, how many alternatives per point, and their draw."""

    states: int = 8
    alternatives: int = 2
    temperature: float = 1.0
    #: Points that count as 1.0 of Q (Riichi: a mangan, 8,000; MCR Botzone: 24).
    points_scale: float = 8000.0

    def __post_init__(self) -> None:
        if self.states < 1:
            raise ValueError(f"vine_states must be at least 1, got {self.states}")
        if self.alternatives < 1:
            raise ValueError(
                f"vine_alternatives must be at least 1 (each branch point compares the greedy "
                f"discard with that many others), got {self.alternatives}"
            )
        if not self.temperature > 0:
            raise ValueError(f"temperature must be positive, got {self.temperature}")
        if not self.points_scale > 0:
            raise ValueError(f"points_scale must be positive, got {self.points_scale}")


@dataclass(slots=True)
class VineState:
    """One branch point: the position, the kinds evaluated (greedy first) and their outcomes."""

    game_seed: int
    #: Position among the game's eligible discard decisions (the reservoir's index).
    order: int
    seat: int
    x: np.ndarray
    legal: np.ndarray
    #: Log-probabilities over the 34 kinds at the temperature (0 where illegal) when drawn.
    logp: np.ndarray
    #: The discard decision's legal actions, and the discard event played for each kind.
    legal_events: tuple[Event, ...]
    kinds: list[int] = field(default_factory=list)
    forced: list[Event] = field(default_factory=list)
    q: list[float] = field(default_factory=list)
    #: The trunk's outcome for this seat and hand (the greedy kind's Q).
    trunk_q: float = 0.0


@dataclass(slots=True)
class VineCounts:
    """Work done by one collection (for speed figures and the log)."""

    games: int = 0
    branches: int = 0
    trunk_decisions: int = 0
    branch_decisions: int = 0
    calls: int = 0


@dataclass(slots=True)
class _Kept:
    """A reservoir slot: a snapshot of the trunk before one of its discards."""

    order: int
    snapshot: GameFlow
    seat: int
    sample: DiscardSample
    legal: tuple[Event, ...]
    hand_start: int


@dataclass(slots=True)
class _Trunk:
    seed: int
    game: GameFlow
    rng: np.random.Generator
    seen: int = 0
    kept: list[_Kept] = field(default_factory=list)


@dataclass(slots=True)
class _Branch:
    state: VineState
    slot: int
    game: GameFlow
    player: int
    hand_start: int
    scan: int


def collect_vine(
    agent: Learner,
    rules: str,
    options: Mapping[str, str],
    seeds: Sequence[int],
    cfg: VineConfig,
    *,
    tables: int = 16,
    seed: int = 0,
    branch_greedy: bool = False,
) -> tuple[list[VineState], VineCounts]:
    """Play the trunk games of ``seeds`` and every branch of their branch points.

    ``agent`` is the greedy learner (``SamplingSLAgent(..., greedy=True)`` or its MCR form): it
    plays every seat of the trunks and of the rollouts, and its :class:`DiscardSample` infos
    mark the discard decisions.  ``seed`` seeds the choice of branch points and alternatives
    (with each game's seed).  ``branch_greedy`` also replays the greedy kind as a branch instead
    of reusing the trunk's outcome (the tests compare the two).  States come back in seed order,
    then trunk order.
    """
    check_tables(tables)
    if not agent.greedy:
        raise ValueError("the vine trunk and rollouts play greedily: pass a learner made with "
                         "greedy=True")
    entry = rules_entry(rules)
    seats = entry.seat_count(entry.options(options))
    names = tuple([agent.name] * seats)
    seat_agents = [agent] * seats
    queue = list(reversed(list(seeds)))
    trunks: list[_Trunk] = []
    branches: list[_Branch] = []
    done: dict[int, list[VineState]] = {}
    counts = VineCounts()
    while queue or trunks or branches:
        while queue and len(trunks) < tables:
            s = queue.pop()
            rng = np.random.default_rng([seed & _MASK63, s & _MASK63])
            trunks.append(_Trunk(s, make_game(rules, s, names, options), rng))
        flows = [t.game for t in trunks] + [b.game for b in branches]
        hook = _trunk_hook(list(trunks), counts, cfg.states)
        calls, _ = step_flows(flows, [seat_agents] * len(flows), on_answer=hook)
        counts.calls += calls
        branches = [b for b in branches if not _settled(b, cfg)]
        for t in [t for t in trunks if t.game.done]:
            counts.games += 1
            states, new = _spawn(agent, t, cfg, branch_greedy)
            done[t.seed] = states
            counts.branches += len(new)
            branches += [b for b in new if not _settled(b, cfg)]
        trunks = [t for t in trunks if not t.game.done]
    return [st for s in seeds for st in done.get(s, [])], counts


def _trunk_hook(trunks: list[_Trunk], counts: VineCounts, k: int) -> AnswerHook:
    """The answer hook of one step: flows ``0 .. len(trunks) - 1`` are the trunks, whose
    eligible discard decisions (two legal kinds or more) are offered to their reservoirs before
    they move; the rest are branch rollouts, only counted."""

    def answered(i: int, d: Decision, _action: Event, info: Any) -> None:
        if i < len(trunks):
            counts.trunk_decisions += 1
            if isinstance(info, DiscardSample) and int(info.legal.sum()) >= 2:
                _offer(trunks[i], d, info, k)
        else:
            counts.branch_decisions += 1

    return answered


def _offer(t: _Trunk, d: Decision, info: DiscardSample, k: int) -> None:
    """Reservoir sampling (Vitter's algorithm R): every eligible decision of the game ends in
    the ``k`` kept ones with the same probability, without knowing the game's length."""
    i = t.seen
    t.seen += 1
    slot = i if i < k else int(t.rng.integers(0, i + 1))
    if slot >= k:
        return
    events = t.game.events
    start = next(j for j in range(len(events) - 1, -1, -1) if events[j].type == "start_kyoku")
    kept = _Kept(i, clone(t.game), d.seat, info, tuple(d.legal), start)
    if i < k:
        t.kept.append(kept)
    else:
        t.kept[slot] = kept


def _spawn(
    agent: Learner, t: _Trunk, cfg: VineConfig, branch_greedy: bool
) -> tuple[list[VineState], list[_Branch]]:
    """The branch states of a finished trunk and the branch flows that evaluate them."""
    kept = sorted(t.kept, key=lambda k: k.order)
    if not kept:
        return [], []
    x = np.stack([k.sample.x for k in kept]).astype(np.float32)
    logits = agent.bundle.logits("discard", x)
    states: list[VineState] = []
    branches: list[_Branch] = []
    for row, k in enumerate(kept):
        mask = k.sample.legal
        logp = masked_log_softmax(logits[row], mask, cfg.temperature)
        greedy = k.sample.action
        keys = np.where(mask, logp + t.rng.gumbel(size=34), -np.inf)
        keys[greedy] = -np.inf
        n_alt = min(cfg.alternatives, int(mask.sum()) - 1)
        alts = [int(a) for a in np.argsort(-keys, kind="stable")[:n_alt]]
        discards = [e for e in k.legal if e.type == "dahai" and e.pai is not None]
        kinds = [greedy, *alts]
        trunk_q = _hand_change(t.game, k.hand_start, k.seat) / cfg.points_scale
        state = VineState(
            game_seed=t.seed, order=k.order, seat=k.seat, x=k.sample.x,
            legal=mask, logp=np.where(mask, logp, 0.0).astype(np.float32), legal_events=k.legal,
            kinds=kinds, forced=[SLAgent.discard_of_kind(discards, a) for a in kinds],
            q=[trunk_q] + [float("nan")] * n_alt, trunk_q=trunk_q,
        )
        states.append(state)
        at = len(k.snapshot.events)
        for slot in range(0 if branch_greedy else 1, len(kinds)):
            game = clone(k.snapshot)
            game.step({k.seat: state.forced[slot]})
            branches.append(_Branch(state, slot, game, k.seat, k.hand_start, at))
    return states, branches


def _settled(b: _Branch, cfg: VineConfig) -> bool:
    """Whether the branch's hand is over; if so its Q is written into its state."""
    if not _hand_over(b):
        return False
    b.state.q[b.slot] = _hand_change(b.game, b.hand_start, b.player) / cfg.points_scale
    return True


def _hand_over(b: _Branch) -> bool:
    """Whether the branch's hand has ended (a later hand has started, or the game is over)."""
    events = b.game.events
    for j in range(b.scan, len(events)):
        if events[j].type == "start_kyoku":
            return True
    b.scan = len(events)
    return b.game.done


def _hand_change(game: GameFlow, hand_start: int, player: int) -> int:
    """``player``'s point change over the hand starting at ``events[hand_start]``: the scores
    at the next hand's start (or the final scores) less those at this one's, read by player
    (MCR's full game seats players at other positions; ``start_kyoku.meta["seating"]``)."""
    events = game.events
    before = scores_by_player(events[hand_start])
    nxt = next((e for e in events[hand_start + 1 :] if e.type == "start_kyoku"), None)
    after = scores_by_player(nxt) if nxt is not None else list(game.final_scores)
    return after[player] - before[player]


# ---------------------------------------------------------------------- the update
@dataclass(slots=True)
class VineBatch:
    """Branch states as arrays: ``kinds``/``q`` are (states, 1 + alternatives), greedy first,
    ``valid`` marks the evaluated entries (a state with few legal kinds evaluates fewer)."""

    x: np.ndarray
    legal: np.ndarray
    logp_old: np.ndarray
    kinds: np.ndarray
    q: np.ndarray
    valid: np.ndarray

    def __len__(self) -> int:
        return len(self.kinds)


def vine_batch(states: Sequence[VineState]) -> VineBatch:
    """Stack branch states for :func:`vine_update`; refuses an empty list and unfinished Q."""
    if not states:
        raise ValueError("the games hold no branch point to learn from")
    width = max(len(s.kinds) for s in states)
    kinds = np.zeros((len(states), width), dtype=np.int64)
    q = np.zeros((len(states), width), dtype=np.float64)
    valid = np.zeros((len(states), width), dtype=bool)
    for i, s in enumerate(states):
        n = len(s.kinds)
        kinds[i, :n] = s.kinds
        kinds[i, n:] = s.kinds[0]
        q[i, :n] = s.q
        valid[i, :n] = True
    if np.isnan(q[valid]).any():
        raise ValueError("a branch has no outcome yet")
    return VineBatch(
        x=np.stack([s.x for s in states]).astype(np.float32),
        legal=np.stack([s.legal for s in states]),
        logp_old=np.stack([s.logp for s in states]).astype(np.float32),
        kinds=kinds, q=q, valid=valid,
    )


def advantages(batch: VineBatch) -> tuple[np.ndarray, float, float, float]:
    """``A = Q - mean_k Q`` per state (0 where not evaluated), the mean ``|A|`` over the
    evaluated kinds, the share of states where an alternative beat the greedy kind, and the
    share where every kind earned the same."""
    q = np.where(batch.valid, batch.q, 0.0)
    count = batch.valid.sum(axis=1)
    mean = q.sum(axis=1) / np.maximum(count, 1)
    adv = np.where(batch.valid, batch.q - mean[:, None], 0.0)
    mean_abs = float(np.abs(adv).sum() / max(int(batch.valid.sum()), 1))
    rest = np.where(batch.valid[:, 1:], batch.q[:, 1:], -np.inf)
    alt_better = float(np.mean(rest.max(axis=1) > batch.q[:, 0])) if rest.shape[1] else 0.0
    spread = np.where(batch.valid, batch.q, -np.inf).max(axis=1) - np.where(
        batch.valid, batch.q, np.inf).min(axis=1)
    all_equal = float(np.mean(spread <= 1e-12))
    return adv, mean_abs, alt_better, all_equal


@dataclass(frozen=True, slots=True)
class VineStats:
    """What one vine update measured (logged beside REINFORCE's figures)."""

    samples: int
    loss: float
    entropy: float
    #: Mean Q of the greedy kind (the trunk's hand outcome at the branch points).
    mean_return: float
    approx_kl: float
    #: Mean |A| over the evaluated kinds, in Q units (before the batch normalisation).
    mean_abs_adv: float
    #: Share of branch points where some alternative earned more than the greedy kind.
    alt_better: float
    #: Share of branch points where every evaluated kind earned the same.
    all_equal: float


def vine_update(
    module: nn.Module,
    optimizer: torch.optim.Optimizer,
    batch: VineBatch,
    *,
    entropy_coef: float,
    temperature: float = 1.0,
    minibatch: int = 1024,
    max_grad_norm: float = 1.0,
    generator: np.random.Generator | None = None,
) -> VineStats:
    """One pass over the branch states in shuffled minibatches of states.

    The loss is ``-mean_s sum_k A_sk log pi(a_k | s) - entropy_coef * mean_s H(pi(. | s))``
    with ``A_sk = Q_sk - mean_k Q_sk`` divided by the batch's standard deviation, the policy
    the masked softmax over the legal kinds at ``temperature`` (as in
    :func:`tenpai.rl.update.reinforce_update`); batch norm stays in evaluation mode.

    Why this improves the *greedy* policy, the one the arena plays: every ``Q_sk`` is the
    outcome of one deviation (kind ``a_k`` at ``s``) followed by greedy play of every seat —
    exactly ``Q^greedy(s, a_k)`` for this hand, so raising the log-probability of the kinds
    above the state's mean and lowering the others moves the policy towards the argmax of
    ``Q^greedy``: the improvement step of policy iteration.  Its noise comes only from that
    one deviation (the walls and the other seats' play are shared by all branches: common
    random numbers), not from the sampling of every later decision as in REINFORCE.  The
    greedy kind is always among the evaluated ones, so a state where it is best pushes the
    argmax further up, and one where an alternative beat it pushes that alternative towards
    becoming the argmax.  With every Q of a state equal, the state contributes nothing.
    """
    adv, mean_abs, alt_better, all_equal = advantages(batch)
    n_pairs = int(batch.valid.sum())
    std = float(adv[batch.valid].std()) if n_pairs else 0.0
    if std > 1e-8:
        adv = adv / std
    order = (generator or np.random.default_rng(0)).permutation(len(batch))
    module.eval()
    total_loss = total_entropy = total_kl = 0.0
    for start in range(0, len(order), minibatch):
        idx = order[start : start + minibatch]
        x = torch.from_numpy(batch.x[idx])
        legal = torch.from_numpy(batch.legal[idx])
        kinds = torch.from_numpy(batch.kinds[idx])
        a = torch.from_numpy(adv[idx].astype(np.float32))
        logp_all, entropy = masked_policy(module, x, legal, temperature)
        logp = logp_all.gather(1, kinds)
        loss = -(a * logp).sum(dim=1).mean() - entropy_coef * entropy.mean()
        gradient_step(module, optimizer, loss, max_grad_norm)
        n = len(idx)
        total_loss += float(loss.detach()) * n
        total_entropy += float(entropy.detach().sum())
        old = torch.from_numpy(batch.logp_old[idx]).double()
        new = logp_all.detach().double().masked_fill(~legal, 0.0)
        total_kl += float((old.exp() * (old - new)).masked_fill(~legal, 0.0).sum())
    n_all = len(batch)
    return VineStats(
        samples=n_all,
        loss=total_loss / n_all,
        entropy=total_entropy / n_all,
        mean_return=float(batch.q[:, 0].mean()),
        approx_kl=total_kl / n_all,
        mean_abs_adv=mean_abs,
        alt_better=alt_better,
        all_equal=all_equal,
    )

