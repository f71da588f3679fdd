"""The playout backend of a policy name: the one module that knows both implementations.

``c:<name>`` (:data:`~tenpai.search.playout_policies.COMPILED_POLICIES`) plays in the compiled
core, any other name (:data:`~tenpai.search.playout_policies.POLICIES`) in the Python engine.
The two backends share only what sits below them (:mod:`tenpai.search.hand_end`,
:mod:`tenpai.search.playout_policies`); neither imports the other, and the agents ask this
module instead of naming one.

The compiled backend is imported only when a ``c:`` policy asks for it: importing it loads the
core's rollout binding and the rule-based policies it plays (:mod:`tenpai.search.policies`, and
through them the arena's agents), which a search with a Python policy never uses.
"""

from __future__ import annotations

from tenpai.search.playout import PlayoutBackend, PythonPlayout

__all__ = ["make_backend"]


def make_backend(policy: str, yaku: str = "off", solo: bool = False) -> PlayoutBackend:
    """The playout backend of a settings policy name: ``c:<name>`` plays in the compiled core
    (:class:`~tenpai.search.compiled_playout.CompiledPlayout`, which raises
    ``RolloutUnavailable`` when it is not built), any other name in the Python engine;
    ``yaku`` is the open-hand yaku rule (:mod:`tenpai.search.policies`); ``solo`` the
    one-player playout, the searching seat alone against passive seats
    (:mod:`tenpai.search.leaves`)."""
    if policy.startswith("c:"):
        from tenpai.search.compiled_playout import CompiledPlayout

        return CompiledPlayout(policy[2:], yaku=yaku, solo=solo)
    return PythonPlayout(policy, yaku=yaku, solo=solo)
