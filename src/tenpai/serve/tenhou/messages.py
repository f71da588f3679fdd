"""The table server's messages, each as one seat sees it.

Tenhou numbers seats from the receiver: seat 0 is always "me", 1 the next player (shimocha),
2 the opposite, 3 the previous (kamicha).  Scores, dealers, ``who``/``fromWho`` and the per-seat
attributes of ``REINIT`` and ``RYUUKYOKU`` are all rotated that way; a meld code's "from"
field is already relative to the caller, so it is sent unchanged.  Draws are ``<T>`` for the
receiver and ``<U>``/``<V>``/``<W>`` (tile hidden) for the others; discards are
``<D>``/``<E>``/``<F>``/``<G>``, lower-case when the drawn tile was discarded (tsumogiri).
Scores travel in hundreds of points.

Three players (sanma): the wire keeps four positions, the fourth (absolute seat 3, North) empty —
its name is blank, its score 0 and its ``sc`` pair "0,0", and nobody draws or discards there.
Relative seats stay modulo four, so the player after seat 2 (seat 0) may be "opposite" on the
wire.  Per-seat lists from the engine (three long) are padded with :func:`pad4` before rotating.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from urllib.parse import quote

from tenpai.events import Event
from tenpai.records.tenhou6_text import YAKUMAN_NAMES
from tenpai.records.yaku_names import YAKU_IDS, tenhou_yaku_name
from tenpai.serve.tenhou.wire import format_tag

__all__ = [
    "CLAIM_CHI",
    "CLAIM_KAN",
    "CLAIM_PON",
    "CLAIM_RON",
    "DRAW_KITA",
    "DRAW_NINE",
    "DRAW_RIICHI",
    "DRAW_TSUMO",
    "agari",
    "discard",
    "draw",
    "go",
    "init",
    "meld",
    "owari",
    "pad4",
    "reach",
    "rel",
    "rotate",
    "ryuukyoku",
    "un",
]

#: ``t`` flags offered with a discard (or, for a robbable kan, with ``<N>``)
CLAIM_PON, CLAIM_KAN, CLAIM_CHI, CLAIM_RON = 1, 2, 4, 8
#: ``t`` flags offered with the receiver's own draw (``DRAW_KITA``: a North may be set aside,
#: three players only)
DRAW_TSUMO, DRAW_RIICHI, DRAW_NINE, DRAW_KITA = 16, 32, 64, 128

_DRAW_TYPES = {
    "nine_terminals": "yao9",
    "four_winds": "kaze4",
    "four_riichi": "reach4",
    "four_kans": "kan4",
    "triple_ron": "ron3",
    "nagashi_mangan": "nm",
}


def rel(seat: int, viewer: int) -> int:
    """``seat`` numbered from ``viewer`` (0 = the viewer)."""
    return (seat - viewer) % 4


def pad4(values: Sequence[object], blank: object = 0) -> list[object]:
    """Per-seat values of a three-player table with the empty fourth position filled in."""
    return [*values, *([blank] * (4 - len(values)))]


def rotate(values: Sequence[object], viewer: int, blank: object = 0) -> list[object]:
    """Per-seat values listed from the viewer's seat (three values: the empty seat ``blank``)."""
    full = pad4(values, blank)
    return [full[(viewer + i) % 4] for i in range(4)]


def _csv(values: Sequence[object]) -> str:
    return ",".join(str(v) for v in values)


def _hundreds(scores: Sequence[int]) -> list[int]:
    return [s // 100 for s in scores]


def go(game_type: int, lobby: int = 0) -> str:
    return format_tag("GO", {"type": game_type, "lobby": lobby})


def un(names: Sequence[str], viewer: int) -> str:
    attrs: dict[str, object] = {
        f"n{i}": quote(str(n)) for i, n in enumerate(rotate(names, viewer, ""))
    }
    attrs.update(dan="0,0,0,0", rate="1500.00,1500.00,1500.00,1500.00", sx="C,C,C,C")
    return format_tag("UN", attrs)


def init(
    e: Event, hand: Sequence[int], dora_id: int, dice: tuple[int, int], scores: Sequence[int],
    viewer: int,
) -> str:
    """``<INIT>``: round, honba, deposits, dice (each minus one), the dora indicator; scores,
    dealer and the receiver's 13 tiles."""
    seed = ((e.bakaze or 0) * 4 + (e.kyoku or 0), e.honba or 0, e.kyotaku or 0, *dice, dora_id)
    return format_tag(
        "INIT",
        {
            "seed": _csv(seed),
            "ten": _csv(rotate(_hundreds(scores), viewer)),
            "oya": rel(e.oya if e.oya is not None else e.kyoku or 0, viewer),
            "hai": _csv(sorted(hand)),
        },
    )


def draw(actor: int, tile_id: int, viewer: int, flags: int = 0) -> str:
    r = rel(actor, viewer)
    if r:
        return f"<{'TUVW'[r]}/>"
    return format_tag(f"T{tile_id}", {"t": flags} if flags else None)


def discard(actor: int, tile_id: int, tsumogiri: bool, viewer: int, flags: int = 0) -> str:
    letter = "DEFG"[rel(actor, viewer)]
    return format_tag(f"{letter.lower() if tsumogiri else letter}{tile_id}",
                      {"t": flags} if flags else None)


def meld(actor: int, code: int, viewer: int, flags: int = 0) -> str:
    attrs: dict[str, object] = {"who": rel(actor, viewer), "m": code}
    if flags:
        attrs["t"] = flags
    return format_tag("N", attrs)


def reach(actor: int, viewer: int, step: int, scores: Sequence[int] | None = None) -> str:
    attrs: dict[str, object] = {"who": rel(actor, viewer)}
    if scores is not None:
        attrs["ten"] = _csv(rotate(_hundreds(scores), viewer))
    attrs["step"] = step
    return format_tag("REACH", attrs)


def _sc(before: Sequence[int], deltas: Sequence[int], viewer: int) -> str:
    """``sc``: score before and change, in hundreds, per seat from the viewer."""
    out: list[object] = []
    for b, d in zip(rotate(_hundreds(before), viewer), rotate(_hundreds(deltas), viewer),
                    strict=True):
        out += [b, d]
    return _csv(out)


def _limit(han: int, fu: int, yakuman: int) -> int:
    """Tenhou's limit code in ``ten``: 0 none, 1 mangan, 2 haneman, 3 baiman, 4 sanbaiman,
    5 yakuman."""
    if yakuman or han >= 13:
        return 5
    for lo, code in ((11, 4), (8, 3), (6, 2)):
        if han >= lo:
            return code
    return 1 if han >= 5 or fu * 2 ** (han + 2) >= 2000 else 0


def agari(
    e: Event, start: Event, hand: Sequence[int], melds: Sequence[int], win_id: int,
    dora_ids: Sequence[int], ura_ids: Sequence[int], before: Sequence[int], deposits: int,
    viewer: int, owari: str | None,
) -> str:
    """``<AGARI>``.  ``ten`` is "fu,points,limit" where points are the winner's gain without
    honba and deposits (what the client shows as the hand's value)."""
    assert e.actor is not None and e.target is not None
    who, frm = e.actor, e.target
    players = len(before)
    wind = (who - (start.oya or 0)) % players
    yaku: list[int] = []
    yakuman: list[int] = []
    for engine_name, han in e.yaku:
        name = tenhou_yaku_name(engine_name, wind, start.bakaze or 0)
        if name not in YAKU_IDS:
            continue
        if name in YAKUMAN_NAMES:
            yakuman.append(YAKU_IDS[name])
        else:
            yaku += [YAKU_IDS[name], han]
    gain = e.deltas[who] if len(e.deltas) == players else 0
    sticks = (start.honba or 0) * 300 + deposits * 1000
    points = max(gain - sticks, 0)
    attrs: dict[str, object] = {
        "ba": f"{start.honba or 0},{deposits}",
        "hai": _csv(sorted(hand)),
    }
    if melds:
        attrs["m"] = _csv(melds)
    attrs["machi"] = win_id
    attrs["ten"] = f"{e.fu or 0},{points},{_limit(e.han or 0, e.fu or 0, len(yakuman))}"
    if yaku:
        attrs["yaku"] = _csv(yaku)
    if yakuman:
        attrs["yakuman"] = _csv(yakuman)
    attrs["doraHai"] = _csv(dora_ids)
    if ura_ids:
        attrs["doraHaiUra"] = _csv(ura_ids)
    attrs["who"] = rel(who, viewer)
    attrs["fromWho"] = rel(frm, viewer)
    if e.pao is not None:
        attrs["paoWho"] = rel(e.pao, viewer)
    attrs["sc"] = _sc(before, e.deltas or (0,) * players, viewer)
    if owari is not None:
        attrs["owari"] = owari
    return format_tag("AGARI", attrs)


def ryuukyoku(
    e: Event, start: Event, shown: Mapping[int, Sequence[int]], before: Sequence[int],
    deposits: int, viewer: int, owari: str | None,
) -> str:
    attrs: dict[str, object] = {}
    kind = e.kind or "exhaustive"
    if kind in _DRAW_TYPES:
        attrs["type"] = _DRAW_TYPES[kind]
    attrs["ba"] = f"{start.honba or 0},{deposits}"
    attrs["sc"] = _sc(before, e.deltas or (0,) * len(before), viewer)
    for seat, ids in sorted(shown.items(), key=lambda kv: rel(kv[0], viewer)):
        attrs[f"hai{rel(seat, viewer)}"] = _csv(sorted(ids))
    if owari is not None:
        attrs["owari"] = owari
    return format_tag("RYUUKYOKU", attrs)


def owari(scores: Sequence[int], points: Sequence[float], viewer: int) -> str:
    """Final scores (hundreds) and points per seat from the viewer; the empty seat of a
    three-player table is "0,0.0"."""
    hundreds = rotate([s // 100 for s in scores], viewer)
    shares = rotate(list(points), viewer, 0.0)
    return ",".join(f"{s},{float(str(p)):.1f}" for s, p in zip(hundreds, shares, strict=True))
