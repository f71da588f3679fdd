"""The actions a seat may take now, derived from its :class:`SeatTracker` with our own rules.

mjai servers do not always say what a bot may do (``possible_actions`` is optional, and the
stdio bots of Mortal and mjai-manue never get it), so the bot works it out: the hand kernel for
shanten and waits, the Riichi scorer for "does this win have a yaku", and the same rule flags
(:class:`~tenpai.rules.riichi.ruleset.RiichiRules`) as the engine.  The lists come in the
engine's shapes — one ``dahai`` per distinct tile plus the drawn tile as a tsumogiri, one
``pon``/``chi`` per choice of consumed tiles, ``none`` last in a claim window — so an agent
cannot tell whether it plays inside the engine or over mjai.  Three players (``tenhou_sanma``)
add the North set aside (``nukidora``) on one's turn and its ron, and take chi away.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import combinations

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.hand import is_complete, shanten, waits
from tenpai.rules.riichi.flow.types import WinOutcome, WinRequest
from tenpai.rules.riichi.ruleset import RiichiRules
from tenpai.serve.mjai.tracker import NORTH, SeatTracker, banned_after_call

__all__ = ["NONE", "Scorer", "decision_due", "derive_legal", "discards"]

NONE = Event("none")
Scorer = Callable[[WinRequest, RiichiRules], WinOutcome | None]
_TERMINAL_HONOUR = frozenset(k for k in range(34) if T.is_terminal_or_honor(k))


def _default_scorer() -> Scorer:
    from tenpai.rules.riichi.flow.scoring import score_win

    return score_win


def decision_due(st: SeatTracker) -> str | None:
    """What kind of decision the last event asks of the seat: ``turn`` (after its draw),
    ``riichi`` (the declaring discard), ``call`` (the discard after its chi/pon), ``claim``
    (another's discard), ``rob`` (another's kan or North set aside) — or ``None``."""
    e = st.last
    if e is None or not st.in_round:
        return None
    me = st.seat
    if e.actor == me:
        if e.type == "tsumo":
            return "turn"
        if e.type == "reach":
            return "riichi"
        if e.type in ("chi", "pon"):
            return "call"
        return None
    if e.actor is None:
        return None
    if e.type == "dahai":
        return "claim"
    if e.type in ("kakan", "ankan", "nukidora"):
        return "rob"
    return None


def discards(st: SeatTracker, banned: Iterable[int] = ()) -> list[Event]:
    """Every distinct discard; the drawn tile (last in hand) also as a tsumogiri."""
    me = st.seat
    no = set(banned)
    rest = st.hand if st.drawn is None else st.hand[:-1]
    out = [
        Event("dahai", actor=me, pai=t, tsumogiri=False)
        for t in sorted(set(rest))
        if T.kind_of(t) not in no
    ]
    if st.drawn is not None:
        out.append(Event("dahai", actor=me, pai=st.drawn, tsumogiri=True))
    return out


def derive_legal(st: SeatTracker, scorer: Scorer | None = None) -> list[Event]:
    """The legal actions now (empty when no decision is due or nothing may be claimed)."""
    due = decision_due(st)
    if due is None:
        return []
    score = scorer or _default_scorer()
    if due == "turn":
        return _self_actions(st, score)
    if due == "riichi":
        return _riichi_discards(st)
    if due == "call":
        return discards(st, st.banned)
    last = st.last
    assert last is not None and last.actor is not None
    if due == "claim":
        assert last.pai is not None
        out = _claims(st, last.pai, last.actor, score)
    elif last.type == "kakan":
        assert last.pai is not None
        out = _rob(st, last.pai, last.actor, score)
    elif last.type == "nukidora":
        # a ron on a North set aside is an ordinary ron, not the chankan yaku
        assert last.pai is not None
        won = _can_win_on(st, last.pai, last.actor, score, False)
        out = [Event("hora", actor=st.seat, target=last.actor, pai=last.pai)] if won else []
    else:
        out = []
        if st.rules.kokushi_robs_ankan and last.consumed and st._kokushi_ready():
            out = _rob(st, last.consumed[0], last.actor, score)
    return [*out, NONE] if out else []


# ---------------------------------------------------------------------------- scoring
def _score(
    st: SeatTracker, target: int, tile: int, score: Scorer, *, tsumo: bool, chankan: bool = False
) -> WinOutcome | None:
    me = st.seat
    hand = tuple(st.hand) if tsumo else (*st.hand, tile)
    last = st.wall_remaining == 0
    first = st.first_go_around()
    req = WinRequest(
        seat=me,
        target=target,
        hand=hand,
        melds=tuple(st.melds[me]),
        win_tile=tile,
        tsumo=tsumo,
        seat_wind=st.seat_wind(),
        round_wind=27 + st.bakaze,
        dealer=st.oya,
        riichi=st.riichi[me],
        double_riichi=st.double_riichi[me],
        ippatsu=st.ippatsu[me],
        haitei=tsumo and last and not st.after_kan,
        houtei=not tsumo and last and not chankan,
        rinshan=tsumo and st.after_kan,
        chankan=chankan,
        tenhou=tsumo and first and me == st.oya,
        chiihou=tsumo and first and me != st.oya,
        dora_markers=tuple(st.dora_markers),
        honba=st.honba,
        kyotaku=st.kyotaku,
        pao=st.pao,
        nukidora=len(st.nukidora[me]),
    )
    return score(req, st.rules)


def _can_win_on(st: SeatTracker, tile: int, target: int, score: Scorer, robbing: bool) -> bool:
    if T.kind_of(tile) not in st.waits() or st.furiten():
        return False
    return _score(st, target, tile, score, tsumo=False, chankan=robbing) is not None


# ---------------------------------------------------------------------------- own turn
def _self_actions(st: SeatTracker, score: Scorer) -> list[Event]:
    me, drawn, rules = st.seat, st.drawn, st.rules
    assert drawn is not None
    out: list[Event] = []
    if is_complete(st.counts) and _score(st, me, drawn, score, tsumo=True) is not None:
        out.append(Event("hora", actor=me, target=me, pai=drawn))
    out += _kans(st)
    if (
        rules.abortive_draws
        and st.first_go_around()
        and len({T.kind_of(t) for t in st.hand} & _TERMINAL_HONOUR) >= 9
    ):
        out.append(Event("ryukyoku", actor=me, kind="nine_terminals"))
    if rules.nukidora:
        out += _kita(st)
    if st.riichi[me]:
        out.append(Event("dahai", actor=me, pai=drawn, tsumogiri=True))
        return out
    if _can_declare_riichi(st):
        out.append(Event("reach", actor=me))
    return out + discards(st)


def _kita(st: SeatTracker) -> list[Event]:
    """Setting a North aside: with a replacement draw left, and in riichi only the North just
    drawn."""
    me, drawn = st.seat, st.drawn
    if not st.counts[NORTH] or st.wall_remaining <= 0 or st.replacements_left() <= 0:
        return []
    if st.riichi[me] and (drawn is None or T.kind_of(drawn) != NORTH):
        return []
    tile = next(t for t in st.hand if T.kind_of(t) == NORTH)
    return [Event("nukidora", actor=me, pai=tile)]


def _may_kan(st: SeatTracker) -> bool:
    return st.wall_remaining > 0 and st.kans < 4 and st.replacements_left() > 0


def _kans(st: SeatTracker) -> list[Event]:
    if not _may_kan(st):
        return []
    me, counts, hand = st.seat, st.counts, st.hand
    out: list[Event] = []
    for k in range(34):
        if counts[k] == 4 and _ankan_allowed(st, k):
            tiles = tuple(sorted(t for t in hand if T.kind_of(t) == k))
            out.append(Event("ankan", actor=me, consumed=tiles))
    if not st.riichi[me]:
        for m in st.melds[me]:
            if m.type == "pon":
                k = T.kind_of(m.tiles[0])
                if counts[k]:
                    added = next(t for t in hand if T.kind_of(t) == k)
                    out.append(Event("kakan", actor=me, pai=added, consumed=m.tiles))
    return out


def _ankan_allowed(st: SeatTracker, kind: int) -> bool:
    """Outside riichi always; in riichi only with the drawn tile and unchanged waits."""
    if not st.riichi[st.seat]:
        return True
    if st.drawn is None or T.kind_of(st.drawn) != kind:
        return False
    counts = list(st.counts)
    counts[kind] -= 1
    before = tuple(waits(counts))
    counts[kind] -= 3
    after = tuple(waits(counts))
    return before == after and bool(after)


def _can_declare_riichi(st: SeatTracker) -> bool:
    me, r = st.seat, st.rules
    if st.riichi[me] or any(m.is_open for m in st.melds[me]):
        return False
    if st.scores[me] < r.riichi_min_points or st.wall_remaining < r.riichi_min_wall_tiles:
        return False
    return shanten(st.counts) <= 0


def _riichi_discards(st: SeatTracker) -> list[Event]:
    """After a riichi declaration: the discards that leave the hand ready."""
    counts = list(st.counts)
    ready: dict[int, bool] = {}
    out: list[Event] = []
    for e in discards(st):
        assert e.pai is not None
        k = T.kind_of(e.pai)
        if k not in ready:
            counts[k] -= 1
            ready[k] = shanten(counts) == 0
            counts[k] += 1
        if ready[k]:
            out.append(e)
    return out


# ---------------------------------------------------------------------------- others' tiles
def _claims(st: SeatTracker, tile: int, discarder: int, score: Scorer) -> list[Event]:
    me = st.seat
    out: list[Event] = []
    if _can_win_on(st, tile, discarder, score, False):
        out.append(Event("hora", actor=me, target=discarder, pai=tile))
    if st.riichi[me] or st.wall_remaining <= 0:
        return out
    k = T.kind_of(tile)
    hand, counts = st.hand, st.counts
    n = counts[k]
    if n >= 2:
        same = [t for t in hand if T.kind_of(t) == k]
        for pair in sorted({tuple(sorted(p)) for p in combinations(same, 2)}):
            if _has_discard_after(st, pair, k, "pon"):
                out.append(Event("pon", actor=me, target=discarder, pai=tile, consumed=pair))
        if n == 3 and _may_kan(st):
            out.append(
                Event(
                    "daiminkan",
                    actor=me,
                    target=discarder,
                    pai=tile,
                    consumed=tuple(sorted(same)),
                )
            )
    if st.players == 4 and me == (discarder + 1) % 4 and k < 27:
        num = k % 9
        for da, db in ((-2, -1), (-1, 1), (1, 2)):
            if num + da < 0 or num + db > 8:
                continue
            a, b = k + da, k + db
            if not (counts[a] and counts[b]):
                continue
            for ta in sorted({t for t in hand if T.kind_of(t) == a}):
                for tb in sorted({t for t in hand if T.kind_of(t) == b}):
                    if _has_discard_after(st, (ta, tb), k, "chi"):
                        out.append(
                            Event("chi", actor=me, target=discarder, pai=tile, consumed=(ta, tb))
                        )
    return out


def _has_discard_after(st: SeatTracker, consumed: tuple[int, ...], kind: int, call: str) -> bool:
    banned = set(banned_after_call(st.rules, kind, consumed, call))
    left = list(st.hand)
    for c in consumed:
        left.remove(c)
    return any(T.kind_of(t) not in banned for t in left)


def _rob(st: SeatTracker, tile: int, kan_seat: int, score: Scorer) -> list[Event]:
    if _can_win_on(st, tile, kan_seat, score, True):
        return [Event("hora", actor=st.seat, target=kan_seat, pai=tile)]
    return []
