"""An engine table rebuilt from one seat's event stream: how ``search`` searches over mjai and
the Tenhou protocol, where the observation is a seat's view and no engine table stands behind it.

The worlds (:mod:`tenpai.search.worlds`) start from an engine table and overwrite every hidden
field, so the table handed to them only has to agree with what the seat has seen and let the
engine reach the current decision.  It is built by replaying the current hand on the engine
(:func:`tenpai.replay.riichi.replay_riichi`, the record replayer) with the hidden tiles filled
in so that every recorded action is legal:

* each opponent's concealed tiles are *slots* — thirteen dealt, one per draw.  A tile that
  leaves the hand (a tsumogiri goes to its draw's slot; a hand-tile discard, a meld's tiles, a
  kan or a North go to any other slot it holds) names its slot; every slot left unnamed is
  filled from the tiles the seat has not seen;
* an opponent in riichi must have been ready when it declared: its slots still held (its
  current concealed hand, which riichi freezes) get a ready shape drawn from the unseen tiles;
* three-player streams (``tenhou_sanma``: three hands in ``start_kyoku``) are replayed under
  the three-player rules the caller gives; a North set aside names its draw's slot;
* the seat's own pending decision gets a recorded answer (a discard; in a claim window any
  later action, which the replay answers with passes), so the replay stops *at* the
  decision with the table live, and that table is copied.

The rules the table is rebuilt under are the front's (:func:`rebuild_rules`): the observation's
``rules`` — the Tenhou client's from ``GO`` (length, red fives, table size), the mjai bot's from
``--preset`` and ``--length`` — else Tenhou's preset for the stream's table size (a hanchan).

The fill is seeded by the stream's length, so the same view gives the same table.  A stream
the replay cannot follow (a rule the engine does not share with the server) raises
:class:`RebuildError`; the agent then answers with its prior and counts it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from tenpai import tiles as T
from tenpai.engine.flow import Decision
from tenpai.engine.snapshot import clone
from tenpai.events import Event
from tenpai.hand import waits
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.rules.riichi.game import RiichiGame
from tenpai.rules.riichi.ruleset import TENHOU, RiichiRules, preset_for_players
from tenpai.search.prior import Candidate, PriorAnswer
from tenpai.search.worlds import complete_shape

__all__ = ["RebuildError", "engine_twins", "latest_start", "rebuild_rules", "rebuild_table"]

_LEAVES_HAND = ("chi", "pon", "daiminkan", "ankan", "kakan", "nukidora")


class RebuildError(ValueError):
    """The seat's stream could not be replayed into an engine table."""


def _current_hand(events: Sequence[Event]) -> list[Event]:
    start = max((i for i, e in enumerate(events) if e.type == "start_kyoku"), default=None)
    if start is None:
        raise RebuildError("no start_kyoku in the stream")
    return list(events[start:])


def latest_start(events: Sequence[Event]) -> Event | None:
    """The stream's latest ``start_kyoku`` (the hand being played), or None before any."""
    return next((e for e in reversed(events) if e.type == "start_kyoku"), None)


def rebuild_rules(obs: Any) -> RiichiRules:
    """The rules of the game behind a front's observation (a seat's stream, no engine table):
    the observation's own ``rules`` when the front knows them, else Tenhou's preset for the
    table size of the stream's latest ``start_kyoku`` (4 when it has none).  They decide the
    leaf values (a tonpuu's East 4 may end the game, a hanchan's may not), so a front that
    knows the game's length must say it.  A stream whose table size is not the rules' is
    refused: :class:`RebuildError`."""
    start = latest_start(getattr(obs, "events", ()))
    players = len(start.tehais) if start is not None and start.tehais else None
    given = getattr(obs, "rules", None)
    if isinstance(given, RiichiRules):
        if players is not None and players != given.players:
            raise RebuildError(f"a {players}-player stream under {given.players}-player rules "
                               f"({given.name})")
        return given
    try:
        return preset_for_players("tenhou", players or 4)
    except KeyError:
        raise RebuildError(f"no Tenhou preset for {players} players") from None


def rebuild_table(
    events: Sequence[Event], seat: int, legal: Sequence[Event], rules: RiichiRules = TENHOU
) -> RiichiRound:
    """An engine table at ``seat``'s pending decision (``legal`` its actions) that agrees
    with ``events`` (the seat's masked stream of the game or of the hand)."""
    from tenpai.replay.riichi import replay_riichi

    hand = _current_hand(events)
    if not legal:
        raise RebuildError("no decision is pending")
    start = hand[0]
    players = len(start.tehais)
    if players != rules.players:
        raise RebuildError(f"a {players}-player stream under {rules.players}-player rules "
                           f"({rules.name})")
    own = start.tehais[seat]
    if own is None:
        raise RebuildError("the stream hides the seat's own deal")
    rng = random.Random(len(hand) * 7919 + seat)
    filled = _fill(hand, seat, rules, rng)
    target = len(hand)
    grabbed: list[RiichiRound] = []

    def observe(d: Decision, _answer: Event) -> None:
        table = getattr(d.observation, "_table", None)
        if (not grabbed and d.seat == seat and isinstance(table, RiichiRound)
                and len(table.events) >= target):
            grabbed.append(clone(table))

    answer = _answer_for(legal)
    if answer.type == "none":
        # a pass is not a recorded event: the replay would stop before the claim window; any
        # later action (here a discard of one of the seat's tiles) makes it answer the window
        # with passes, and the table is copied before the engine steps
        own = next(e for e in filled if e.type == "start_kyoku").tehais[seat] or (0,)
        answer = Event("dahai", actor=seat, pai=own[0], tsumogiri=False)
    stream = [*filled, answer]
    try:
        # on the Python round: the table wanted is a copy of it (the compiled table would
        # build the same round again on demand)
        replay_riichi(stream, rules=rules, complete=False, observe=observe, engine="python")
    except (ValueError, AssertionError, LookupError) as exc:
        raise RebuildError(f"the replay stopped: {exc}") from None
    if not grabbed:
        raise RebuildError("the replay did not reach the seat's decision")
    table = grabbed[0]
    if len(table.events) != target:
        raise RebuildError(f"the replay reached the decision after {len(table.events)} events, "
                           f"the stream has {target}")
    return table


def _answer_for(legal: Sequence[Event]) -> Event:
    """A recorded answer the replay can match: a discard or a pass where there is one."""
    for kind in ("dahai", "none"):
        e = next((x for x in legal if x.type == kind), None)
        if e is not None:
            return e
    return legal[0]


def _fill(hand: list[Event], seat: int, rules: RiichiRules, rng: random.Random) -> list[Event]:
    """``hand`` with every hidden tile (opponents' deals and draws) filled consistently."""
    start = hand[0]
    players = len(start.tehais)
    # slots[s]: tile or None per slot; held[s]: slot indices still in the hand
    slots: dict[int, list[int | None]] = {}
    held: dict[int, list[int]] = {}
    for s in range(players):
        if s != seat:
            slots[s] = [None] * 13
            held[s] = list(range(13))
    draw_slot: dict[int, int] = {}  # event index of an opponent's draw -> its slot
    last_draw: dict[int, int | None] = {s: None for s in slots}
    seen: Counter[int] = Counter(start.tehais[seat] or ())
    if start.dora_marker is not None:
        seen[start.dora_marker] += 1
    riichi: set[int] = set()

    def take(s: int, tile: int, slot: int | None = None) -> None:
        if slot is None or slot not in held[s]:
            options = [x for x in held[s] if x != last_draw[s]] or held[s]
            if not options:
                raise RebuildError(f"seat {s} gives up more tiles than it holds")
            slot = options[0]
        held[s].remove(slot)
        slots[s][slot] = tile

    for i, e in enumerate(hand[1:], start=1):
        a = e.actor
        if e.type == "tsumo":
            if a is not None and a != seat:
                slots[a].append(None)
                n = len(slots[a]) - 1
                held[a].append(n)
                draw_slot[i] = n
                last_draw[a] = n
            elif e.pai is not None:
                seen[e.pai] += 1
            continue
        if e.type == "dora" and e.dora_marker is not None:
            seen[e.dora_marker] += 1
        if a is None or a == seat:
            if e.type == "dahai" and e.pai is not None and a == seat:
                pass  # own tiles are counted where they were dealt or drawn
            continue
        if e.type == "reach":
            riichi.add(a)
        if e.type == "dahai" and e.pai is not None:
            seen[e.pai] += 1
            take(a, e.pai, last_draw[a] if e.tsumogiri else None)
            last_draw[a] = None
        elif e.type in _LEAVES_HAND:
            tiles = list(e.consumed) if e.type in ("chi", "pon", "daiminkan", "ankan") else (
                [e.pai] if e.pai is not None else [])
            # a North set aside names its draw's slot: in riichi only the North just drawn may
            # go, so any other slot could leave the replay's riichi hand without it
            slot = last_draw[a] if e.type == "nukidora" else None
            for t in tiles:
                seen[t] += 1
                take(a, t, slot)
            if e.type in ("chi", "pon", "daiminkan", "nukidora"):
                last_draw[a] = None
    pool = Counter(RiichiGame.tileset_for(rules))
    pool.subtract(seen)
    # own draws were counted; the own deal too; the rest of the seen tiles are opponents'
    if any(c < 0 for c in pool.values()):
        raise RebuildError("the stream shows more copies of a tile than the set holds")
    unseen = list(pool.elements())
    rng.shuffle(unseen)
    for s in sorted(riichi):
        shape = _ready_shape(unseen, len(held[s]), rng)
        if shape is None:
            raise RebuildError(f"no ready hand for seat {s}'s riichi")
        for slot, tile in zip(held[s], shape):
            slots[s][slot] = tile
            unseen.remove(tile)
    for s in slots:
        for j, held_tile in enumerate(slots[s]):
            if held_tile is None:
                slots[s][j] = unseen.pop()
    tehais = tuple(
        tuple(start.tehais[s] or ()) if s == seat else tuple(t for t in slots[s][:13]
                                                              if t is not None)
        for s in range(players))
    out = [start.with_(tehais=tehais)]
    for i, e in enumerate(hand[1:], start=1):
        if i in draw_slot and e.actor is not None:
            out.append(e.with_(pai=slots[e.actor][draw_slot[i]]))
        else:
            out.append(e)
    return out


def _ready_shape(unseen: list[int], size: int, rng: random.Random) -> list[int] | None:
    """``size`` tiles (3n+1) of ``unseen`` that wait on something (any ready shape): runs
    only, and where no runs-only shape is found (three players: two suits for runs, often too
    few of them unseen) with triplets too, then seven pairs."""
    by_kind: dict[int, list[int]] = {}
    for t in unseen:
        by_kind.setdefault(T.kind_of(t), []).append(t)
    for i in range(600):
        avail = {k: len(v) for k, v in by_kind.items()}
        kinds = complete_shape(avail, (size - 1) // 3, rng, triplets=i >= 300)
        if kinds is None:
            continue
        kinds.pop(rng.randrange(len(kinds)))
        if waits(T.counts34([by_kind[k][0] for k in kinds])):
            used: dict[int, int] = {}
            out = []
            for k in kinds:
                j = used.get(k, 0)
                out.append(by_kind[k][j])
                used[k] = j + 1
            return out
    return _seven_pairs_ready(by_kind, size, rng)


def _seven_pairs_ready(by_kind: dict[int, list[int]], size: int, rng: random.Random
                       ) -> list[int] | None:
    """Six pairs and a single of ``by_kind``'s tiles: a ready hand late in a three-player hand,
    when the unseen tiles no longer hold four sets and a pair."""
    if size != 13:
        return None
    pairs = [k for k, v in by_kind.items() if len(v) >= 2]
    if len(pairs) < 6:
        return None
    chosen = rng.sample(pairs, 6)
    singles = [k for k in by_kind if k not in chosen]
    if not singles:
        return None
    single = rng.choice(singles)
    out = [t for k in chosen for t in by_kind[k][:2]] + [by_kind[single][0]]
    return out if waits(T.counts34(out)) else None


def engine_twins(
    table: RiichiRound, seat: int, pa: PriorAnswer
) -> tuple[PriorAnswer, dict[Event, Event]]:
    """The prior's answer with each action replaced by the rebuilt table's legal event that
    means it (a protocol's events may differ in details such as the tsumogiri flag), candidates
    without one dropped; and the map from those table events back to the protocol's, to answer
    in the protocol's own terms.  A choice without a twin keeps its prior 0."""
    legal = next((d.legal for d in table.pending() if d.seat == seat), ())

    def key(e: Event, strict: bool) -> tuple[object, ...]:
        k = (e.type, e.actor, e.target, e.pai, tuple(sorted(e.consumed)))
        return (*k, e.tsumogiri) if strict else k

    exact = {key(e, True): e for e in legal}
    loose = {key(e, False): e for e in legal}
    back: dict[Event, Event] = {}
    cands = []
    for c in pa.candidates:
        twin = exact.get(key(c.action, True)) or loose.get(key(c.action, False))
        if twin is not None and twin not in back:
            back[twin] = c.action
            cands.append(Candidate(twin, c.prior))
    choice = next((t for t, a in back.items() if a == pa.choice), pa.choice)
    return PriorAnswer(choice, tuple(cands)), back
