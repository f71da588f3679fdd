"""The playout policies by name, as the search settings spell them.

A table of names is all that the settings' checks, the Python playout, the compiled playout and
the choice between them (:mod:`tenpai.search.playout_backends`) have in common, so it sits
below all of them: :data:`POLICIES` the Python ones (agents made from a seed, imported only
when a playout makes one), :data:`FAST_POLICIES` those that are
:class:`~tenpai.search.policies.FastPolicy` with its keyword arguments (the ones the open-hand
yaku rule applies to), :data:`COMPILED_POLICIES` the ones the compiled core plays.
"""

from __future__ import annotations

from collections.abc import Callable

from tenpai.engine.agent import Agent

__all__ = ["COMPILED_POLICIES", "FAST_POLICIES", "POLICIES", "fast_policy"]


def _efficiency(seed: int) -> Agent:
    from tenpai.agents.efficiency import EfficiencyAgent

    return EfficiencyAgent(seed)


def _defensive(seed: int) -> Agent:
    from tenpai.agents.defensive import DefensiveAgent

    return DefensiveAgent(seed)


#: The :class:`~tenpai.search.policies.FastPolicy` policies by name, as its keyword arguments
#: (the ones the open-hand yaku rule, ``yaku=True``, applies to).
FAST_POLICIES: dict[str, dict[str, bool]] = {
    "fast-fold": {"fold": True},
    "fast": {},
    # the Python references of the compiled rollout policies (no calls)
    "greedy": {"calls": False},
    "greedy-fold": {"fold": True, "calls": False},
    # ``fast``/``fast-fold`` that also declare kans (and Norths set aside)
    "fast-kan": {"kans": True},
    "fast-kan-fold": {"fold": True, "kans": True},
}


def fast_policy(name: str, yaku: str = "off") -> Callable[[int], Agent]:
    """The maker of the :data:`FAST_POLICIES` policy ``name`` with the open-hand yaku rule
    ``yaku`` (:mod:`tenpai.search.policies`)."""
    def make(seed: int) -> Agent:
        from tenpai.search.policies import FastPolicy

        return FastPolicy(seed, yaku=yaku, **FAST_POLICIES[name])

    return make


#: Playout policies by name (one agent object per seat, made from the playout's seed).
POLICIES: dict[str, Callable[[int], Agent]] = {
    **{name: fast_policy(name) for name in ("fast-fold", "fast")},
    "efficiency": _efficiency,
    "defensive": _defensive,
    **{name: fast_policy(name) for name in ("greedy", "greedy-fold", "fast-kan",
                                            "fast-kan-fold")},
}


#: Policies of the compiled rollout core (:mod:`tenpai.search.compiled_playout`), by the names
#: the search settings use: ``c:greedy`` plays what ``greedy`` plays, in C (``c:fast`` and
#: ``c:fast-fold`` with their chi and pon, ``c:fast-kan`` and ``c:fast-kan-fold`` with kans too).
COMPILED_POLICIES: tuple[str, ...] = ("c:fast", "c:fast-fold", "c:fast-kan", "c:fast-kan-fold",
                                      "c:greedy", "c:greedy-fold", "c:greedy-random",
                                      "c:tsumogiri")
