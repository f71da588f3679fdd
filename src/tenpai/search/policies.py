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

``kans=True`` (``fast-kan``, ``fast-kan-fold``) adds kans, so that rollouts meet rinshan
draws, kan dora, chankan and the four-kan abort as real hands do.  The rule, for each closed
kan, added kan and (three players) North set aside the engine offers after a draw, in its
order, and for an open kan on a discard: declare it when the hand after it is no worse than
the best the seat can do without it — its shanten no higher, and at equal shanten its live
effective tiles no fewer (counted as ``discard_ukeire`` counts them, the kan's tiles seen).
Without it the seat compares its best legal discard; before an open kan, the 13 tiles it
holds.  An open kan also needs what a pon of that tile needs to be worth it: a yaku in reach
(a dragon, the seat or round wind, or an all-simples hand).  The engine's legal actions decide
what is allowed (a closed kan in riichi only where the waits stay), and ``fast-kan-fold``
declares nothing while another seat is in riichi.  Kans come after a win and before riichi
and the discard.

``yaku`` (the search setting ``TENPAI_SEARCH_PLAYOUT_YAKU``, every policy above) adds the
open-hand yaku rule to the shanten-greedy discard.  :func:`yaku_avoid` names the kinds an open
hand with no secured yaku (no pon, kan or concealed triplet of a dragon, its seat wind or the
round wind) keeps rather than discards: when all its melds are simples (the all-simples
route) every simple it holds, so that its non-simples go first; else the value honours it
holds a pair of (kept while they may become a pon).  ``strict``: the discard is chosen among
the other kinds while the hand holds any, whatever their shanten; ``ties``: only among the
discards of the best shanten (an avoided kind goes only when every discard of that shanten
is one).  The fold against riichi is unchanged.  The compiled core's
``yaku_avoid`` is the same rule (tests/search/test_playout_yaku_rule.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tenpai import tiles as T
from tenpai.agents.defensive import danger
from tenpai.agents.efficiency import EfficiencyAgent
from tenpai.events import Event
from tenpai.hand.efficiency import discard_ukeire, ukeire
from tenpai.hand.shanten import shanten
from tenpai.rules.riichi.rollout import YAKU_RULES

__all__ = ["FastPolicy", "yaku_avoid"]


class FastPolicy:
    """See the module docstring; ``fold=True`` is ``fast-fold``."""

    def __init__(
        self,
        seed: int = 0,
        *,
        fold: bool = False,
        fold_shanten: int = 1,
        calls: bool = True,
        kans: bool = False,
        yaku: str = "off",
    ) -> None:
        if kans:
            self.name = "fast-kan-fold" if fold else "fast-kan"
        elif calls:
            self.name = "fast-fold" if fold else "fast"
        else:
            self.name = "greedy-fold" if fold else "greedy"
        self.fold = fold
        self.calls = calls or kans
        self.kans = kans
        if yaku not in YAKU_RULES:
            raise ValueError(f"unknown yaku rule {yaku!r}; known: {', '.join(YAKU_RULES)}")
        self.yaku = yaku
        self.fold_shanten = fold_shanten
        self._calls = EfficiencyAgent(seed)

    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]:
        return [self.act(o, legal) for o, legal in requests]

    def act(self, obs: Any, legal: Sequence[Event]) -> Event:
        for e in legal:
            if e.type == "hora":
                return e
        types = {e.type for e in legal}
        if self.kans and types & _KAN_TYPES and not (self.fold and self._threats(obs)):
            kan = self._kan(obs, legal)
            if kan is not None:
                return kan
        if "dahai" in types or "reach" in types:
            return self._own_turn(obs, legal)
        passing = next((e for e in legal if e.type == "none"), legal[0])
        if types & {"chi", "pon"}:
            if not self.calls or (self.fold and self._threats(obs)):
                return passing
            return self._calls._claim(obs, legal)
        return passing

    def _kan(self, obs: Any, legal: Sequence[Event]) -> Event | None:
        """The first kan (or North set aside) of ``legal`` worth declaring (module docstring)."""
        counts = list(obs.counts)
        visible = obs.visible_counts()
        discards = {T.kind_of(e.pai) for e in legal if e.type == "dahai" and e.pai is not None}
        if discards:
            # after a draw: the best legal discard without the kan
            before = min((o.shanten, -o.total) for o in discard_ukeire(counts, visible)
                         if o.discard in discards)
        else:
            # a claim window: the 13 tiles held
            before = (shanten(counts), -ukeire(counts, visible).total)
        for e in legal:
            if e.type not in _KAN_TYPES:
                continue
            if e.type == "daiminkan":
                assert e.pai is not None
                kind = T.kind_of(e.pai)
                if not _keeps_a_yaku(obs, kind):
                    continue
                removed = 3
            elif e.type == "ankan":
                kind, removed = T.kind_of(e.consumed[0]), 4
            else:  # kakan, nukidora: one tile leaves the hand
                assert e.pai is not None
                kind, removed = T.kind_of(e.pai), 1
            after = counts.copy()
            after[kind] -= removed
            seen = list(visible)
            seen[kind] += removed
            if (shanten(after), -ukeire(after, seen).total) <= before:
                return e
        return None

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
        pool = kinds
        if self.yaku != "off":
            avoid = yaku_avoid(obs)
            if self.yaku == "ties":
                least = min(options[k].shanten for k in kinds)
                pool = [k for k in kinds if options[k].shanten == least]
            pool = [k for k in pool if k not in avoid] or kinds
        best = min(pool, key=eff_key)
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


_KAN_TYPES = frozenset({"ankan", "kakan", "daiminkan", "nukidora"})


def _keeps_a_yaku(obs: Any, kind: int) -> bool:
    """What ``EfficiencyAgent._keeps_a_yaku`` asks of a pon of ``kind``, for an open kan of it:
    a dragon, the seat or round wind, or every tile of the hand and its melds a simple."""
    if kind >= 31 or kind == obs.seat_wind or kind == 27 + obs.bakaze:
        return True
    own = [T.kind_of(t) for t in obs.hand]
    own += [T.kind_of(t) for m in obs.melds[obs.seat] for t in m.tiles]
    return T.is_simple(kind) and all(T.is_simple(x) for x in own)


def yaku_avoid(obs: Any) -> frozenset[int]:
    """The kinds the open-hand yaku rule keeps out of the discard choice (module docstring):
    none for a closed hand or one with a secured yaku; else every simple held when all the
    melds are simples (the non-simples go first), or the value honours held in pairs when
    they are not."""
    melds = obs.melds[obs.seat]
    if not any(m.is_open for m in melds):
        return frozenset()
    value = {31, 32, 33, obs.seat_wind, 27 + obs.bakaze}
    counts = obs.counts
    if any(m.type != "chi" and T.kind_of(m.tiles[0]) in value for m in melds):
        return frozenset()
    if any(counts[k] >= 3 for k in value):
        return frozenset()
    if all(T.is_simple(T.kind_of(t)) for m in melds for t in m.tiles):
        return frozenset(k for k in range(34) if counts[k] and T.is_simple(k))
    return frozenset(k for k in value if counts[k] >= 2)


def _discard_of(discards: Sequence[Event], kind: int) -> Event:
    options = [e for e in discards if e.pai is not None and T.kind_of(e.pai) == kind]
    options.sort(key=lambda e: (e.pai is not None and T.is_red(e.pai), not e.tsumogiri))
    return options[0]
