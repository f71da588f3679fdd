"""Tenhou mjlog XML → :class:`Game`.

Handles every era of the format found in the wild: the 2009 logs without ``<SHUFFLE>`` (the
seed then sits inside ``<INIT shuffle=…>``), three-player games, ``<BYE>`` disconnects and
``<UN>`` reconnects, every ``<N>`` meld encoding (see :mod:`tenpai.records.mjlog_meld`), pao
(``paoWho``), and the chip / ratio attributes of special lobbies (kept in ``Game.extra``).
XML is parsed with defusedxml so entity tricks are refused rather than expanded.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.records.common import canonical
from tenpai.records.errors import (
    RecordContentError,
    RecordError,
    RecordSyntaxError,
    RecordTruncatedError,
    in_record_terms,
)
from tenpai.records.game import Game, RuleFlags
from tenpai.records.mjlog_meld import decode_meld
from tenpai.records.source import DEFAULT_MAX_BYTES, read_text
from tenpai.records.yaku_names import YAKU_NAMES, YAKUMAN_HAN

__all__ = ["RYUUKYOKU_KINDS", "go_type_rules", "parse_mjlog", "read_mjlog"]

#: mjlog ``RYUUKYOKU type`` → ``ryukyoku.kind`` (no type = exhaustive draw)
RYUUKYOKU_KINDS = {
    None: "exhaustive",
    "yao9": "nine_terminals",
    "kaze4": "four_winds",
    "reach4": "four_riichi",
    "kan4": "four_kans",
    "ron3": "triple_ron",
    "nm": "nagashi_mangan",
}

_DRAW_TAGS = "TUVW"
_DISCARD_TAGS = "DEFG"
_ROOMS = {0x00: "ippan", 0x80: "joukyuu", 0x20: "tokujou", 0xA0: "houou"}


def go_type_rules(go_type: int, lobby: int | None = None) -> RuleFlags:
    """Rule flags from the bits of ``<GO type>``."""
    return RuleFlags(
        variant="riichi",
        players=3 if go_type & 0x10 else 4,
        red_fives=not go_type & 0x02,
        open_tanyao=not go_type & 0x04,
        hanchan=bool(go_type & 0x08),
        fast=bool(go_type & 0x40),
        online=bool(go_type & 0x01),
        room=_ROOMS[go_type & 0xA0],
        go_type=go_type,
        lobby=lobby,
    )


def read_mjlog(
    path: str | Path, *, strict: bool = True, max_bytes: int = DEFAULT_MAX_BYTES
) -> Game:
    """Read one mjlog file (raw or gzipped, any extension)."""
    return parse_mjlog(read_text(path, max_bytes), str(path), strict=strict)


def _ints(text: str | None, what: str) -> list[int]:
    if text is None:
        raise ValueError(f"missing {what}")
    if not text.strip():
        return []
    return [int(x) for x in text.split(",")]


def _nums(text: str) -> list[float]:
    return [float(x) for x in text.split(",")] if text.strip() else []


class _Reader:
    """State of one pass over the elements: the open round and the facts gathered so far."""

    def __init__(self, source: str, strict: bool) -> None:
        self.source = source
        self.strict = strict
        self.game = Game(source=source, format="mjlog")
        self.red = True
        self.n = 4
        self.round: list[Event] | None = None
        self.round_closed = False
        self.last_draw: list[int | None] = [None] * 4
        self.scores: list[int] = []
        self.ended = False
        self.reach_wait: int | None = None
        #: physical tile ids (0-135) the round has taken from the wall: the deal, the draws
        #: and the dora indicators; one id twice is a record that cannot be
        self.taken: set[int] = set()

    # -- helpers -------------------------------------------------------------
    def tile(self, tile_id: int) -> int:
        return T.from_tenhou136(tile_id, self.red)

    def take(self, tile_id: int, where: str) -> None:
        """One physical tile leaves the wall; the same id twice in a round is refused (the
        kinds alone would let a duplicated copy through)."""
        if tile_id in self.taken:
            raise ValueError(f"{where}: physical tile {tile_id} ({T.to_mjai(self.tile(tile_id))})"
                             " is already in play in this round")
        self.taken.add(tile_id)

    def emit(self, ev: Event) -> None:
        if self.round is None or (self.round_closed and ev.type not in ("hora",)):
            raise ValueError(f"{ev.type} outside a round")
        self.round.append(ev)

    def close_round(self) -> None:
        if self.round is not None and self.round_closed:
            self.round.append(Event("end_kyoku"))
            self.game.rounds.append(self.round)
            self.round = None
            self.round_closed = False

    def seat(self, text: str | None) -> int:
        if text is None:
            raise ValueError("missing seat")
        s = int(text)
        if not 0 <= s < self.n:
            raise ValueError(f"seat {s} out of range for {self.n} players")
        return s

    # -- elements ------------------------------------------------------------
    def element(self, el: Element) -> None:
        tag = el.tag
        a = el.attrib
        if self.ended and tag not in ("UN", "BYE"):
            raise ValueError(f"<{tag}> after the game ended")
        if self.reach_wait is not None:
            self.settle_reach(tag, a)
        if tag[0] in _DRAW_TAGS and tag[1:].isdigit():
            self.draw(_DRAW_TAGS.index(tag[0]), int(tag[1:]))
        elif tag[0] in _DISCARD_TAGS and tag[1:].isdigit():
            self.discard(_DISCARD_TAGS.index(tag[0]), int(tag[1:]))
        elif tag == "N":
            self.meld(self.seat(a.get("who")), int(a["m"]))
        elif tag == "REACH":
            who = self.seat(a.get("who"))
            step = a.get("step")
            if step == "1":
                self.emit(Event("reach", actor=who))
            elif step == "2":
                self.emit(Event("reach_accepted", actor=who))
            else:
                raise ValueError(f"REACH step {step!r}")
        elif tag == "DORA":
            self.take(int(a["hai"]), "<DORA>")
            self.emit(Event("dora", dora_marker=self.tile(int(a["hai"]))))
        elif tag == "INIT":
            self.init(a)
        elif tag == "AGARI":
            self.agari(a)
        elif tag == "RYUUKYOKU":
            self.ryuukyoku(a)
        elif tag == "UN":
            self.un(a)
        elif tag == "BYE":
            who = self.seat(a.get("who"))
            self.game.extra.setdefault("disconnects", []).append(
                [len(self.game.rounds), self.position(), who]
            )
        elif tag == "GO":
            go_type = int(a.get("type", "0"))
            lobby = int(a["lobby"]) if "lobby" in a else None
            self.game.rules = go_type_rules(go_type, lobby)
            self.red = bool(self.game.rules.red_fives)
            self.n = self.game.rules.players
            for k in ("csrule", "rule", "ranking", "title"):
                if k in a:
                    self.game.extra.setdefault("go", {})[k] = a[k]
        elif tag == "SHUFFLE":
            self.game.extra["shuffle"] = dict(a)
        elif tag == "TAIKYOKU":
            self.game.extra["taikyoku_oya"] = int(a.get("oya", "0"))
        else:
            raise ValueError(f"unknown element <{tag}>")

    def settle_reach(self, tag: str, a: dict[str, str]) -> None:
        """Some logs (bot test fixtures) omit ``REACH step=2``; the riichi is accepted anyway
        once its discard has passed without a ron, so the event is supplied there."""
        who = self.reach_wait
        if tag in ("AGARI", "UN", "BYE"):
            if tag == "AGARI":
                self.reach_wait = None
            return
        self.reach_wait = None
        if tag == "REACH" and a.get("step") == "2" and a.get("who") == str(who):
            return
        self.emit(Event("reach_accepted", actor=who))

    def position(self) -> int:
        return len(self.round) if self.round is not None else 0

    def init(self, a: dict[str, str]) -> None:
        if self.round is not None:
            if self.round_closed:
                self.close_round()
            else:
                raise _Truncation("a round ends without AGARI or RYUUKYOKU")
        seed = _ints(a.get("seed"), "seed")
        if len(seed) != 6:
            raise ValueError(f"INIT seed has {len(seed)} numbers, expected 6")
        rnd, honba, kyotaku, _d1, _d2, dora = seed
        ten = _ints(a.get("ten"), "ten")[: self.n]
        if len(ten) != self.n:
            raise ValueError("INIT ten has too few scores")
        oya = self.seat(a.get("oya"))
        hands: list[tuple[int, ...] | None] = []
        self.taken = set()
        self.take(dora, "<INIT> seed (dora indicator)")
        for s in range(self.n):
            ids = _ints(a.get(f"hai{s}"), f"hai{s}")
            if len(ids) != 13:
                raise ValueError(f"hai{s} has {len(ids)} tiles, expected 13")
            for t in ids:
                self.take(t, f"<INIT> hai{s}")
            hands.append(canonical(self.tile(t) for t in ids))
        if rnd < 0 or honba < 0 or kyotaku < 0:
            raise ValueError("negative round, honba or deposit count")
        self.scores = [x * 100 for x in ten]
        self.round = [
            Event(
                "start_kyoku",
                bakaze=rnd // 4 % 4,
                kyoku=rnd % 4,
                honba=honba,
                kyotaku=kyotaku,
                oya=oya,
                scores=tuple(self.scores),
                tehais=tuple(hands),
                dora_marker=self.tile(dora),
            )
        ]
        self.round_closed = False
        self.last_draw = [None] * 4
        if "shuffle" in a:
            self.game.extra.setdefault("init_shuffle", []).append(a["shuffle"])
        if "chip" in a:
            self.game.extra.setdefault("init_chip", []).append(
                [len(self.game.rounds), a["chip"]]
            )

    def draw(self, who: int, tile_id: int) -> None:
        if who >= self.n:
            raise ValueError(f"draw by seat {who} in a {self.n}-player game")
        self.take(tile_id, f"<{_DRAW_TAGS[who]}{tile_id}>")
        self.emit(Event("tsumo", actor=who, pai=self.tile(tile_id)))
        self.last_draw[who] = tile_id

    def discard(self, who: int, tile_id: int) -> None:
        if who >= self.n:
            raise ValueError(f"discard by seat {who} in a {self.n}-player game")
        tsumogiri = self.last_draw[who] == tile_id
        self.last_draw[who] = None
        self.emit(Event("dahai", actor=who, pai=self.tile(tile_id), tsumogiri=tsumogiri))
        assert self.round is not None
        if len(self.round) >= 2 and self.round[-2].type == "reach" and self.round[-2].actor == who:
            self.reach_wait = who

    def meld(self, who: int, m: int) -> None:
        meld = decode_meld(m)
        self.last_draw[who] = None
        if meld.kind == "nukidora":
            assert meld.called is not None
            self.emit(Event("nukidora", actor=who, pai=self.tile(meld.called)))
            return
        if meld.kind == "ankan":
            consumed = canonical(self.tile(t) for t in meld.tiles)
            self.emit(Event("ankan", actor=who, consumed=consumed))
            return
        if meld.kind == "kakan":
            assert meld.added is not None
            pon = [t for t in meld.tiles if t != meld.added]
            self.emit(
                Event(
                    "kakan",
                    actor=who,
                    pai=self.tile(meld.added),
                    consumed=canonical(self.tile(t) for t in pon),
                )
            )
            return
        assert meld.called is not None
        target = (who + meld.from_rel) % 4
        if self.n == 3 and target == 3:
            raise ValueError(f"{meld.kind} from the empty fourth seat")
        own = [t for t in meld.tiles if t != meld.called]
        pai = self.tile(meld.called)
        assert self.round is not None
        last = next(e for e in reversed(self.round) if e.type != "reach_accepted")
        same = last.pai is not None and T.kind_of(last.pai) == T.kind_of(pai)
        if last.type != "dahai" or last.actor != target or not same:
            raise ValueError(f"{meld.kind} by seat {who} follows no discard by seat {target}")
        self.emit(
            Event(
                meld.kind,
                actor=who,
                target=target,
                pai=pai,
                consumed=canonical(self.tile(t) for t in own),
            )
        )

    def deltas(self, a: dict[str, str]) -> tuple[int, ...]:
        sc = _ints(a.get("sc"), "sc")
        if len(sc) < 2 * self.n:
            raise ValueError("sc has too few numbers")
        return tuple(sc[2 * i + 1] * 100 for i in range(self.n))

    def agari(self, a: dict[str, str]) -> None:
        who = self.seat(a.get("who"))
        from_who = self.seat(a.get("fromWho"))
        ten = _ints(a.get("ten"), "ten")
        if len(ten) < 2:
            raise ValueError("ten has too few numbers")
        yaku: list[tuple[str, int]] = []
        if "yaku" in a:
            pairs = _ints(a["yaku"], "yaku")
            if len(pairs) % 2:
                raise ValueError("yaku has an odd number of entries")
            for i in range(0, len(pairs), 2):
                if pairs[i + 1]:
                    yaku.append((YAKU_NAMES[pairs[i]], pairs[i + 1]))
        if "yakuman" in a:
            for y in _ints(a["yakuman"], "yakuman"):
                yaku.append((YAKU_NAMES[y], YAKUMAN_HAN))
        ura = tuple(self.tile(t) for t in _ints(a.get("doraHaiUra", ""), "doraHaiUra"))
        pao = self.seat(a["paoWho"]) if "paoWho" in a else None
        machi = _ints(a.get("machi"), "machi")
        if len(machi) != 1:
            raise ValueError("machi must be one tile")
        self.emit(
            Event(
                "hora",
                actor=who,
                target=from_who,
                pai=self.tile(machi[0]),
                deltas=self.deltas(a),
                ura_markers=ura,
                han=sum(h for _, h in yaku),
                fu=ten[0],
                yaku=tuple(yaku),
                pao=pao,
            )
        )
        for k in ("chip", "ratio"):
            if k in a:
                self.game.extra.setdefault(f"agari_{k}", []).append([len(self.game.rounds), a[k]])
        self.round_closed = True
        self.finish(a)

    def ryuukyoku(self, a: dict[str, str]) -> None:
        kind = RYUUKYOKU_KINDS.get(a.get("type"))
        if kind is None:
            raise ValueError(f"unknown RYUUKYOKU type {a.get('type')!r}")
        if "sc" not in a:
            raise _Truncation("RYUUKYOKU without scores (the game was cut off)")
        shown: list[tuple[int, ...] | None] = []
        actor = None
        for s in range(self.n):
            h = a.get(f"hai{s}")
            shown.append(None if h is None else canonical(self.tile(t) for t in _ints(h, "hai")))
            if h is not None and kind == "nine_terminals":
                actor = s
        # Which seats showed their hand is not carried by tenhou.net/6 for these two kinds, so
        # it is not kept at all (the hands themselves follow from the events).
        keep = kind not in ("nagashi_mangan", "triple_ron")
        tehais = tuple(shown) if keep and any(h is not None for h in shown) else ()
        self.emit(Event("ryukyoku", actor=actor, deltas=self.deltas(a), kind=kind, tehais=tehais))
        if "ratio" in a:
            self.game.extra.setdefault("ryuukyoku_ratio", []).append(
                [len(self.game.rounds), a["ratio"]]
            )
        self.round_closed = True
        self.finish(a)

    def finish(self, a: dict[str, str]) -> None:
        if "owari" in a:
            ow = _nums(a["owari"])
            if len(ow) < 2 * self.n:
                raise _Truncation("owari without final scores (the game was cut off)")
            self.game.final_scores = tuple(round(ow[2 * i] * 100) for i in range(self.n))
            self.game.final_points = tuple(ow[2 * i + 1] for i in range(self.n))
            self.close_round()
            self.ended = True

    def un(self, a: dict[str, str]) -> None:
        names = [a.get(f"n{i}") for i in range(4)]
        if "dan" in a:
            self.game.names = tuple(unquote(n or "") for n in names[: self.n])
            self.game.dan = tuple(_ints(a["dan"], "dan")[: self.n])
            self.game.rates = tuple(_nums(a.get("rate", ""))[: self.n])
            self.game.sexes = tuple(a.get("sx", "").split(",")[: self.n]) if a.get("sx") else ()
            for k in ("gold", "rc"):
                if k in a:
                    self.game.extra.setdefault("un", {})[k] = a[k]
        else:
            for i, n in enumerate(names):
                if n is not None:
                    self.game.extra.setdefault("reconnects", []).append(
                        [len(self.game.rounds), self.position(), i]
                    )


class _Truncation(Exception):
    """Internal: the record ends early at this point."""


def parse_mjlog(text: str, source: str = "<memory>", *, strict: bool = True) -> Game:
    """Parse mjlog XML text.  ``strict=False`` returns the complete rounds of a cut-off record
    with ``Game.truncated`` set instead of raising :class:`RecordTruncatedError`."""
    try:
        root = fromstring(text, forbid_dtd=True)
    except ParseError as exc:
        line, col = getattr(exc, "position", (0, 0))
        raise RecordSyntaxError(f"malformed XML: {exc.msg if hasattr(exc, 'msg') else exc}",
                                source, f"line {line}, column {col}") from exc
    except (DefusedXmlException, ValueError) as exc:
        raise RecordSyntaxError(f"refused XML: {exc}", source) from exc
    if root.tag != "mjloggm":
        raise RecordContentError(f"root element is <{root.tag}>, expected <mjloggm>", source)
    r = _Reader(source, strict)
    r.game.extra["ver"] = root.attrib.get("ver")
    truncated: str | None = None
    for i, el in enumerate(root):
        where = f"round {len(r.game.rounds)}, element {i} <{el.tag}>"
        try:
            r.element(el)
        except _Truncation as exc:
            truncated = f"{exc} ({where})"
            break
        except RecordError:
            raise
        except (ValueError, KeyError, IndexError, TypeError, AssertionError) as exc:
            shown = " ".join(f'{k}="{v}"' for k, v in el.attrib.items())[:160]
            raise RecordContentError(in_record_terms(exc, f"<{el.tag} {shown}>"), source,
                                     where) from exc
    if truncated is None and not r.ended:
        truncated = (
            "the game has no final result (no owari)"
            if r.round is None or r.round_closed
            else f"round {len(r.game.rounds)} has no end (no AGARI or RYUUKYOKU)"
        )
    if truncated is not None and r.round_closed:
        r.close_round()
    if truncated is not None:
        if strict:
            raise RecordTruncatedError(f"record is truncated: {truncated}", source)
        r.game.truncated = True
        r.game.extra["truncation"] = truncated
    return r.game
