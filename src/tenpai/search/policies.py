"""Fast playout policies: shanten-greedy, with or without folding against riichi.

The arena's ``efficiency`` and ``defensive`` agents are fine playout policies but slow ones for
search: ``defensive`` rebuilds the seat's masked event list at every decision (most of a
playout's time, measured with cProfile) and ``efficiency`` counts effective tiles separately for
every discard.  These two read only the table's lazy fields:

* ``fast``: wins when it can, declares riichi when it can, discards by
  :func:`~tenpai.hand.efficiency.discard_ukeire` (lowest shanten, then most live effective
  tiles, then terminals/honours first); calls only when ``efficiency`` would (shanten drops and
  a yaku stays in reach); never kans;
* ``fast-fold``: the same, but while another seat is in riichi and its own hand is not ready
  (best shanten after the discard ≥ ``fold_shanten``) it discards the tile of least
  :func:`~tenpai.agents.defensive.danger` summed over the riichi seats — genbutsu there is the
  riichi seat's own river (what was passed after the declaration is not tracked: that needs the
  event list) — and passes every call.

``calls=False`` passes every chi and pon too: ``greedy`` and ``greedy-fold``, the Python
reference of the compiled rollout policies (:mod:`tenpai.rules.riichi.rollout`), which never
call; the tests play the same worlds with both and require the same hand ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tenpai import tiles as T
from tenpai.agents.defensive import danger
from tenpai.agents.efficiency import EfficiencyAgent
from tenpai.events import Event
from tenpai.hand.efficiency import discard_ukeire

__all__ = ["FastPolicy"]


class FastPolicy:
    """See the module docstring; ``fold=True`` is ``fast-fold``."""

    def __init__(
        self, seed: int = 0, *, fold: bool = False, fold_shanten: int = 1, calls: bool = True
    ) -> None:
        if calls:
            self.name = "fast-fold" if fold else "fast"
        else:
            self.name = "greedy-fold" if fold else "greedy"
        self.fold = fold
        self.calls = calls
        self.fold_shanten = fold_shanten
        self._calls = EfficiencyAgent(seed)

    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]:
        return [self.act(o, legal) for o, legal in requests]

    def act(self, obs: Any, legal: Sequence[Event]) -> Event:
        for e in legal:
            if e.type == "hora":
                return e
        types = {e.type for e in legal}
        if "dahai" in types or "reach" in types:
            return self._own_turn(obs, legal)
        passing = next((e for e in legal if e.type == "none"), legal[0])
        if types & {"chi", "pon"}:
            if not self.calls or (self.fold and self._threats(obs)):
                return passing
            return self._calls._claim(obs, legal)
        return passing

    @staticmethod
    def _threats(obs: Any) -> list[int]:
        riichi = obs.riichi
        return [s for s in range(len(riichi)) if riichi[s] and s != obs.seat]

    def _own_turn(self, obs: Any, legal: Sequence[Event]) -> Event:
        reach = next((e for e in legal if e.type == "reach"), None)
        discards = [e for e in legal if e.type == "dahai"]
        if not discards:
            return reach if reach is not None else legal[0]
        if len(discards) == 1 and reach is None:
            return discards[0]
        visible = obs.visible_counts()
        counts = obs.counts
        options = {o.discard: o for o in discard_ukeire(counts, visible)}
        allowed = {T.kind_of(e.pai) for e in discards if e.pai is not None}

        def eff_key(k: int) -> tuple[int, int, int]:
            o = options[k]
            edge = 0 if T.is_terminal_or_honor(k) else (1 if T.number_of(k) in (2, 8) else 2)
            return (o.shanten, -o.total, edge)

        kinds = [k for k in sorted(allowed) if k in options]
        if not kinds:
            return discards[0]
        best = min(kinds, key=eff_key)
        threats = self._threats(obs) if self.fold and not obs.riichi[obs.seat] else []
        if threats and options[best].shanten >= self.fold_shanten:
            seen = list(visible)
            for k in range(34):
                seen[k] += counts[k]
            rivers = obs.rivers
            safe = [frozenset(T.kind_of(t) for t in rivers[s]) for s in threats]
            kinds.sort(key=lambda k: (sum(danger(k, sf, seen) for sf in safe), eff_key(k)))
            best = kinds[0]
            return _discard_of(discards, best)
        if reach is not None:
            return reach
        return _discard_of(discards, best)


def _discard_of(discards: Sequence[Event], kind: int) -> Event:
    options = [e for e in discards if e.pai is not None and T.kind_of(e.pai) == kind]
    options.sort(key=lambda e: (e.pai is not None and T.is_red(e.pai), not e.tsumogiri))
    return options[0]
