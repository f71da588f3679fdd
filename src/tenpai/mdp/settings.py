"""Search settings: the constants 001 leaves open, with the values used here."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["SearchTooLargeError", "Settings"]


class SearchTooLargeError(ValueError):
    """The hand space asked for exceeds ``Settings.max_states`` (memory and time bound)."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Parameters of the MDPs and of the player (docs/mdp_search.md, "Settings")."""

    #: Exchanges allowed beyond the shanten number when building the hand space (001 §VI-D's
    #: path length d = shanten + extra), for a best shanten of 0 and of 1 after the action.
    extra_exchanges: tuple[int, int] = (1, 0)
    #: Hand-space size above which a search is refused (SearchTooLargeError); the player then
    #: retries with one exchange fewer.
    max_states: int = 6000
    #: Folding MDP: constant end probability per discard (001: "tentatively set").
    fold_end_probability: float = 0.05
    #: Payoff of final ranks 1st..4th (001 eq. 1); minus the rank by default.
    rank_payoffs: tuple[float, float, float, float] = (-1.0, -2.0, -3.0, -4.0)
    #: Game length the rank model assumes ("tonpuu" as in 001's experiments, or "hanchan").
    game_length: str = "tonpuu"
    #: Scale of the fitted per-turn other-win hazard.
    other_win_scale: float = 1.0
    #: Chance that one opponent discard is a given unseen copy, relative to uniform.
    ron_chance_scale: float = 1.0
    #: Expected extra han from ura dora after a riichi win.
    ura_han: float = 0.4
    #: Live effective tiles assumed at shanten 0 (the waits), 1, 2, 3 for the levels a hand has
    #: not reached yet, in the shanten-chain WS / TS of shanten 2-3 hands.
    typical_ukeire: tuple[int, ...] = (6, 25, 40, 55)
    #: Shanten levels of the WS / TS chain whose rate is measured on the hand (1: the hand
    #: itself; 2: also the next level, by a one-step look-ahead; tenpai.mdp.chain).
    chain_measured_levels: int = 2
    #: At shanten 2-3 with nobody in riichi, rank only the discards that keep the best
    #: shanten by eq. 17 (the uncalibrated chain over-rates wide but farther hands).
    far_keep_shanten: bool = True
    #: Break exact ties between discards by the efficiency order (effective tiles, then
    #: terminals and honours first) instead of by tile order.
    efficiency_ties: bool = True
    #: Eq. 17's P(lose): the discard's own deal-in, then max(push, fold) over the rest of the
    #: hand (True); or, as first written, max(discard + push, fold), which let the folding
    #: risk of the rest hide a dangerous discard (False).
    far_lose_after_discard: bool = True
    #: 001 §VI-E: "the folding tendency [of the others after a riichi] is reflected by
    #: modifying the values of [two terms]": here the lose and the other-win chances of the
    #: riichi chain's tsumogiri discards are multiplied by these factors (1.0: not modelled).
    #: Measured on 150 held-out Houou games (docs/mdp_search.md): after a player's riichi the
    #: others won 0.63 times as often as the fitted hazard says, while its tsumogiri dealt in
    #: 1.13 times as often as eq. 20 says (random tiles, no folding effect): (1.0, 0.63).
    riichi_fold_factors: tuple[float, float] = (1.0, 0.63)
    #: At shanten 0-1 with an opponent in riichi, a discard may also be followed by FS's
    #: folding policy (its value is the better of IPS and that fold): the small IPS space
    #: gives a broken hand no way to fold (player.root_fold_value).
    root_fold: bool = True
    #: A chi or pon must beat passing by this much (rank payoff).  The search cannot see what
    #: a call gives up outside its small space (riichi, closed-hand yaku, flexibility); in the
    #: arena, calls at a near-tie made open hands without a yaku (measured: 22 % call rate).
    call_margin: float = 0.02
    #: Shanten from which the rule-based fallback plays (001: above three).
    fallback_shanten: int = 4

    def __post_init__(self) -> None:
        if len(self.extra_exchanges) != 2 or min(self.extra_exchanges) < 0:
            raise ValueError("extra_exchanges must be two numbers >= 0 (shanten 0, shanten 1)")
        if self.max_states < 1:
            raise ValueError("max_states must be positive")
        if not 0.0 <= self.fold_end_probability < 1.0:
            raise ValueError("fold_end_probability must be in [0, 1)")
        if len(self.riichi_fold_factors) != 2 or not all(
                0.0 <= f <= 1.0 for f in self.riichi_fold_factors):
            raise ValueError("riichi_fold_factors must be two numbers in [0, 1] (lose, other win)")
        if self.game_length not in ("tonpuu", "hanchan"):
            raise ValueError("game_length must be tonpuu or hanchan")
