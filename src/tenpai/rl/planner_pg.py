"""Policy gradient for ``pg_planner``: REINFORCE over the planner's candidates, duplicate deals.

The learner (:class:`~tenpai.agents.pg_planner.PGPlannerAgent`, a linear head over the
planner's per-action features, started at the planner's own choice) sits in two seats of a
Botzone-preset MCR hand against two ``planner`` seats — its teacher, so the opponents are
exactly as strong as the teacher.  Each update plays ``deals_per_update`` deals, each
``samples`` times with the learner sampling at ``temperature`` and everything else fixed (the
deal's walls, the planners), so the samples of a deal differ only by the learner's own choices:
the advantage of a sampled game is its seat's Botzone score minus the mean score of that seat in
the deal's *other* samples (leave-one-out, common random numbers — the deal's luck cancels), and
the gradient of the log-probability of a linear softmax is exact in numpy.  Adam makes small
steps.  Reward: the seat's Botzone score of the hand, / :data:`REWARD_SCALE` (the contest ranks
by score, not by place).

Every ``eval_every`` games the greedy head meets the planner on fixed development deals in both
seatings (learner in seats 0 and 2, then 1 and 3): the paired place and score differences per
deal are the learning curve.  Since the start plays exactly the planner, its difference is 0 by
construction, and any later difference comes from the decisions the learner changed; the
greedy head also counts its decisions off the planner's choice.  Optionally
(``eval_efficiency``) the same deals are played against an ``efficiency`` pair too: the issue
asks for learning curves against ``efficiency``, not only against the start.

The weight of "the planner's choice" starts at ``planner_prior`` (and stays there by default,
``freeze_planner``).  Since the policy depends on weights / temperature only, a start of prior
``p`` at temperature ``T`` samples exactly like one of prior ``p / T`` at temperature 1; what a
smaller prior changes is how far the other weights must move before a *greedy* choice leaves
the planner (and, Adam's steps being of fixed size in the weights, the step measured in logits
of the sampler, ``lr / T``).

Against the greedy bots (``opponents="greedy-bots"``, issue 43's target (a)): the learner sits
in *one* seat, ``deal % 4`` (rotating over the deals), against three seats of the shanten-greedy
Botzone bot (:mod:`tenpai.rl.greedy_bots`: the bot's own code, in this process, behind the
arena's judge); the bot is deterministic, so the leave-one-out baseline is as above, and the
reward is the seat's Botzone score as before.  The curve then plays each development deal twice
with the other three seats the bots: the greedy head in seat ``deal % 4``, and the planner in the
same seat (paired: same walls, same seat), learner minus planner.

The other estimator (``estimator="vine"``, session 37, :mod:`tenpai.rl.planner_vine`): the head
plays each training deal greedily in its two seats, and at ``states`` of its decisions the
greedy answer and ``alternatives`` others are each played on from a copy of the table; each
answer's advantage is its score against the mean of the answers at that decision.  There an
update's "games" are its trunks (``samples`` is not used).

Checkpoints are JSON (weights, Adam's moments, progress, settings), written then renamed; the
same command continues a run from its checkpoint and refuses one made with other settings.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Final

import numpy as np

from tenpai.agents.efficiency import EfficiencyAgent
from tenpai.agents.pg_planner import (
    CALL_FEATURES,
    DISCARD_FEATURES,
    START_WEIGHT,
    Decision,
    PGPlannerAgent,
    PlannerHead,
)
from tenpai.agents.planner import PlannerAgent
from tenpai.arena.games import make_game
from tenpai.atomic import write_text_atomic
from tenpai.engine.agent import Agent
from tenpai.engine.runner import play
from tenpai.rl.greedy_bots import BOT_NAME, play_with_bots
from tenpai.rl.planner_vine import play_vine_deal, vine_gradient

__all__ = [
    "CHECKPOINT_FORMAT",
    "CurvePoint",
    "PlannerPGConfig",
    "PlannerPGError",
    "evaluate_against_bots",
    "evaluate_pairs",
    "policy_gradient",
    "stable_seed",
    "train_planner_pg",
]

CHECKPOINT_FORMAT: Final = "tenpai-pg-planner-checkpoint/1"
#: Botzone points per reward unit (24: the base a winner collects from the three others).
REWARD_SCALE: Final = 24.0
#: Deal seeds of training and of the learning curve's development deals (disjoint ranges,
#: far from the small seeds tests and hand-picked arena runs use).
TRAIN_SEED_BASE: Final = 700_000_000
EVAL_SEED_BASE: Final = 910_000_000
_OPTIONS: Final = {"preset": "botzone"}
#: Settings that must match for a run to continue from a checkpoint.
_IDENTITY: Final = ("estimator", "seed", "deals_per_update", "samples", "temperature", "lr",
                    "eval_deals", "freeze_planner", "planner_prior", "opponents", "states",
                    "alternatives")
#: Settings an estimator does not read (a run may change them when it continues).
_UNUSED: Final = {"reinforce": ("states", "alternatives"), "vine": ("samples",)}
#: What a checkpoint written before a setting existed was made with (its value then).
_BEFORE: Final[dict[str, Any]] = {"planner_prior": START_WEIGHT, "opponents": "planner",
                                  "estimator": "reinforce", "states": 4, "alternatives": 3}
#: Whom the learner trains against: two ``planner`` seats (learners in the other two), or three
#: greedy Botzone bots (one learner seat).
TRAINING_OPPONENTS: Final = ("planner", "greedy-bots")
#: The opponents a learning-curve point can be played against.
OPPONENTS: Final = ("planner", "efficiency")
#: How an update's direction is estimated: REINFORCE over sampled games (this module), or the
#: vine's answers compared at kept decisions of greedy games (:mod:`tenpai.rl.planner_vine`).
ESTIMATORS: Final = ("reinforce", "vine")


class PlannerPGError(ValueError):
    """Bad settings or an unusable checkpoint; the message names the setting or the file."""


@dataclass(slots=True)
class PlannerPGConfig:
    """One run (every field is kept in the output's ``info``)."""

    out: str = "runs/pg_planner.json"
    seed: int = 0
    deals_per_update: int = 8
    #: Sampled games per deal (≥ 2: each one's baseline is the mean of the others).
    samples: int = 4
    temperature: float = 1.0
    lr: float = 0.03
    max_games: int = 2048
    #: Wall-clock budget in minutes (0: none); the run stops after the update that passes it.
    minutes: float = 0.0
    eval_every: int = 512
    eval_deals: int = 25
    checkpoint_minutes: float = 3.0
    #: Keep the "planner's choice" weights at their start (a fixed prior; the other features
    #: learn where to leave it).  Trained, Adam spends every step making the sampler trust the
    #: planner more (most random departures lose), which never changes a greedy choice.
    freeze_planner: bool = True
    #: The start's weight of "the planner's choice" (the prior the other features must
    #: outweigh before a greedy choice leaves the planner).
    planner_prior: float = START_WEIGHT
    #: CPU budget in minutes (0: none): the run's CPU so far, updates and curve points, across
    #: resumes; checked before each update like ``minutes``.
    cpu_minutes: float = 0.0
    #: Also play each curve point's deals against an ``efficiency`` pair.
    eval_efficiency: bool = False
    #: One of :data:`TRAINING_OPPONENTS`; also whom the curve is measured against.
    opponents: str = "planner"
    #: One of :data:`ESTIMATORS`.  With ``vine`` a "game" is a greedy trunk (``samples`` is not
    #: used) and ``temperature`` is the softmax the alternatives are drawn from.
    estimator: str = "reinforce"
    #: Vine only: decisions kept per trunk game, and answers played at each besides the greedy.
    states: int = 4
    alternatives: int = 3

    def check(self) -> None:
        if self.deals_per_update < 1:
            raise PlannerPGError("--deals-per-update must be at least 1")
        if self.samples < 2:
            raise PlannerPGError("--samples must be at least 2 (the baseline of a sample is "
                                 "the mean of the deal's others)")
        if not self.temperature > 0:
            raise PlannerPGError("--temperature must be > 0")
        if not self.lr > 0:
            raise PlannerPGError("--lr must be > 0")
        if self.max_games < 1 or self.eval_every < 0 or self.eval_deals < 0:
            raise PlannerPGError("--games must be >= 1, --eval-every and --eval-deals >= 0")
        if self.minutes < 0 or self.checkpoint_minutes <= 0 or self.cpu_minutes < 0:
            raise PlannerPGError("--minutes and --cpu-minutes must be >= 0 and "
                                 "--checkpoint-minutes > 0")
        if not (math.isfinite(self.planner_prior) and self.planner_prior > 0):
            raise PlannerPGError(f"--planner-prior must be a finite number > 0, got "
                                 f"{self.planner_prior}")
        if self.opponents not in TRAINING_OPPONENTS:
            raise PlannerPGError(f"--opponents must be one of {', '.join(TRAINING_OPPONENTS)}, "
                                 f"got {self.opponents!r}")
        if self.estimator not in ESTIMATORS:
            raise PlannerPGError(f"--estimator must be one of {', '.join(ESTIMATORS)}, "
                                 f"got {self.estimator!r}")
        if self.estimator == "vine":
            if self.opponents != "planner":
                raise PlannerPGError("--estimator vine trains against planner seats only (a "
                                     "branch copies the table, and the greedy bots' state lives "
                                     "outside it)")
            if self.states < 1 or self.alternatives < 1:
                raise PlannerPGError("--vine-states and --vine-alternatives must be at least 1")

    @property
    def games_per_update(self) -> int:
        """Training games an update plays (vine: its greedy trunks; branches not counted)."""
        return self.deals_per_update * (1 if self.estimator == "vine" else self.samples)


@dataclass(frozen=True, slots=True)
class CurvePoint:
    """The greedy head against an opponent pair on the development deals, at ``games``: paired
    per deal (two games, the seatings swapped), learner minus opponent, with 95 % intervals;
    ``departures`` of the greedy head's ``decisions`` left the planner's choice."""

    games: int
    deals: int
    place_diff: float
    place_half: float
    score_diff: float
    score_half: float
    changed_games: int
    cpu_seconds: float
    opponent: str = "planner"
    decisions: int = 0
    departures: int = 0


@dataclass(slots=True)
class _Adam:
    m: np.ndarray
    v: np.ndarray
    t: int = 0

    def step(self, grad: np.ndarray, lr: float) -> np.ndarray:
        """The ascent step for ``grad`` (the gradient of the objective to maximise)."""
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * grad
        self.v = 0.999 * self.v + 0.001 * grad * grad
        m_hat = self.m / (1 - 0.9 ** self.t)
        v_hat = self.v / (1 - 0.999 ** self.t)
        return np.asarray(lr * m_hat / (np.sqrt(v_hat) + 1e-8), dtype=np.float64)


@dataclass(slots=True)
class _State:
    head: PlannerHead
    adam: _Adam
    games: int = 0
    updates: int = 0
    curve: list[dict[str, Any]] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)
    cpu_seconds: float = 0.0


# ---------------------------------------------------------------------- games
def stable_seed(*parts: int) -> int:
    """An agent seed from integer parts such as (run, deal, sample, seat): FNV-style, so the
    same on every machine and in every process (``hash`` of a tuple is not), which keeps a
    training run, its evaluation and the probe replaying the same agents."""
    h = 1469598103934665603
    for p in parts:
        h = ((h ^ (p & 0xFFFFFFFF)) * 1099511628211) % (1 << 61)
    return h % (1 << 31)


def _play(deal_seed: int, agents: list[Agent | None]) -> tuple[int, ...]:
    """The final scores of the deal ``deal_seed``; a None agent is a greedy bot's seat."""
    names = [BOT_NAME if a is None else getattr(a, "name", "agent") for a in agents]
    game = make_game("mcr", deal_seed, names, _OPTIONS)
    if any(a is None for a in agents):
        play_with_bots(game, agents)
    else:
        play(game, [a for a in agents if a is not None])
    return tuple(game.final_scores)


def _learner_seats(deal: int, opponents: str = "planner") -> tuple[int, ...]:
    if opponents == "greedy-bots":
        return (deal % 4,)
    return (0, 2) if deal % 2 == 0 else (1, 3)


def policy_gradient(
    head: PlannerHead, traces: list[list[tuple[Decision, int]]], advantages: list[float],
    temperature: float,
) -> np.ndarray:
    """Mean over seat-games of advantage × ∇ log π(sampled answers), as one vector (discard
    weights, then call weights).  For logits ``w · f / T`` the gradient of ``log π(a)`` is
    ``(f(a) − Σ_b π(b) f(b)) / T``."""
    nd = len(DISCARD_FEATURES)
    g = np.zeros(nd + len(CALL_FEATURES))
    for trace, adv in zip(traces, advantages):
        if adv == 0.0:
            continue
        for decision, i in trace:
            p = head.probabilities(decision, temperature)
            grad = (decision.features[i] - p @ decision.features) / temperature
            if decision.kind == "discard":
                g[:nd] += adv * grad
            else:
                g[nd:] += adv * grad
    return g / max(1, len(traces))


def _step_head(cfg: PlannerPGConfig, state: _State, grad: np.ndarray) -> None:
    """One Adam ascent step along ``grad`` (the planner's weights kept when frozen)."""
    nd = len(DISCARD_FEATURES)
    if cfg.freeze_planner:
        grad[DISCARD_FEATURES.index("planner")] = 0.0
        grad[nd + CALL_FEATURES.index("planner")] = 0.0
    step = state.adam.step(grad, cfg.lr)
    state.head.discard = state.head.discard + step[:nd]
    state.head.call = state.head.call + step[nd:]


def _train_deal_seed(cfg: PlannerPGConfig, deal: int) -> int:
    return TRAIN_SEED_BASE + cfg.seed * 10_000_000 + deal


def _vine_update(cfg: PlannerPGConfig, state: _State, deal0: int) -> dict[str, Any]:
    """Play one update's trunks and branches (:mod:`tenpai.rl.planner_vine`) and step the head."""
    points = []
    decisions = departures = branches = 0
    rewards: list[float] = []
    for d in range(deal0, deal0 + cfg.deals_per_update):
        mine = _learner_seats(d)
        seeds = {s: stable_seed(cfg.seed, d, 0, s) if s in mine else stable_seed(cfg.seed, d, s)
                 for s in range(4)}
        vine = play_vine_deal(
            state.head, _train_deal_seed(cfg, d), mine, seeds.__getitem__,
            states=cfg.states, alternatives=cfg.alternatives, temperature=cfg.temperature,
            scale=REWARD_SCALE, rng=np.random.default_rng([cfg.seed, d]))
        points += vine.points
        decisions += vine.decisions
        departures += vine.departures
        branches += vine.branches
        rewards += [vine.trunk_scores[s] / REWARD_SCALE for s in mine]
    grad = vine_gradient(points, cfg.temperature)
    _step_head(cfg, state, grad)
    advantages = [q - float(np.mean(p.q)) for p in points for q in p.q]
    return {
        "games": cfg.deals_per_update,
        "decisions": decisions,
        "off_planner": departures,
        "points": len(points),
        "branches": branches,
        "points_changed": sum(1 for p in points if max(p.q) != min(p.q)),
        "mean_reward": float(np.mean(rewards)),
        "mean_abs_advantage": float(np.mean(np.abs(advantages))) if advantages else 0.0,
        "grad_norm": float(np.linalg.norm(grad)),
    }


def _update_games(cfg: PlannerPGConfig, state: _State, deal0: int) -> dict[str, Any]:
    """Play one update's deals and step the head; the update's statistics."""
    if cfg.estimator == "vine":
        return _vine_update(cfg, state, deal0)
    traces: list[list[tuple[Decision, int]]] = []
    advantages: list[float] = []
    changed = 0
    decisions = 0
    rewards: list[float] = []
    for d in range(deal0, deal0 + cfg.deals_per_update):
        deal_seed = _train_deal_seed(cfg, d)
        mine = _learner_seats(d, cfg.opponents)
        bots = cfg.opponents == "greedy-bots"
        per_sample: list[dict[int, tuple[float, list[tuple[Decision, int]]]]] = []
        for j in range(cfg.samples):
            agents: list[Agent | None] = []
            learners: dict[int, PGPlannerAgent] = {}
            for s in range(4):
                if s in mine:
                    a = PGPlannerAgent(state.head, stable_seed(cfg.seed, d, j, s),
                                       temperature=cfg.temperature, record=True)
                    learners[s] = a
                    agents.append(a)
                else:
                    agents.append(None if bots else PlannerAgent(stable_seed(cfg.seed, d, s)))
            scores = _play(deal_seed, agents)
            per_sample.append({s: (scores[s] / REWARD_SCALE, a.trace)
                               for s, a in learners.items()})
        for s in mine:
            rs = [ps[s][0] for ps in per_sample]
            total = sum(rs)
            for ps in per_sample:
                r, trace = ps[s]
                adv = r - (total - r) / (cfg.samples - 1)
                traces.append(trace)
                advantages.append(adv)
                rewards.append(r)
                decisions += len(trace)
                changed += sum(1 for dec, i in trace if i != dec.planner_index)
    grad = policy_gradient(state.head, traces, advantages, cfg.temperature)
    _step_head(cfg, state, grad)
    return {
        "games": cfg.deals_per_update * cfg.samples,
        "decisions": decisions,
        "off_planner": changed,
        "mean_reward": float(np.mean(rewards)),
        "mean_abs_advantage": float(np.mean(np.abs(advantages))),
        "grad_norm": float(np.linalg.norm(grad)),
    }


def _opponent(name: str, seed: int) -> Agent:
    if name == "planner":
        return PlannerAgent(seed)
    if name == "efficiency":
        return EfficiencyAgent(seed)
    raise PlannerPGError(f"unknown curve opponent {name!r} (known: {', '.join(OPPONENTS)})")


def evaluate_pairs(head: PlannerHead, deals: int, games_done: int = 0,
                   opponent: str = "planner") -> CurvePoint:
    """The greedy head's pair against an ``opponent`` pair (``planner`` or ``efficiency``) on
    the first ``deals`` development deals, both seatings (see the module docstring)."""
    start = time.process_time()
    places: list[float] = []
    scores: list[float] = []
    changed = 0
    decisions = 0
    departures = 0
    for d in range(deals):
        deal_seed = EVAL_SEED_BASE + d
        place = 0.0
        score = 0.0
        for mine in ((0, 2), (1, 3)):
            learners = [PGPlannerAgent(head, stable_seed(1, d, s)) for s in mine]
            agents: list[Agent | None] = [
                learners[mine.index(s)] if s in mine else _opponent(opponent, stable_seed(1, d, s))
                for s in range(4)
            ]
            final = _play(deal_seed, agents)
            decisions += sum(a.decisions for a in learners)
            departures += sum(a.departures for a in learners)
            ranks = _ranks(final)
            place += sum(ranks[s] for s in mine) - sum(ranks[s] for s in range(4) if s not in mine)
            score += sum(final[s] for s in mine) - sum(final[s] for s in range(4) if s not in mine)
        # per deal: mean place of a learner seat minus that of a planner seat, over 2 games;
        # score: learner seats' mean per seat-game minus the planner seats'
        places.append(place / 4)
        scores.append(score / 4)
        changed += 0 if place == 0 and score == 0 else 1
    place_diff, place_half = _mean_half(places)
    score_diff, score_half = _mean_half(scores)
    return CurvePoint(games_done, deals, place_diff, place_half, score_diff, score_half,
                      changed, time.process_time() - start, opponent, decisions, departures)


def _bot_game(deal: int, seat: int, agent: Agent) -> tuple[int, ...]:
    """Development deal ``deal`` with ``agent`` in ``seat`` and the greedy bots elsewhere."""
    agents: list[Agent | None] = [agent if s == seat else None for s in range(4)]
    return _play(EVAL_SEED_BASE + deal, agents)


@cache
def _planner_among_bots(deal: int) -> tuple[int, ...]:
    """The curve's reference game of ``deal``: the planner in the learner's seat (the same game
    at every curve point, so it is played once per process)."""
    seat = _learner_seats(deal, "greedy-bots")[0]
    return _bot_game(deal, seat, PlannerAgent(stable_seed(1, deal, seat)))


def evaluate_against_bots(head: PlannerHead, deals: int, games_done: int = 0) -> CurvePoint:
    """The greedy head against the greedy bots on the first ``deals`` development deals, paired
    with the planner: deal ``d`` is played with the head in seat ``d % 4`` and with the planner
    there, the other seats the bots; per deal, the head's place and Botzone score minus the
    planner's."""
    start = time.process_time()
    places: list[float] = []
    scores: list[float] = []
    changed = decisions = departures = 0
    for d in range(deals):
        seat = _learner_seats(d, "greedy-bots")[0]
        learner = PGPlannerAgent(head, stable_seed(1, d, seat))
        final = _bot_game(d, seat, learner)
        reference = _planner_among_bots(d)
        decisions += learner.decisions
        departures += learner.departures
        places.append(_ranks(final)[seat] - _ranks(reference)[seat])
        scores.append(float(final[seat] - reference[seat]))
        changed += final != reference
    place_diff, place_half = _mean_half(places)
    score_diff, score_half = _mean_half(scores)
    return CurvePoint(games_done, deals, place_diff, place_half, score_diff, score_half,
                      changed, time.process_time() - start, "greedy-bots", decisions,
                      departures)


def _ranks(final: tuple[int, ...]) -> list[float]:
    """Places 1-4, ties sharing the mean of their places (the pair measures are symmetric)."""
    out = []
    for v in final:
        above = sum(1 for w in final if w > v)
        same = sum(1 for w in final if w == v)
        out.append(above + (same + 1) / 2)
    return out


def _mean_half(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    if n == 0:
        return 0.0, 0.0
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return mean, 1.96 * math.sqrt(var / n)


# ---------------------------------------------------------------------- checkpoints
def _checkpoint_path(out: Path) -> Path:
    return out.with_name(out.name + ".ckpt")


def _save_checkpoint(path: Path, cfg: PlannerPGConfig, state: _State) -> None:
    payload = {
        "format": CHECKPOINT_FORMAT,
        "settings": asdict(cfg),
        "head": state.head.to_json(),
        "adam": {"m": state.adam.m.tolist(), "v": state.adam.v.tolist(), "t": state.adam.t},
        "progress": {"games": state.games, "updates": state.updates, "curve": state.curve,
                     "history": state.history, "cpu_seconds": state.cpu_seconds},
    }
    write_text_atomic(path, json.dumps(payload, sort_keys=True) + "\n")


def _load_checkpoint(path: Path, cfg: PlannerPGConfig) -> _State:
    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as err:
        raise PlannerPGError(f"{path}: unreadable checkpoint ({err})") from None
    if not isinstance(data, dict) or data.get("format") != CHECKPOINT_FORMAT:
        raise PlannerPGError(f"{path}: not a {CHECKPOINT_FORMAT} checkpoint")
    mine = asdict(cfg)
    settings = data.get("settings")
    if not isinstance(settings, dict):
        raise PlannerPGError(f"{path}: checkpoint has no settings")
    for key in _IDENTITY:
        if key in _UNUSED[cfg.estimator]:
            continue
        theirs = settings.get(key, _BEFORE.get(key))
        if theirs != mine[key]:
            raise PlannerPGError(
                f"{path}: checkpoint was made with {key}={theirs!r}, this "
                f"run asks for {mine[key]!r}; use another --out or delete the checkpoint")
    made = data.get("head")
    if (not isinstance(made, dict)
            or tuple(made.get("discard_features", ())) != DISCARD_FEATURES
            or tuple(made.get("call_features", ())) != CALL_FEATURES):
        # a finished head of fewer features still loads (they weigh 0), but a run cannot go on
        # with an optimiser state sized for other features
        raise PlannerPGError(f"{path}: checkpoint was made with other features than this "
                             "version's; use another --out or delete the checkpoint")
    try:
        head = PlannerHead.from_json(made, str(path))
        adam = _Adam(np.array(data["adam"]["m"], dtype=np.float64),
                     np.array(data["adam"]["v"], dtype=np.float64), int(data["adam"]["t"]))
        p = data["progress"]
        return _State(head, adam, int(p["games"]), int(p["updates"]), list(p["curve"]),
                      list(p["history"]), float(p["cpu_seconds"]))
    except (KeyError, TypeError, ValueError) as err:
        raise PlannerPGError(f"{path}: checkpoint garbles {err}") from None


# ---------------------------------------------------------------------- the run
def train_planner_pg(
    cfg: PlannerPGConfig, progress: Callable[[str], None] = print
) -> PlannerHead:
    """Run (or continue) a training run; writes ``cfg.out`` (the final head, with the curve
    and the settings in its ``info``) and returns the head."""
    cfg.check()
    out = Path(cfg.out)
    ckpt = _checkpoint_path(out)
    n = len(DISCARD_FEATURES) + len(CALL_FEATURES)
    if ckpt.exists():
        state = _load_checkpoint(ckpt, cfg)
        progress(f"resumed from {ckpt} at {state.games} games ({state.updates} updates)")
    else:
        state = _State(PlannerHead.start(cfg.planner_prior), _Adam(np.zeros(n), np.zeros(n)))
    wall0 = time.monotonic()
    last_ckpt = wall0
    per_update = cfg.games_per_update

    def curve_point() -> None:
        for opponent in (cfg.opponents, "efficiency") if cfg.eval_efficiency else (cfg.opponents,):
            point = (evaluate_against_bots(state.head, cfg.eval_deals, state.games)
                     if opponent == "greedy-bots"
                     else evaluate_pairs(state.head, cfg.eval_deals, state.games, opponent))
            state.curve.append(asdict(point))
            state.cpu_seconds += point.cpu_seconds
            versus = "planner, both among the greedy bots," if opponent == "greedy-bots" \
                else opponent
            progress(f"curve @ {point.games} games: learner - {versus} "
                     f"{point.place_diff:+.3f} ± {point.place_half:.3f} places, "
                     f"{point.score_diff:+.2f} ± {point.score_half:.2f} points per seat-game; "
                     f"{point.departures} of {point.decisions} greedy decisions off the "
                     f"planner's ({point.changed_games} of {point.deals} deals changed; "
                     f"{point.cpu_seconds:.0f} CPU s)")

    def last_point_games() -> int | None:
        return int(state.curve[-1]["games"]) if state.curve else None

    while state.games + per_update <= cfg.max_games:
        if cfg.minutes and time.monotonic() - wall0 > cfg.minutes * 60:
            progress("wall-clock budget reached")
            break
        if cfg.cpu_minutes and state.cpu_seconds > cfg.cpu_minutes * 60:
            progress("CPU budget reached")
            break
        c0 = time.process_time()
        deal0 = state.updates * cfg.deals_per_update
        stats = _update_games(cfg, state, deal0)
        state.games += per_update
        state.updates += 1
        state.cpu_seconds += time.process_time() - c0
        stats.update(games_total=state.games, cpu_seconds=round(state.cpu_seconds, 1))
        state.history.append(stats)
        kept = (f"{stats['points_changed']} of {stats['points']} branch points changed "
                f"the score, " if cfg.estimator == "vine" else "")
        progress(
            f"update {state.updates}: {state.games} games, {stats['off_planner']}/"
            f"{stats['decisions']} {'greedy' if cfg.estimator == 'vine' else 'sampled'} "
            f"answers off the planner's, {kept}|adv| "
            f"{stats['mean_abs_advantage']:.3f}, |grad| {stats['grad_norm']:.3f}, "
            f"w_planner {state.head.discard[0]:.2f}/{state.head.call[0]:.2f}, "
            f"CPU {state.cpu_seconds:.0f} s")
        if cfg.eval_every and cfg.eval_deals and state.games % cfg.eval_every < per_update:
            curve_point()
        if time.monotonic() - last_ckpt > cfg.checkpoint_minutes * 60:
            _save_checkpoint(ckpt, cfg, state)
            last_ckpt = time.monotonic()
    if cfg.eval_deals and last_point_games() != state.games:
        curve_point()
    _save_checkpoint(ckpt, cfg, state)
    method = ("the vine over the planner's candidates: kept decisions of greedy games, each "
              "answer played on from a copy of the table, advantage against the point's mean "
              "(tenpai.rl.planner_vine), against two planner seats"
              if cfg.estimator == "vine" else
              "REINFORCE over the planner's candidates, leave-one-out baseline over "
              "samples of the same deal, "
              + ("one learner seat against three greedy Botzone bots"
                 if cfg.opponents == "greedy-bots" else "against two planner seats")
              + " (tenpai.rl.planner_pg)")
    state.head.info = {
        "method": method,
        "settings": asdict(cfg),
        "planner_prior": cfg.planner_prior,
        "games": state.games,
        "updates": state.updates,
        "cpu_seconds": round(state.cpu_seconds, 1),
        "curve": state.curve,
    }
    state.head.save(out)
    progress(f"wrote {out} ({state.games} games, {state.cpu_seconds:.0f} CPU s)")
    return state.head
