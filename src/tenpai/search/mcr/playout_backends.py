"""The MCR playout of a ``POLICY`` name: the one module that chooses between the Python engine
and the compiled core.

:class:`~tenpai.search.mcr.compiled.CompiledMCRPlayout` is built on its specification, the
Python :class:`~tenpai.search.mcr.playout.MCRPlayout` (the hands the core does not cover are
played by it), so the compiled module imports the Python one and never the other way round;
the choice by name sits here, above both, and the agent and the measurements ask it.
"""

from __future__ import annotations

from tenpai.search.mcr.compiled import CompiledMCRPlayout
from tenpai.search.mcr.playout import COMPILED_MCR_POLICIES, MCRPlayout

__all__ = ["make_playout"]


def make_playout(policy: str, own: str = "same") -> MCRPlayout | CompiledMCRPlayout:
    """The playout of a ``POLICY`` name: :data:`~tenpai.search.mcr.playout.MCR_POLICIES` on
    the Python engine, or :data:`~tenpai.search.mcr.playout.COMPILED_MCR_POLICIES` in the
    compiled core (raises :class:`~tenpai.search.mcr.compiled.MCRRolloutUnavailable` when it
    is not built).  ``own`` other than ``same`` (the searching seat played by the planner) is
    Python only: the core has no planner."""
    if policy in COMPILED_MCR_POLICIES:
        if own != "same":
            raise ValueError(f"the searching seat's player {own!r} needs a Python playout "
                             f"policy, not {policy!r}")
        return CompiledMCRPlayout(policy.removeprefix("c:"))
    return MCRPlayout(policy, own=own)
