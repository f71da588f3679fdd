"""Events → Tenhou mjlog XML.

Events carry tile codes, mjlog needs physical ids (0-135), so the writer deals physical copies
as tiles first appear (hands, draws, dora indicators) and then follows each copy through hands
and melds; a red five always gets Tenhou's red id.  Reading the output back gives the same
events; the ids themselves (and the wall seed) are of course not those of the original game.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.records.errors import RecordContentError, in_record_terms
from tenpai.records.game import Game
from tenpai.records.mjlog_meld import MeldKind, encode_meld
from tenpai.records.source import write_text_atomic
from tenpai.records.tenhou6_text import YAKUMAN_NAMES
from tenpai.records.yaku_names import YAKU_IDS, tenhou_yaku_name

__all__ = ["game_to_mjlog", "write_mjlog"]

_ROOM_BITS = {"ippan": 0x00, "joukyuu": 0x80, "tokujou": 0x20, "houou": 0xA0}
_KYORYU_TYPES = {
    "nine_terminals": "yao9",
    "four_winds": "kaze4",
    "four_riichi": "reach4",
    "four_kans": "kan4",
    "triple_ron": "ron3",
    "nagashi_mangan": "nm",
}


def _go_type(game: Game) -> int:
    r = game.rules
    if r.go_type is not None:
        return r.go_type
    t = 0x01 if r.online is not False else 0
    t |= 0 if r.red_fives is not False else 0x02
    t |= 0 if r.open_tanyao is not False else 0x04
    t |= 0 if r.hanchan is False else 0x08  # unknown length reads as hanchan, as replay does
    t |= 0x10 if r.players == 3 else 0
    t |= 0x40 if r.fast else 0
    t |= _ROOM_BITS.get(r.room or "", 0)
    return t


class _Copies:
    """Hands out physical ids for tile codes, never the same id twice in one round."""

    def __init__(self, red: bool) -> None:
        self.free: dict[int, list[int]] = {}
        for kind in range(34):
            ids = [kind * 4 + i for i in range(4)]
            if red and kind * 4 in T.RED_FIVE_IDS:
                ids.remove(kind * 4)
            self.free[kind] = ids
        self.red = red

    def take(self, tile: int) -> int:
        if T.is_red(tile):
            rid = T.RED_FIVE_IDS[tile - 34]
            if not self.red:
                raise ValueError("a red five in a game without red fives")
            if rid in self.free.get(-tile, [rid]):
                self.free[-tile] = []
                return rid
            raise ValueError(f"a second {T.to_mjai(tile)}")
        pool = self.free[T.kind_of(tile)]
        if not pool:
            raise ValueError(f"a fifth copy of {T.to_mjai(tile)}")
        return pool.pop(0)


def _limit(han: int, fu: int, yakuman: int) -> tuple[int, int]:
    if yakuman or han >= 13:
        return 5, 8000 * max(yakuman, 1)
    for lo, code, base in ((11, 4, 6000), (8, 3, 4000), (6, 2, 3000)):
        if han >= lo:
            return code, base
    base = fu * 2 ** (han + 2)
    if han >= 5 or base >= 2000:
        return 1, 2000
    return 0, base


def _c100(x: int) -> int:
    return -(-x // 100) * 100


def _points(
    han: int, fu: int, yakuman: int, tsumo: bool, dealer: bool, players: int = 4
) -> tuple[int, int]:
    """``ten``'s points and limit code; a three-player tsumo is paid by two players (Tenhou
    writes the tsumo-loss total: a non-dealer mangan is 6000, not 8000)."""
    code, base = _limit(han, fu, yakuman)
    payers = players - 1
    if tsumo:
        if dealer:
            pts = payers * _c100(2 * base)
        else:
            pts = _c100(2 * base) + (payers - 1) * _c100(base)
    else:
        pts = _c100((6 if dealer else 4) * base)
    return pts, code


def _ids(xs: list[int]) -> str:
    return ",".join(str(x) for x in xs)


class _RoundWriter:
    def __init__(self, events: list[Event], n: int, red: bool, scores: list[int]) -> None:
        self.events = events
        self.n = n
        self.copies = _Copies(red)
        self.hands: list[list[int]] = [[] for _ in range(4)]
        self.melds: list[list[int]] = [[] for _ in range(4)]
        #: (seat, kind) → the pon's ids, its called id, from whom (relative), its meld code
        self.pons: dict[tuple[int, int], tuple[list[int], int, int, int]] = {}
        self.last_draw: list[int | None] = [None] * 4
        self.last_discard: int | None = None
        self.scores = scores
        self.out: list[str] = []
        self.ura_ids: list[int] | None = None

    def pick(self, seat: int, tile: int, avoid: int | None = None) -> int:
        cands = [i for i in self.hands[seat] if T.from_tenhou136(i, self.copies.red) == tile]
        if not cands:
            raise ValueError(f"seat {seat} does not hold {T.to_mjai(tile)}")
        choice = next((i for i in cands if i != avoid), cands[0])
        self.hands[seat].remove(choice)
        return choice

    def write(self, last: bool, game: Game) -> list[str]:
        sk = self.events[0]
        assert sk.bakaze is not None and sk.kyoku is not None and sk.dora_marker is not None
        dora_ids = [self.copies.take(sk.dora_marker)]
        hai = []
        for s in range(4):
            hand = sk.tehais[s] if s < len(sk.tehais) else None
            self.hands[s] = [self.copies.take(t) for t in hand or ()]
            hai.append(_ids(self.hands[s]))
        self.scores[:] = list(sk.scores)
        ten = [x // 100 for x in sk.scores] + [0] * (4 - len(sk.scores))
        self.out.append(
            f'<INIT seed="{sk.bakaze * 4 + sk.kyoku},{sk.honba or 0},{sk.kyotaku or 0},0,0,'
            f'{dora_ids[0]}" ten="{_ids(ten)}" oya="{sk.oya}" '
            + " ".join(f'hai{s}="{hai[s]}"' for s in range(4))
            + "/>"
        )
        reaches = 0
        ends = [i for i, e in enumerate(self.events) if e.type in ("hora", "ryukyoku")]
        final_i = ends[-1] if ends else -1
        for i, e in enumerate(self.events[1:], 1):
            a = e.actor if e.actor is not None else 0
            if e.type == "tsumo":
                assert e.pai is not None
                tid = self.copies.take(e.pai)
                self.hands[a].append(tid)
                self.last_draw[a] = tid
                self.out.append(f"<{'TUVW'[a]}{tid}/>")
            elif e.type == "dahai":
                assert e.pai is not None
                drawn = self.last_draw[a]
                if e.tsumogiri and drawn is not None:
                    self.hands[a].remove(drawn)
                    tid = drawn
                else:
                    tid = self.pick(a, e.pai, avoid=drawn)
                self.last_draw[a] = None
                self.last_discard = tid
                self.out.append(f"<{'DEFG'[a]}{tid}/>")
            elif e.type == "reach":
                self.out.append(f'<REACH who="{a}" step="1"/>')
            elif e.type == "reach_accepted":
                self.scores[a] -= 1000
                reaches += 1
                ten = [x // 100 for x in self.scores]
                self.out.append(f'<REACH who="{a}" ten="{_ids(ten)}" step="2"/>')
            elif e.type == "dora":
                assert e.dora_marker is not None
                tid = self.copies.take(e.dora_marker)
                dora_ids.append(tid)
                self.out.append(f'<DORA hai="{tid}"/>')
            elif e.type in ("chi", "pon", "daiminkan", "ankan", "kakan", "nukidora"):
                self.meld(e)
            elif e.type == "hora":
                self.agari(e, sk, dora_ids, reaches, last and i == final_i, game)
            elif e.type == "ryukyoku":
                self.ryuukyoku(e, sk, reaches, last and i == final_i, game)
            elif e.type in ("end_kyoku", "none"):
                pass
            else:
                raise ValueError(f"event {e.type} has no mjlog form")
        return self.out

    def meld(self, e: Event) -> None:
        a = e.actor
        assert a is not None
        self.last_draw[a] = None
        kind: MeldKind = e.type  # type: ignore[assignment]
        if e.type == "nukidora":
            assert e.pai is not None
            tid = self.pick(a, e.pai)
            self.last_discard = tid  # a ron on the North set aside takes this tile
            m = encode_meld("nukidora", 0, (tid,), tid)
        elif e.type == "ankan":
            ids = [self.pick(a, t) for t in e.consumed]
            m = encode_meld("ankan", 0, tuple(sorted(ids)), None)
        elif e.type == "kakan":
            assert e.pai is not None
            key = (a, T.kind_of(e.pai))
            if key not in self.pons:
                raise ValueError(f"kakan by seat {a} without a pon")
            pon_ids, called, rel, pon_m = self.pons.pop(key)
            added = self.pick(a, e.pai)
            self.last_discard = added  # a chankan robs this tile
            m = encode_meld("kakan", rel, (*pon_ids, added), called)
        else:
            assert e.target is not None and self.last_discard is not None
            rel = (e.target - a) % 4
            own = [self.pick(a, t) for t in e.consumed]
            called = self.last_discard
            both = (*own, called)
            m = encode_meld(kind, rel, both, called)
            if e.type == "pon":
                self.pons[(a, called // 4)] = (list(both), called, rel, m)
        if e.type == "kakan":
            # the added kan takes its pon's place: Tenhou's AGARI lists the kan, not both
            self.melds[a][self.melds[a].index(pon_m)] = m
        else:
            self.melds[a].append(m)
        self.out.append(f'<N who="{a}" m="{m}"/>')

    def sc(self, deltas: tuple[int, ...]) -> str:
        parts = []
        for s in range(4):
            score = self.scores[s] if s < len(self.scores) else 0
            d = deltas[s] if s < len(deltas) else 0
            parts += [score // 100, d // 100]
        for s, d in enumerate(deltas):
            self.scores[s] += d
        return _ids(parts)

    def owari(self, game: Game) -> str:
        scores = game.final_scores or tuple(self.scores)
        points = game.final_points or (0.0,) * len(scores)
        parts = []
        for s in range(4):
            sc = scores[s] // 100 if s < len(scores) else 0
            pt = points[s] if s < len(points) else 0.0
            parts.append(f"{sc},{pt:g}" if s < len(scores) else "0,0")
        return ",".join(parts)

    def agari(
        self, e: Event, sk: Event, dora_ids: list[int], reaches: int, last: bool, game: Game
    ) -> None:
        assert e.actor is not None and e.target is not None and e.pai is not None
        who, frm = e.actor, e.target
        tsumo = who == frm
        if tsumo:
            win = self.last_draw[who]
            if win is None:
                raise ValueError("tsumo without a draw")
        else:
            win = self.last_discard
            if win is None:
                raise ValueError("ron without a discard")
        hand = sorted(self.hands[who] + ([] if tsumo else [win]))
        yaku: list[int] = []
        yakuman: list[int] = []
        for engine_name, han in e.yaku:
            # games played by the engine carry its yaku ids; Tenhou's ids follow its names
            name = tenhou_yaku_name(engine_name, (who - (sk.oya or 0)) % self.n, sk.bakaze or 0)
            if name not in YAKU_IDS:
                raise ValueError(f"yaku {name!r} has no Tenhou id")
            if name in YAKUMAN_NAMES:
                yakuman.append(YAKU_IDS[name])
            else:
                yaku += [YAKU_IDS[name], han]
        pts, limit = _points(e.han or 0, e.fu or 0, len(yakuman), tsumo, who == sk.oya, self.n)
        attrs = [
            f'ba="{sk.honba or 0},{(sk.kyotaku or 0) + reaches}"',
            f'hai="{_ids(hand)}"',
        ]
        if self.melds[who]:  # Tenhou lists the latest call first
            attrs.append(f'm="{_ids(self.melds[who][::-1])}"')
        attrs += [f'machi="{win}"', f'ten="{e.fu or 0},{pts},{limit}"']
        if yaku:
            attrs.append(f'yaku="{_ids(yaku)}"')
        if yakuman:
            attrs.append(f'yakuman="{_ids(yakuman)}"')
        attrs.append(f'doraHai="{_ids(dora_ids)}"')
        if e.ura_markers:
            if self.ura_ids is None:  # both winners of a double ron show the same ura
                self.ura_ids = [self.copies.take(t) for t in e.ura_markers]
            ura = self.ura_ids
            attrs.append(f'doraHaiUra="{_ids(ura)}"')
        attrs += [f'who="{who}"', f'fromWho="{frm}"']
        if e.pao is not None:
            attrs.append(f'paoWho="{e.pao}"')
        attrs.append(f'sc="{self.sc(e.deltas)}"')
        if last:
            attrs.append(f'owari="{self.owari(game)}"')
        self.out.append("<AGARI " + " ".join(attrs) + "/>")

    def ryuukyoku(self, e: Event, sk: Event, reaches: int, last: bool, game: Game) -> None:
        attrs = []
        kind = e.kind or "exhaustive"
        if kind != "exhaustive":
            if kind not in _KYORYU_TYPES:
                raise ValueError(f"draw kind {kind!r} has no mjlog type")
            attrs.append(f'type="{_KYORYU_TYPES[kind]}"')
        attrs.append(f'ba="{sk.honba or 0},{(sk.kyotaku or 0) + reaches}"')
        deltas = e.deltas or (0,) * self.n
        attrs.append(f'sc="{self.sc(deltas)}"')
        shown = [s for s, h in enumerate(e.tehais) if h is not None]
        if kind == "nine_terminals" and e.actor is not None and e.actor not in shown:
            # Tenhou shows the declarer's hand, and readers take the declarer from it
            shown = sorted([*shown, e.actor])
        for s in shown:
            ids = sorted(self.hands[s])
            h = e.tehais[s] if s < len(e.tehais) else None
            if h is not None and sorted(T.from_tenhou136(i, self.copies.red) for i in ids) != \
                    sorted(h):
                raise ValueError(f"shown hand of seat {s} differs from the tracked hand")
            attrs.append(f'hai{s}="{_ids(ids)}"')
        if last:
            attrs.append(f'owari="{self.owari(game)}"')
        self.out.append("<RYUUKYOKU " + " ".join(attrs) + "/>")


def game_to_mjlog(game: Game) -> str:
    """The mjlog XML text of a game."""
    red = game.rules.red_fives is not False
    n = game.players
    names = list(game.names) + [""] * (4 - len(game.names))
    un = (
        "<UN "
        + " ".join(f'n{i}="{quote(names[i])}"' for i in range(4))
        + f' dan="{_ids(list(game.dan) or [0] * n)}"'
        + f' rate="{",".join(f"{r:.2f}" for r in (game.rates or (1500.0,) * n))}"'
        + f' sx="{",".join(game.sexes or ("C",) * n)}"/>'
    )
    head = [
        '<mjloggm ver="2.3">',
        f'<GO type="{_go_type(game)}" lobby="{game.rules.lobby or 0}"/>',
        un if game.names or game.dan else "",
        '<TAIKYOKU oya="0"/>',
    ]
    body: list[str] = []
    scores: list[int] = []
    for ri, events in enumerate(game.rounds):
        where = f"round {ri}"
        try:
            w = _RoundWriter(events, n, red, scores)
            body += w.write(ri == len(game.rounds) - 1 and not game.truncated, game)
        except (ValueError, KeyError, IndexError, AssertionError) as exc:
            raise RecordContentError(f"cannot write as mjlog: {in_record_terms(exc)}",
                                     game.source, where) from exc
    return "".join(head + body) + "</mjloggm>"


def write_mjlog(game: Game, path: str | Path, *, compress: bool = False) -> None:
    """Write a game as mjlog XML (gzipped when ``compress``), atomically."""
    write_text_atomic(path, game_to_mjlog(game) + "\n", compress=compress)
