"""Turning finished self-play games into per-decision returns.

Seed 002 (Zheng et al.) found that the final game score of MCR gave REINFORCE too noisy a signal
to converge and shaped the reward with the *win distance* (shanten): a discard that brings the
hand closer to winning is rewarded, one that moves it away is punished.  We keep both parts and
make their mix a setting:

* the **outcome** of the hand a decision belongs to (its seat's point change over that hand, in
  units of ``points_scale``), or of the whole game (its final placement), and
* the **shaping** term ``shaping * (shanten before - shanten after)`` for each discard, where
  "before" is the seat's 13-tile shanten after its previous discard in the same hand.  Summed
  over a hand it telescopes to ``shaping * (first - last)``.  That is *not* a policy-invariant
  potential-based shaping (Ng, Harada & Russell 1999): the hand's last shanten is not given
  potential 0, so each decision's return carries ``-shaping * last shanten`` and a hand that ends
  far from winning is worth less.  That is 002's intent (win distance *is* its reward), but in
  Riichi it is also a price on folding: breaking a hand two steps to discard safe tiles costs
  ``2 * shaping`` (1,600 points at the defaults) whether or not it avoided a deal-in.  A truly
  potential-based version would add nothing to an undiscounted reward-to-go gradient (its
  return would depend on the state before the decision only), so the setting is a weight, and
  ``shaping=0`` is the pure outcome.

Returns are reward-to-go within a hand (a decision is not credited with shaping earned before
it), plus the outcome, undiscounted: a hand lasts at most a few dozen of one seat's discards.

``shaping_discount`` discounts the shaping part alone (the outcome stays undiscounted).  At 0
it reads 002's sentence literally ("a discard that shrinks the win distance is rewarded, one
that grows it punished"): each discard is credited with its own shanten step only.  Why: summed
to go (discount 1, the default), the shaping of decision ``t`` is ``shaping * (shanten before
t - last shanten)``; the first term does not depend on the action and the second depends on it
only through every later draw, so a discard that breaks the hand is punished by a noisy
fraction of a step.  At discount 0 the same discard is punished by exactly one step, every
time.  A discount below 1 changes the objective (a preference for discards that keep the hand
close to ready soon), it is not a lower-variance estimate of the same one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tenpai.events import Event

__all__ = [
    "OUTCOMES", "RewardConfig", "hand_deltas", "hand_key", "placement_values",
    "returns", "scores_by_player",
]

#: Outcome signals: ``hand`` = the seat's point change over the decision's hand; ``rank`` = the
#: placement value of the seat at the end of the game (same for all its decisions).
OUTCOMES = ("hand", "rank")

HandKey = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class RewardConfig:
    """How a game becomes returns (every field is recorded in the model card)."""

    outcome: str = "hand"
    #: Points that count as 1.0 of reward (Riichi: a mangan, 8,000; MCR Botzone: 24 points).
    points_scale: float = 8000.0
    #: Placement values from first to last for ``outcome="rank"`` (Tenhou-like uma, scaled).
    rank_values: tuple[float, ...] = (1.0, 0.4, -0.4, -1.0)
    #: Weight of one step of shanten in the shaping term (0 turns shaping off).
    shaping: float = 0.1
    #: Discount of the shaping within a hand: 1 sums it to go (the default), 0 credits each
    #: discard with its own shanten step only.
    shaping_discount: float = 1.0

    def __post_init__(self) -> None:
        if self.outcome not in OUTCOMES:
            raise ValueError(f"reward outcome {self.outcome!r}; choose {', '.join(OUTCOMES)}")
        if not 0.0 <= self.shaping_discount <= 1.0:
            raise ValueError(f"shaping_discount must be in [0, 1], got {self.shaping_discount}")
        if self.points_scale <= 0:
            raise ValueError(f"points_scale must be positive, got {self.points_scale}")


def hand_key(start: Event) -> HandKey:
    """The key of a hand within a game: (round wind, hand number, repeat counter)."""
    return (start.bakaze or 0, start.kyoku or 0, start.honba or 0)


def scores_by_player(start: Event) -> list[int]:
    """A hand's start scores indexed by player, as decisions and final scores are.

    ``start_kyoku.scores`` are by table position; MCR's full game seats players at other
    positions each round (``meta["seating"]``: the player at each position).  Without seating
    (Riichi, Botzone's one hand) positions are players."""
    scores = list(start.scores or ())
    seating = (start.meta or {}).get("seating")
    if not seating:
        return scores
    out = [0] * len(scores)
    for pos, player in enumerate(seating):
        out[player] = scores[pos]
    return out


def hand_deltas(events: Sequence[Event], final_scores: Sequence[int]) -> dict[HandKey, list[int]]:
    """Each hand's point change per player, from the scores at its start to the next hand's
    start (the final scores for the last hand); riichi deposits and honba are included that
    way."""
    starts = [e for e in events if e.type == "start_kyoku"]
    out: dict[HandKey, list[int]] = {}
    for i, s in enumerate(starts):
        after = scores_by_player(starts[i + 1]) if i + 1 < len(starts) else list(final_scores)
        out[hand_key(s)] = [a - b for a, b in zip(after, scores_by_player(s))]
    return out


def placement_values(final_scores: Sequence[int], cfg: RewardConfig) -> list[float]:
    """Each seat's placement value (ties broken by seat order, as Tenhou does)."""
    n = len(final_scores)
    order = sorted(range(n), key=lambda s: (-final_scores[s], s))
    values = [0.0] * n
    for place, seat in enumerate(order):
        values[seat] = cfg.rank_values[min(place, len(cfg.rank_values) - 1)]
    return values


def returns(
    decisions: Sequence[tuple[int, HandKey, int]],
    events: Sequence[Event],
    final_scores: Sequence[int],
    cfg: RewardConfig,
) -> list[float]:
    """The return of each decision ``(seat, hand key, shanten after it)``, in game order.

    Decisions are one seat's sampled discards; their order within a (seat, hand) is the order
    they were made.  A decision whose hand is not among the game's hands gets outcome 0 (it
    cannot happen with the engines' own events; the check keeps a malformed game from raising).
    """
    deltas = hand_deltas(events, final_scores)
    places = placement_values(final_scores, cfg)
    shaped = [0.0] * len(decisions)
    groups: dict[tuple[int, HandKey], list[int]] = {}
    for i, (seat, key, _) in enumerate(decisions):
        groups.setdefault((seat, key), []).append(i)
    for idx in groups.values():
        step_rewards = []
        prev = decisions[idx[0]][2]
        for i in idx:
            after = decisions[i][2]
            step_rewards.append(cfg.shaping * (prev - after))
            prev = after
        to_go = 0.0
        for pos in range(len(idx) - 1, -1, -1):
            to_go = step_rewards[pos] + cfg.shaping_discount * to_go
            shaped[idx[pos]] = to_go
    out = []
    for i, (seat, key, _) in enumerate(decisions):
        if cfg.outcome == "hand":
            delta = deltas.get(key)
            outcome = delta[seat] / cfg.points_scale if delta is not None else 0.0
        else:
            outcome = places[seat]
        out.append(outcome + shaped[i])
    return out
