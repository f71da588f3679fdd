"""A rule-based player that folds against threats unless its own hand is worth pushing.

The efficiency agent races every hand to the end and deals in often.  This agent plays the same
way while nobody threatens, but once an opponent declares riichi (or shows an obviously fast,
valuable open hand) it weighs two hand-designed numbers:

* **danger** of each discard against each threat, a rough deal-in estimate in percent built from
  the classic defence tools: *genbutsu* (tiles the threat discarded, or passed after its riichi,
  can never ron it), *suji* (a threat that discarded 4 cannot be waiting 1-4 or 4-7 on a
  two-sided wait), *kabe* / *one-chance* (when all four, or three, copies of a neighbour are in
  sight, the two-sided shapes through it are impossible or unlikely) and the copies left of the
  tile itself (pair and single waits);
* **value** of its own hand: how close it is (shanten), how many live tiles improve it
  (ukeire), and a han estimate (dora, red fives, value honours, a riichi or tanyao to come).

It pushes a ready hand with live waits or with value, and a one-away hand only when it is early,
wide and valuable; otherwise it folds: the least dangerous discard, no calls, no riichi.  The
numbers are deliberately simple and documented in docs/agents.md; the arena measures whether
they work.

The rule is written for Riichi and plays the 108-tile rules too: what it reads from the table
that depends on the rule set (threats and their safe tiles, visible tiles, dora, the hand value)
goes through a :class:`DefenceReading` (:mod:`tenpai.agents.defensive_types`, with the other shapes
both readings share); :mod:`tenpai.agents.defensive_suits108` has the 108-tile one (the ready
declaration as the threat, safety from passed tiles as there is no furiten).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tenpai import tiles as T
from tenpai.agents.defensive_suits108 import (
    SUITS108_POLICY,
    SUITS108_READING,
    is_suits108_observation,
)
from tenpai.agents.defensive_types import DefenceReading, PushFoldPolicy, Threat
from tenpai.agents.efficiency import EfficiencyAgent
from tenpai.events import Event
from tenpai.hand import discard_ukeire, shanten, ukeire

__all__ = [
    "RIICHI_READING", "DefenceReading", "DefensiveAgent", "PushFoldPolicy", "Threat", "danger",
    "find_threats", "reading_for", "threat_danger",
]

#: Deal-in weight of one live two-sided (ryanmen) shape through a tile.
_RYANMEN = 4.0
#: Weight of a closed (kanchan) or edge (penchan) wait on the tile.
_KANCHAN = 1.0
_PENCHAN = 1.0
#: Weight of pair / single waits (shanpon, tanki) when all three other copies are live.
_PAIR_WAIT = 1.5
#: Honour danger by the copies still unseen (0, 1, 2, 3).
_HONOR_BY_LEFT = (0.0, 0.8, 2.5, 4.0)
#: A dora (or red five) costs more when it deals in: scale its danger.
_DORA_FACTOR = 1.25
#: A threat's own discard that no rule makes safe (no furiten) is still rarely its wait.
DISCARDED_FACTOR = 0.1


def find_threats(obs: Any) -> list[Threat]:
    """Opponents in riichi, or with three open sets (or two with a value pon or a dora) that
    show a possible yaku."""
    seat = obs.seat
    melds = obs.melds
    riichi = obs.riichi
    oya = obs.oya
    dora = {T.dora_from_indicator(T.kind_of(t)) for t in obs.dora_markers}
    events = obs.events
    threats: list[Threat] = []
    for s in range(len(melds)):  # three or four players
        if s == seat:
            continue
        open_sets = [m for m in melds[s] if m.is_open]
        if riichi[s]:
            weight = 1.5 if s == oya else 1.0
        elif not _shows_a_yaku(open_sets, obs, s):
            continue  # an open hand with no visible yaku cannot win: no threat
        elif len(open_sets) >= 3:
            weight = 0.7
        elif len(open_sets) == 2 and any(_is_value_meld(m, obs, s, dora) for m in open_sets):
            weight = 0.4
        else:
            continue
        threats.append(Threat(s, weight, frozenset(_safe_kinds(events, s, riichi[s]))))
    return threats


def _shows_a_yaku(open_sets: Sequence[Any], obs: Any, s: int) -> bool:
    """Whether open sets are consistent with a yaku: a value pon, all simples, one suit (with
    honours) or all pons.  Calls that fit none of these rarely lead to a win."""
    if not open_sets:
        return False
    seat_wind = 27 + (s - obs.oya) % getattr(obs, "players", 4)
    kinds = [[T.kind_of(t) for t in m.tiles] for m in open_sets]
    if any(
        m.type != "chi" and (k[0] >= 31 or k[0] in (seat_wind, 27 + obs.bakaze))
        for m, k in zip(open_sets, kinds)
    ):
        return True
    flat = [k for ks in kinds for k in ks]
    if all(T.is_simple(k) for k in flat):
        return True
    suits = {T.suit_of(k) for k in flat if k < 27}
    if len(suits) <= 1:
        return True
    return all(m.type != "chi" for m in open_sets)


def _is_value_meld(meld: Any, obs: Any, s: int, dora: set[int]) -> bool:
    kinds = [T.kind_of(t) for t in meld.tiles]
    k = kinds[0]
    seat_wind = 27 + (s - obs.oya) % getattr(obs, "players", 4)
    if meld.type != "chi" and (k >= 31 or k == seat_wind or k == 27 + obs.bakaze):
        return True
    return any(x in dora for x in kinds) or any(T.is_red(t) for t in meld.tiles)


def _safe_kinds(events: Sequence[Event], s: int, in_riichi: bool) -> set[int]:
    """Kinds ``s`` cannot ron: its own discards, and after its riichi anyone's discards."""
    safe: set[int] = set()
    riichi_discarded = False
    declared = False
    for e in events:
        if e.type == "reach" and e.actor == s:
            declared = True
        elif e.type == "dahai" and e.pai is not None:
            if e.actor == s:
                safe.add(T.kind_of(e.pai))
                if declared:
                    riichi_discarded = True
            elif in_riichi and riichi_discarded:
                safe.add(T.kind_of(e.pai))
    return safe


def danger(kind: int, safe: frozenset[int], seen: Sequence[int]) -> float:
    """Rough deal-in estimate (percent-like) of ``kind`` against one threat.

    ``seen`` counts the copies of each kind this seat can see, its own hand included.
    """
    if kind in safe:
        return 0.0
    left = max(0, 4 - seen[kind])
    if kind >= 27:
        return _HONOR_BY_LEFT[min(left, 3)]
    n = T.number_of(kind)
    base = kind - (n - 1)

    def live(*numbers: int) -> float:
        """1 while every tile of a shape is available, less when neighbours are walled."""
        factor = 1.0
        for m in numbers:
            c = seen[base + m - 1]
            if c >= 4:
                return 0.0
            if c == 3:
                factor *= 0.5
        return factor

    d = 0.0
    # Two-sided waits: (n-2, n-1) waits n-3/n; (n+1, n+2) waits n/n+3.  Suji kills a side.
    if n >= 4 and base + n - 4 not in safe:
        d += _RYANMEN * live(n - 2, n - 1)
    if n <= 6 and base + n + 2 not in safe:
        d += _RYANMEN * live(n + 1, n + 2)
    if 2 <= n <= 8:
        d += _KANCHAN * live(n - 1, n + 1)
    if n == 3:
        d += _PENCHAN * live(1, 2)
    if n == 7:
        d += _PENCHAN * live(8, 9)
    d += _PAIR_WAIT * min(left, 3) / 3
    return d


def threat_danger(kind: int, threat: Threat, seen: Sequence[int]) -> float:
    """:func:`danger` against one threat.  Its own unsafe discards count for suji like safe
    kinds, and are themselves rated at :data:`DISCARDED_FACTOR` of their danger."""
    if not threat.discarded:
        return danger(kind, threat.safe, seen)
    if kind in threat.discarded:
        return DISCARDED_FACTOR * danger(kind, threat.safe, seen)
    return danger(kind, threat.safe | threat.discarded, seen)


def _visible_counts(obs: Any) -> list[int]:
    visible: list[int] = obs.visible_counts()
    return visible


def _dora_kinds(obs: Any) -> frozenset[int]:
    return frozenset(T.dora_from_indicator(T.kind_of(t)) for t in obs.dora_markers)


def hand_value(obs: Any) -> int:
    """A han estimate of the own hand: dora, red fives, value honours, riichi or tanyao."""
    dora = [T.dora_from_indicator(T.kind_of(t)) for t in obs.dora_markers]
    tiles = list(obs.hand)
    melds = obs.melds[obs.seat]
    for m in melds:
        tiles.extend(m.tiles)
    kinds = [T.kind_of(t) for t in tiles]
    han = sum(kinds.count(d) for d in dora) + sum(1 for t in tiles if T.is_red(t))
    counts = obs.counts
    value_honours = {31, 32, 33, obs.seat_wind, 27 + obs.bakaze}
    for k in value_honours:
        if counts[k] >= 2 or any(T.kind_of(m.tiles[0]) == k and m.type != "chi" for m in melds):
            han += 1
    closed = not any(m.is_open for m in melds)
    if closed:
        han += 1  # riichi
    if all(T.is_simple(k) for k in kinds):
        han += 1  # tanyao in reach when no terminal or honour is held
    return han


RIICHI_READING = DefenceReading(
    "riichi", threats=find_threats, hand_value=hand_value, visible=_visible_counts,
    dora=_dora_kinds,
)
"""The Riichi reading (three players too): riichi, genbutsu by furiten, dora."""


def reading_for(obs: Any) -> DefenceReading:
    """The reading of ``obs``'s rule set."""
    return SUITS108_READING if is_suits108_observation(obs) else RIICHI_READING


class DefensiveAgent:
    """Efficiency play while safe; push or fold against riichi (or the 108-tile ready
    declaration) and obvious threats."""

    def __init__(self, seed: int = 0, name: str = "defensive", policy: PushFoldPolicy | None = None,
                 suits108_policy: PushFoldPolicy | None = None) -> None:
        self.name = name
        self.policy = policy or PushFoldPolicy()
        #: The thresholds on a 108-tile table (its shorter wall changes what "early" is).
        self.suits108_policy = suits108_policy or SUITS108_POLICY
        self._base = EfficiencyAgent(seed, name=name)

    def act(self, observation: Any, legal: Sequence[Event]) -> Event:
        for e in legal:
            if e.type == "hora":
                return e
        types = {e.type for e in legal}
        reading = reading_for(observation)
        policy = self.suits108_policy if reading.rules == "suits108" else self.policy
        threats = reading.threats(observation)
        if not threats:
            # No threat: play as efficiency does, which also decides the declaration (riichi
            # when closed; in the 108-tile game whenever offered, as expert does too).
            return self._base.act(observation, legal)
        if "dahai" in types or "reach" in types:
            return self._own_turn(observation, legal, threats, reading, policy)
        if types & {"chi", "pon", "daiminkan"}:
            # Calling while threatened only when the call makes the hand ready.
            call = self._base.act(observation, legal)
            if call.type in ("chi", "pon") and self._call_makes_ready(
                observation, call, reading.visible(observation)
            ):
                return call
        return next((e for e in legal if e.type == "none"), legal[0])

    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]:
        return [self.act(o, legal) for o, legal in requests]

    # ------------------------------------------------------------------ own turn
    def _own_turn(self, obs: Any, legal: Sequence[Event], threats: list[Threat],
                  reading: DefenceReading, policy: PushFoldPolicy) -> Event:
        discards = [e for e in legal if e.type == "dahai"]
        counts = obs.counts
        visible = reading.visible(obs)
        seen = [v + c for v, c in zip(visible, counts)]
        options = {o.discard: o for o in discard_ukeire(counts, visible)}
        dora = reading.dora(obs)
        risk: dict[int, float] = {}
        for e in discards:
            assert e.pai is not None
            k = T.kind_of(e.pai)
            if k not in risk:
                r = sum(t.weight * threat_danger(k, t, seen) for t in threats)
                risk[k] = r * (_DORA_FACTOR if k in dora else 1.0)
        push = self._should_push(obs, options, threats, policy, reading.hand_value(obs))
        reach = next((e for e in legal if e.type == "reach"), None)
        if push and reach is not None:
            return reach
        if not discards:
            return reach if reach is not None else legal[0]
        if push:
            best_sh = min(options[T.kind_of(e.pai)].shanten for e in discards if e.pai is not None)
            cost = policy.danger_cost

            def push_key(e: Event) -> tuple[float, float]:
                assert e.pai is not None
                o = options[T.kind_of(e.pai)]
                return (o.shanten - best_sh, -(o.total - cost * risk[o.discard]))

            return min(discards, key=push_key)

        def fold_key(e: Event) -> tuple[float, int, int, int]:
            assert e.pai is not None
            o = options[T.kind_of(e.pai)]
            return (round(risk[o.discard], 3), o.shanten, -o.total, 1 if T.is_red(e.pai) else 0)

        return min(discards, key=fold_key)

    @staticmethod
    def _should_push(
        obs: Any, options: dict[int, Any], threats: list[Threat], p: PushFoldPolicy, value: int
    ) -> bool:
        best = min(options.values(), key=lambda o: (o.shanten, -o.total))
        weight = sum(t.weight for t in threats)
        if best.shanten <= 0:
            if weight >= p.heavy_threat:
                return best.total >= p.tenpai_live_waits and value >= p.tenpai_value - 1
            return best.total >= p.tenpai_live_waits or value >= p.tenpai_value
        if best.shanten == 1 and weight < p.heavy_threat:
            return (
                obs.wall_remaining >= p.one_away_wall
                and best.total >= p.one_away_ukeire
                and value >= p.one_away_value
            )
        return False

    @staticmethod
    def _call_makes_ready(obs: Any, call: Event, visible: list[int]) -> bool:
        counts = obs.counts
        for c in call.consumed:
            counts[T.kind_of(c)] -= 1
        best = 99
        for k in range(34):
            if counts[k]:
                counts[k] -= 1
                best = min(best, shanten(counts))
                counts[k] += 1
        if best != 0:
            return False
        # Ready after the call: only worth it with live waits.
        for k in range(34):
            if counts[k]:
                counts[k] -= 1
                if shanten(counts) == 0 and ukeire(counts, visible).total >= 4:
                    return True
                counts[k] += 1
        return False
