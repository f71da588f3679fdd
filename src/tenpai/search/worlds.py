"""Worlds: the hidden tiles of a Riichi hand, sampled from what one seat has seen.

A *world* is a full :class:`~tenpai.rules.riichi.flow.round.RiichiRound` that agrees with
everything the deciding seat knows — its own hand, every river, meld, dora indicator and set-
aside North, the scores, riichi sticks and flags — and fills everything else (the opponents'
concealed tiles, the live wall's order, the dead wall) with the tiles the seat has *not* seen.

How it is built.  The seat's observation is a lazy view of the real table, so the world starts
as a copy of that table (:func:`tenpai.engine.snapshot.clone`) and then *every* hidden field is
overwritten: each opponent's concealed tiles, the undrawn live wall, the unrevealed dora and all
ura indicators, the unused replacement tiles; the event list is replaced by the seat's masked
view; the cached waits and the furiten flags are recomputed from the new hands; and a claim
window's other pending decisions are rebuilt from the new hands (the real ones would tell which
opponent can pon).  Nothing of the true hidden state that play can reach survives
(``tests/search``); the live-wall slots already drawn keep their old tiles, which the engine
never reads again.

Which worlds (the proposal):

* an opponent **in riichi** gets a ready hand: a random complete shape (pair + sets drawn from
  the unseen tiles, runs 3:1 over triplets) minus one tile, rejected unless its waits are
  consistent with the table — none of them in the opponent's own river (a ready player does
  not declare riichi furiten) and none discarded by anyone after the declaration (the player
  would have won on it).  After ``riichi_tries`` failures a uniform hand is used (counted);
* every other opponent gets ``opponent_model = "uniform"`` tiles, or with ``"shaped"`` the
  least-shanten of ``shaped_draws`` uniform draws (ties at random): a hand that has been played
  for several turns is closer to ready than a random one, and this is the cheapest way to say
  so; with ``"read"`` a ready hand (waits not in its own river) with the probability 001's
  fitted readiness model gives that opponent from the seat's view
  (:mod:`tenpai.search.readiness`), else a uniform hand that is not ready (no ready hand
  found within the tries: a uniform one, not counted); ``"read-yaku"`` is ``"read"`` whose
  ready hands must be able to win by ron on one of their waits (a yaku without riichi, judged
  by the table's own scorer from public facts: melds, winds, dora), since a ready player
  without a yaku would have declared riichi.  None weights the worlds by how likely
  the opponent's discards were under them: that is the weighted worlds' job
  (:mod:`tenpai.search.weights`, below);
* the remaining unseen tiles are shuffled into the wall slots.

Here all worlds are equally likely; the search agent's weighted worlds
(:mod:`tenpai.search.weights`) sample many hand assignments with :meth:`WorldSampler.sample_hands`,
weight them by the opponents' discards and build only the ones they keep
(:meth:`WorldSampler.build`).  Randomness is a :class:`random.Random` seeded per world, so a
world is a pure function of (observation, seed).

What the worlds of one decision share — the seat's masked events, its unseen tiles, the riichi
opponents' forbidden waits, what furiten is read from — is worked out once
(:meth:`WorldSampler.prepare`, a :class:`Prepared`) and the search draws all its worlds from it,
building them in one copy of the table; the worlds are those of the per-seed entry points at the
same seeds (``tests/search/test_prepared_worlds.py``; docs/search_runs.md, "The worlds' shared
work done once per decision").
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from tenpai import tiles as T
from tenpai.engine.snapshot import clone
from tenpai.events import Event
from tenpai.hand import shanten, waits
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.rules.riichi.flow.types import WinRequest
from tenpai.rules.riichi.game import RiichiGame
from tenpai.search.readiness import Readiness, default_readiness
from tenpai.search.window import rebuild_window

__all__ = [
    "Hands",
    "OpponentModel",
    "Prepared",
    "World",
    "WorldError",
    "WorldSampler",
    "can_ron",
    "complete_shape",
    "hidden_slots",
    "seen_tiles",
    "unseen_tiles",
]

OpponentModel = Literal["uniform", "shaped", "read", "read-yaku"]


#: The opponent models that read readiness from 001's model (tenpai.search.readiness).
READING_MODELS = ("read", "read-yaku")


def can_ron(table: RiichiRound, seat: int, discarder: int, hand: Sequence[int],
            kinds: Sequence[int]) -> bool:
    """Could ``seat``, not in riichi, holding ``hand`` beside its melds at ``table``, win by ron
    on a discard of one of ``kinds`` by ``discarder``?  Judged by the table's own scorer (so a
    yaku is required, as the rules set); only public facts go in (melds, winds, dora
    indicators, the wall's count, the sticks), never a hidden tile of the table."""
    last = table.wall.remaining == 0
    held = T.counts34([*hand, *(t for m in table.melds[seat] for t in m.tiles)])
    for k in kinds:
        if held[k] >= 4:  # a fifth copy: not a wait the engine would offer
            continue
        req = WinRequest(
            seat=seat, target=discarder, hand=(*hand, k), melds=tuple(table.melds[seat]),
            win_tile=k, tsumo=False, seat_wind=table.seat_wind(seat),
            round_wind=27 + table.bakaze, dealer=table.oya, riichi=False,
            double_riichi=False, ippatsu=False, haitei=False, houtei=last, rinshan=False,
            chankan=False, tenhou=False, chiihou=False,
            dora_markers=tuple(table.dora_markers), ura_markers=(), honba=table.honba,
            kyotaku=table.kyotaku, pao=table.pao[seat], nukidora=len(table.nukidora[seat]))
        if table.scorer(req, table.rules) is not None:
            return True
    return False


class WorldError(ValueError):
    """The view cannot be completed into a world (the tile counts do not add up)."""


@dataclass(slots=True)
class World:
    """One sampled completion of the table, ready to be copied and played out."""

    round: RiichiRound
    seed: int
    #: Riichi opponents whose ready hand could not be found within the tries (uniform instead).
    riichi_fallbacks: int = 0


@dataclass(frozen=True, slots=True)
class Hands:
    """The opponents' sampled concealed hands and the unseen tiles left for the wall."""

    hands: dict[int, list[int]]
    rest: list[int]
    #: Riichi opponents whose ready hand could not be found within the tries (uniform instead).
    fallbacks: int = 0


def seen_tiles(rnd: RiichiRound, seat: int) -> Counter[int]:
    """Tile codes ``seat`` has seen, as a multiset (codes are kinds with red fives apart, so
    copies share a code): its hand, the unclaimed river tiles, every meld (closed kans are
    shown in Riichi; a claimed discard counts once, in its meld), the dora indicators and the
    set-aside Norths."""
    seen: Counter[int] = Counter(rnd.hands[seat])
    for s in range(rnd.players):
        seen.update(t for t, called in zip(rnd.rivers[s], rnd.river_called[s]) if not called)
        for m in rnd.melds[s]:
            seen.update(m.tiles)
        seen.update(rnd.nukidora[s])
    seen.update(rnd.dora_markers)
    return seen


def unseen_tiles(rnd: RiichiRound, seat: int) -> list[int]:
    """The multiset difference of the rule set's tiles and :func:`seen_tiles`, sorted."""
    left = Counter(RiichiGame.tileset_for(rnd.rules))
    left.subtract(seen_tiles(rnd, seat))
    if any(c < 0 for c in left.values()):
        bad = sorted(k for k, c in left.items() if c < 0)
        raise WorldError(f"seat {seat} sees more copies of tiles {bad} than the set holds")
    return sorted(left.elements())


def hidden_slots(rnd: RiichiRound) -> list[tuple[list[int], int, int]]:
    """The wall's hidden slots as (list, start, stop) spans: undrawn live tiles, live tiles past
    the cut (beyond those drawn as replacements), unrevealed dora, all ura, unused rinshan."""
    w = rnd.wall
    taken = max(0, w._kans - len(w.rinshan))
    return [
        (w.live, w._next, w._end),
        (w.live, w._end + taken, len(w.live)),
        (w.dora, len(rnd.dora_markers), len(w.dora)),
        (w.ura, 0, len(w.ura)),
        (w.rinshan, w._kans, len(w.rinshan)),
    ]


def _riichi_turn(events: Sequence[Any], seat: int) -> int | None:
    """Index in ``events`` of ``seat``'s riichi declaration, or None."""
    for i, e in enumerate(events):
        if e.type == "reach" and e.actor == seat:
            return i
    return None


@dataclass(slots=True)
class Prepared:
    """What every world of one decision shares, worked out once (:meth:`WorldSampler.prepare`).

    The seat's masked event list, its unseen tiles and the riichi opponents' forbidden waits
    are the same for all the worlds of a decision; rebuilt for each of the search's 64 worlds
    they were a fifth of a searched decision's CPU (docs/search_runs.md, "Where a searched
    decision's time goes").  Nothing here depends on a world's seed, so a world drawn from a
    :class:`Prepared` is the world :meth:`WorldSampler.sample` gives for the same seed."""

    table: RiichiRound
    seat: int
    #: The tiles ``seat`` has not seen, sorted (each world shuffles a copy).
    unseen: tuple[int, ...]
    #: The opponents' concealed-hand sizes.
    sizes: dict[int, int]
    #: The opponents in the order their hands are drawn: riichi players first.
    order: tuple[int, ...]
    #: Kinds that cannot be the waits of each riichi opponent (with ``riichi_ready`` only).
    forbidden: dict[int, frozenset[int]]
    #: Whether every world is built in the one round :attr:`round` (see
    #: :meth:`WorldSampler.prepare`).
    reuse_round: bool
    #: Opponent model "read": each opponent outside riichi's probability of being ready and
    #: the kinds its ready hand cannot wait on (its own river: it would be furiten).
    ready: dict[int, float] = field(default_factory=dict)
    ready_forbidden: dict[int, frozenset[int]] = field(default_factory=dict)
    #: With ``read_waits``: per opponent and kind, the deal-in model's odds that the kind is
    #: one of its waits over the odds the random ready shapes give it (see
    #: :meth:`WorldSampler._wait_ratios`), which choose among the ready shapes dealt to it.
    wait_ratios: dict[int, list[float]] = field(default_factory=dict)
    _events: tuple[Event, ...] | None = None
    _passes: tuple[tuple[int, int | None, int], ...] | None = None
    _last_discard: dict[int, int] | None = None
    _riichi_at: dict[int, int | None] | None = None
    round: RiichiRound | None = None

    @property
    def events(self) -> tuple[Event, ...]:
        """The hand's events as ``seat`` saw them (built on first use: drawing hands for an
        opponent not in riichi never reads them)."""
        if self._events is None:
            self._events = tuple(self.table._observe(self.seat).events)
        return self._events

    def furiten_facts(
        self,
    ) -> tuple[tuple[tuple[int, int | None, int], ...], dict[int, int], dict[int, int | None]]:
        """What an opponent's furiten is read from, whatever its sampled hand: the tiles let go
        that could have passed a wait, as (event index, actor, kind) — discards and added kans,
        not the one still waiting for answers in a claim or rob window —, each opponent's last
        discard's index (-1 before the first) and its riichi declaration's (None without)."""
        if self._passes is None or self._last_discard is None or self._riichi_at is None:
            events = self.events
            window = self.table.phase in ("claim", "rob")
            self._passes = tuple(
                (i, e.actor, T.kind_of(e.pai)) for i, e in enumerate(events)
                if e.type in ("dahai", "kakan") and e.pai is not None
                and not (window and i == len(events) - 1))
            self._last_discard = {
                s: max((i for i, e in enumerate(events) if e.type == "dahai" and e.actor == s),
                       default=-1)
                for s in self.sizes}
            self._riichi_at = {s: _riichi_turn(events, s) if self.table.riichi[s] else None
                               for s in self.sizes}
        return self._passes, self._last_discard, self._riichi_at


class WorldSampler:
    """Samples worlds for one seat's decision (see the module docstring).

    The per-seed entry points (:meth:`sample`, :meth:`sample_hands`, :meth:`build`) prepare the
    decision anew at each call; a caller drawing many worlds of one decision prepares it once
    (:meth:`prepare`) and draws from that (:meth:`world`, :meth:`hands`, :meth:`world_with`):
    the same worlds at the same seeds, for less (``tests/search/test_prepared_worlds.py``)."""

    def __init__(
        self,
        opponent_model: OpponentModel = "uniform",
        *,
        riichi_ready: bool = True,
        riichi_tries: int = 200,
        shaped_draws: int = 4,
        readiness: Readiness | None = None,
        read_waits: bool = False,
        wait_candidates: int = 8,
        shape_census: int = 48,
    ) -> None:
        if opponent_model not in get_args(OpponentModel):
            raise ValueError(f"unknown opponent model {opponent_model!r}; known: "
                             f"{', '.join(get_args(OpponentModel))}")
        self.opponent_model = opponent_model
        self.riichi_ready = riichi_ready
        self.riichi_tries = riichi_tries
        self.shaped_draws = shaped_draws
        #: The readiness model of ``"read"`` (the shipped one unless given).
        self.readiness = readiness
        if (opponent_model in READING_MODELS or read_waits) and readiness is None:
            self.readiness = default_readiness()
        #: Choose each ready hand among ``wait_candidates`` ready shapes, each weighted by the
        #: product over its waits of :attr:`Prepared.wait_ratios`.
        self.read_waits = read_waits
        self.wait_candidates = wait_candidates
        #: Ready shapes drawn per opponent and decision to learn how often the shapes
        #: themselves wait on each kind.
        self.shape_census = shape_census

    # ------------------------------------------------------------------ one world per call
    def sample(self, table: RiichiRound, seat: int, seed: int) -> World:
        """A world for ``seat`` at ``table`` (only what ``seat`` may know is read from it)."""
        return self.world(self.prepare(table, seat), seed)

    def sample_hands(self, table: RiichiRound, seat: int, seed: int) -> Hands:
        """The opponents' concealed hands of a world, without the world: what the weighted
        worlds sample in bulk (the copy of the table is the costly part of a world)."""
        return self.hands(self.prepare(table, seat), seed)

    def build(self, table: RiichiRound, seat: int, hands: Hands, seed: int) -> World:
        """The world with these hands; the rest of the unseen tiles shuffled into the wall
        by ``seed`` (so one hand assignment built twice gives two walls)."""
        return self.world_with(self.prepare(table, seat), hands, seed)

    # ------------------------------------------------------------------ many worlds of one decision
    def prepare(self, table: RiichiRound, seat: int, *, reuse_round: bool = False) -> Prepared:
        """What the worlds of ``seat``'s decision at ``table`` share.  Raises
        :class:`WorldError` when the unseen tiles do not fill the hidden places.

        With ``reuse_round`` every world is built in one copy of the table, kept by the
        :class:`Prepared`: a world's round is then valid only until the next world of the same
        :class:`Prepared` is built.  Building a world overwrites everything a world holds that
        another world could differ in (the opponents' hands and counts, the wall's hidden
        slots, the cached waits, the opponents' furiten, a claim window's other decisions), so
        the worlds are the same as fresh copies give, as long as whoever plays a world leaves
        it as it found it — what a playout backend already does, since the candidates of one
        world all play the same round (both backends play a copy)."""
        n = table.players
        unseen = unseen_tiles(table, seat)
        sizes = {s: len(table.hands[s]) for s in range(n) if s != seat}
        need = sum(sizes.values()) + sum(b - a for _l, a, b in hidden_slots(table))
        if need != len(unseen):
            raise WorldError(
                f"seat {seat}: {len(unseen)} unseen tiles for {need} hidden places "
                f"({table._where()})")
        order = sorted(sizes, key=lambda s: not table.riichi[s])
        prep = Prepared(table, seat, tuple(unseen), sizes, tuple(order), {}, reuse_round)
        if self.riichi_ready:
            prep.forbidden = {s: self._forbidden_waits(table, prep.events, s)
                              for s in order if table.riichi[s]}
        if self.readiness is not None and self.opponent_model in READING_MODELS:
            dama = [s for s in order if not table.riichi[s]]
            prep.ready = self.readiness.probabilities(prep.events, dama)
            prep.ready_forbidden = {s: frozenset(T.kind_of(t) for t in table.rivers[s])
                                    for s in dama}
        if self.readiness is not None and self.read_waits:
            readers = [s for s in order if s in prep.forbidden or s in prep.ready]
            if readers:
                probs = self.readiness.wait_probabilities(prep.events, table.hands[seat],
                                                          readers)
                prep.wait_ratios = {s: self._wait_ratios(prep, s, probs[s]) for s in readers}
        return prep

    def _wait_ratios(self, prep: Prepared, s: int, model: list[float]) -> list[float]:
        """Per kind, odds(model) / odds(shapes): the deal-in model's odds that the kind is a
        wait of ``s`` over the odds among :attr:`shape_census` random ready shapes from the
        unseen tiles.  The shapes already know much of what the model knows (a middle tile is a
        wait more often than a terminal, a kind with copies seen less often); weighting them by
        the model's odds alone counts that twice, which made the riichi waits worse
        (docs/search_runs.md), so each shape is weighted by the product of these ratios over its
        waits: the importance weight of a model whose kinds are independent.  The census is
        seeded by the seat alone, so a decision's ratios do not depend on a world's seed."""
        forbidden = prep.forbidden.get(s, prep.ready_forbidden.get(s, frozenset()))
        pool = list(prep.unseen)
        by_kind: dict[int, list[int]] = {}
        for t in pool:
            by_kind.setdefault(T.kind_of(t), []).append(t)
        rng = random.Random(s)
        counts = [0] * 34
        shapes = 0
        for _ in range(self.shape_census):
            got = self._ready_shape(forbidden, prep.sizes[s], pool, rng, self.riichi_tries,
                                    by_kind)
            if got is None:
                break
            shapes += 1
            for k in got[1]:
                counts[k] += 1
        ratios = []
        for k in range(34):
            q = (counts[k] + 0.5) / (shapes + 1.0)
            q = min(q, 1 - 1e-6)
            p = model[k]
            ratios.append((p / (1 - p)) / (q / (1 - q)))
        return ratios

    def world(self, prep: Prepared, seed: int) -> World:
        """The world of ``seed`` (what :meth:`sample` gives for the same table, seat, seed)."""
        rng = random.Random(seed)
        return self._build(prep, self._draw_hands(prep, rng), rng, seed)

    def hands(self, prep: Prepared, seed: int) -> Hands:
        """The opponents' hands of the world of ``seed`` (as :meth:`sample_hands`)."""
        return self._draw_hands(prep, random.Random(seed))

    def world_with(self, prep: Prepared, hands: Hands, seed: int) -> World:
        """The world with these hands and the wall of ``seed`` (as :meth:`build`)."""
        return self._build(prep, hands, random.Random(seed), seed)

    def _draw_hands(self, prep: Prepared, rng: random.Random) -> Hands:
        table = prep.table
        pool = list(prep.unseen)
        rng.shuffle(pool)
        fallbacks = 0
        hands: dict[int, list[int]] = {}
        # Riichi hands first: they are the constrained ones.
        for s in prep.order:
            hand: list[int] | None = None
            if table.riichi[s] and self.riichi_ready:
                hand = self._ready_hand(prep.forbidden[s], prep.sizes[s], pool, rng,
                                        prep.wait_ratios.get(s))
                if hand is None:
                    fallbacks += 1
            elif s in prep.ready:
                hand = self._read_hand(prep, s, pool, rng)
            if hand is None:
                hand = self._plain_hand(prep.sizes[s], pool, rng)
            taken = list(hand)
            for t in taken:
                pool.remove(t)
            hands[s] = taken
        return Hands(hands, pool, fallbacks)

    def _build(self, prep: Prepared, hands: Hands, rng: random.Random, seed: int) -> World:
        rnd = prep.round if prep.reuse_round else None
        if rnd is None:
            rnd = clone(prep.table)
            rnd._emit_hook = None
            rnd.events = list(prep.events)
            if prep.reuse_round:
                prep.round = rnd
        n = rnd.players
        for s, taken in hands.hands.items():
            rnd.hands[s] = list(taken)
            rnd.counts[s] = T.counts34(taken)
        pool = list(hands.rest)
        rng.shuffle(pool)
        i = 0
        for lst, a, b in hidden_slots(rnd):
            for j in range(a, b):
                lst[j] = pool[i]
                i += 1
        rnd._waits_cache = [None] * n
        self._refresh_furiten(rnd, prep)
        rebuild_window(rnd, prep.seat)
        return World(rnd, seed, hands.fallbacks)

    # ------------------------------------------------------------------ hands
    def _plain_hand(self, size: int, pool: list[int], rng: random.Random) -> list[int]:
        if self.opponent_model == "uniform" or size < 4:
            return rng.sample(pool, size)
        best: list[int] = []
        best_sh = 99
        for _ in range(self.shaped_draws):
            h = rng.sample(pool, size)
            sh = shanten(T.counts34(h))
            if sh < best_sh:
                best, best_sh = h, sh
        return best

    def _read_hand(
        self, prep: Prepared, s: int, pool: list[int], rng: random.Random,
    ) -> list[int] | None:
        """Opponent ``s``'s hand under ``"read"``: ready with the model's probability (waits
        outside its own river), else a uniform hand that is not ready (the best of a few
        draws); None when no ready hand was found (the caller deals a uniform one)."""
        size = prep.sizes[s]
        if rng.random() < prep.ready[s]:
            accept = None
            if self.opponent_model == "read-yaku":
                def accept(hand: list[int], kinds: list[int]) -> bool:
                    return can_ron(prep.table, s, prep.seat, hand, kinds)
            return self._ready_hand(prep.ready_forbidden[s], size, pool, rng,
                                    prep.wait_ratios.get(s), accept)
        hand = rng.sample(pool, size)
        for _ in range(self.shaped_draws):
            if size < 4 or shanten(T.counts34(hand)) > 0:
                break
            hand = rng.sample(pool, size)
        return hand

    def _ready_hand(
        self, forbidden: frozenset[int], size: int, pool: list[int], rng: random.Random,
        ratios: list[float] | None = None,
        accept: Callable[[list[int], list[int]], bool] | None = None,
    ) -> list[int] | None:
        """A ready hand of ``size`` tiles from ``pool`` whose waits avoid ``forbidden``, or
        None.  With ``ratios`` (per kind, :attr:`Prepared.wait_ratios`) up to
        :attr:`wait_candidates` such hands are drawn and one is kept with probability
        proportional to the product of its waits' ratios: the shapes stay the random complete
        shapes', the model only says which of them the table makes likelier (an importance
        resample, as the weighted worlds do)."""
        by_kind: dict[int, list[int]] = {}
        for t in pool:
            by_kind.setdefault(T.kind_of(t), []).append(t)
        if ratios is not None:
            found: list[tuple[list[int], float]] = []
            tries = self.riichi_tries
            while len(found) < self.wait_candidates and tries > 0:
                got = self._ready_shape(forbidden, size, pool, rng, tries, by_kind, accept)
                if got is None:
                    break
                hand, w, used = got
                tries -= used
                weight = 1.0
                for k in w:
                    weight *= ratios[k]
                found.append((hand, weight))
            if not found:
                return None
            return rng.choices([h for h, _ in found], [w for _, w in found])[0]
        got = self._ready_shape(forbidden, size, pool, rng, self.riichi_tries, by_kind,
                                accept)
        return None if got is None else got[0]

    def _ready_shape(
        self, forbidden: frozenset[int], size: int, pool: list[int], rng: random.Random,
        tries: int, by_kind: dict[int, list[int]],
        accept: Callable[[list[int], list[int]], bool] | None = None,
    ) -> tuple[list[int], list[int], int] | None:
        """The first ready hand found within ``tries`` random complete shapes: (its tiles, its
        waits, the tries it took), or None.  ``by_kind``: the pool's tiles by kind; ``accept``
        (tiles, waits) may turn a ready hand down."""
        sets = (size - 1) // 3
        for i in range(tries):
            avail = {k: len(v) for k, v in by_kind.items()}
            shape = complete_shape(avail, sets, rng)
            if shape is None:
                continue
            shape.pop(rng.randrange(len(shape)))  # the dropped tile stays in the pool
            counts = [0] * 34
            for k in shape:
                counts[k] += 1
            w = waits(counts)
            if not w or any(k in forbidden for k in w):
                continue
            hand: list[int] = []
            used: dict[int, int] = {}
            for k in shape:
                n = used.get(k, 0)
                hand.append(by_kind[k][n])
                used[k] = n + 1
            if accept is not None and not accept(hand, w):
                continue
            return hand, w, i + 1
        return None

    @staticmethod
    def _forbidden_waits(rnd: RiichiRound, events: Sequence[Any], s: int) -> frozenset[int]:
        """Kinds that cannot be waits of riichi player ``s``: its own river, and anything
        discarded (or added to a kan) by another seat after its declaration."""
        out = {T.kind_of(t) for t in rnd.rivers[s]}
        at = _riichi_turn(events, s)
        if at is not None:
            for e in events[at + 1:]:
                if e.type in ("dahai", "kakan") and e.actor != s and e.pai is not None:
                    out.add(T.kind_of(e.pai))
        return frozenset(out)

    # ------------------------------------------------------------------ derived state
    @staticmethod
    def _refresh_furiten(rnd: RiichiRound, prep: Prepared) -> None:
        """Temporary and riichi furiten of each opponent, from its sampled hand: a winning tile
        passed since its last discard (temporary) or since its riichi (for good)."""
        passes, last_discard, riichi_at = prep.furiten_facts()
        for s in prep.sizes:
            w = set(rnd.waits_of(s))
            rnd.furiten_temp[s] = False
            rnd.furiten_riichi[s] = False
            if not w:
                continue
            last = last_discard[s]
            reach = riichi_at[s]
            for i, actor, kind in passes:
                if actor == s or kind not in w:
                    continue
                if i > last:
                    rnd.furiten_temp[s] = True
                if reach is not None and i > reach:
                    rnd.furiten_riichi[s] = True


def complete_shape(
    avail: dict[int, int], sets: int, rng: random.Random, *, triplets: bool = True
) -> list[int] | None:
    """Kinds of a random pair + ``sets`` sets drawable from ``avail`` (consumed), or None.
    ``triplets=False`` draws runs only (the table rebuild's filler hands); the random stream
    is then the same as a runs-only draw's, since the run/triplet coin is tossed only when
    both are possible."""
    pairs = [k for k, c in avail.items() if c >= 2]
    if not pairs:
        return None
    p = rng.choice(pairs)
    avail[p] -= 2
    out = [p, p]
    for _ in range(sets):
        runs = [k for k in avail if k < 27 and k % 9 <= 6
                and avail.get(k, 0) and avail.get(k + 1, 0) and avail.get(k + 2, 0)]
        trips = [k for k, c in avail.items() if c >= 3] if triplets else []
        if not runs and not trips:
            return None
        if runs and (not trips or rng.random() < 0.75):
            k = rng.choice(runs)
            group = [k, k + 1, k + 2]
        else:
            k = rng.choice(trips)
            group = [k, k, k]
        for g in group:
            avail[g] -= 1
        out += group
    return out
