"""A spectator's view of a Riichi game, rebuilt from its events alone, and its terminal picture.

``tenpai demo`` shows one game as it is played.  The view is kept from the public event stream
(with every starting hand visible, as a spectator behind all players sees it), not from engine
internals, so the same code can show a game read from a record or one arriving over a protocol;
a test checks it against the engine's own hands after every step.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from rich.console import Group, RenderableType
from rich.text import Text

from tenpai import tiles as T
from tenpai.events import Event

__all__ = ["Spectator", "tile_text"]

_WINDS: Final = "ESWN"
_WINDS_JA: Final = "東南西北"
_HONORS: Final = "東南西北白發中"
_SUIT_STYLE: Final = ("red", "cyan", "green")
#: tiles drawn from the live wall in a four-player hand (136 − 14 dead wall − 4 × 13 dealt)
_LIVE_WALL: Final = 70
#: narration lines kept under the table
_LOG_LINES: Final = 6


def tile_text(tile: int) -> Text:
    """One tile as coloured text: ``5m`` in the suit's colour, a red five as ``0m``, honors as
    their kanji (a spectator reads 東 faster than ``1z``)."""
    kind = T.kind_of(tile)
    if kind < 0:
        return Text("花", style="magenta")
    if T.is_honor(kind):
        return Text(_HONORS[kind - 27], style="bold")
    digit = "0" if T.is_red(tile) else str(T.number_of(kind))
    return Text(digit + "mps"[T.suit_of(kind)], style=_SUIT_STYLE[T.suit_of(kind)])


def _tiles_text(tiles: Sequence[int], *, sort: bool = True) -> Text:
    """Tiles grouped the way players write them: ``40678m 78p 345s 北北``."""
    ordered = sorted(tiles, key=lambda t: (T.kind_of(t), t)) if sort else list(tiles)
    out = Text()
    group: list[int] = []
    for i, t in enumerate(ordered):
        group.append(t)
        nxt = ordered[i + 1] if i + 1 < len(ordered) else None
        if nxt is None or _suit(nxt) != _suit(t):
            out.append(" " if out else "")
            out.append_text(_group_text(group))
            group = []
    return out


def _suit(tile: int) -> int:
    kind = T.kind_of(tile)
    return 3 if kind < 0 or T.is_honor(kind) else T.suit_of(kind)


def _group_text(group: Sequence[int]) -> Text:
    if _suit(group[0]) == 3:
        return Text("").join(tile_text(t) for t in group)
    suit = _suit(group[0])
    digits = "".join("0" if T.is_red(t) else str(T.number_of(T.kind_of(t))) for t in group)
    return Text(digits + "mps"[suit], style=_SUIT_STYLE[suit])


@dataclass(slots=True)
class _River:
    tile: int
    tsumogiri: bool
    riichi: bool = False
    called: bool = False


@dataclass(slots=True)
class _Seat:
    hand: list[int] = field(default_factory=list)
    drawn: int | None = None
    melds: list[tuple[str, tuple[int, ...], int | None]] = field(default_factory=list)
    river: list[_River] = field(default_factory=list)
    riichi: bool = False
    declaring: bool = False
    north: int = 0

    def settle_drawn(self) -> None:
        """Move the drawn tile into the hand (before a discard, kan or win uses the hand)."""
        if self.drawn is not None:
            self.hand.append(self.drawn)
            self.drawn = None

    def take(self, tile: int) -> None:
        """Remove ``tile`` from the hand; a copy of the same kind if the exact code is not there
        (records that do not say which five was red)."""
        self.settle_drawn()
        if tile in self.hand:
            self.hand.remove(tile)
            return
        kind = T.kind_of(tile)
        for t in self.hand:
            if T.kind_of(t) == kind:
                self.hand.remove(t)
                return
        raise ValueError(f"tile {T.to_mjai(tile)} is not in the hand {T.to_compact(self.hand)}")


class Spectator:
    """The table as a spectator sees it: every hand, river, meld and score, from events."""

    def __init__(self, names: Sequence[str] = ()) -> None:
        self.names = list(names)
        self.players = 4
        self.seats = [_Seat() for _ in range(4)]
        self.scores: list[int] = []
        self.bakaze = 0
        self.kyoku = 0
        self.honba = 0
        self.kyotaku = 0
        self.oya = 0
        self.dora_markers: list[int] = []
        self.wall_left = _LIVE_WALL
        self.log: list[Text] = []
        self.hand_over = False
        self.game_over = False

    # ------------------------------------------------------------------ events
    def apply(self, e: Event) -> None:
        """Take one event into the view (every type is accepted; unknown ones change nothing)."""
        handler = getattr(self, f"_on_{e.type}", None)
        if handler is not None:
            handler(e)

    def _name(self, seat: int | None) -> str:
        if seat is None:
            return "?"
        wind = _WINDS[(seat - self.oya) % len(self.seats)]
        name = self.names[seat] if seat < len(self.names) else f"seat {seat}"
        return f"{wind}:{name}"

    def _say(self, *parts: str | Text) -> None:
        self.log.append(Text.assemble(*parts))
        del self.log[:-_LOG_LINES]

    def _on_start_game(self, e: Event) -> None:
        if e.names:
            self.names = list(e.names)

    def _on_start_kyoku(self, e: Event) -> None:
        self.players = sum(1 for h in e.tehais if h is not None) or 4
        self.seats = [_Seat(hand=list(h or ())) for h in e.tehais] or [_Seat() for _ in range(4)]
        self.bakaze = e.bakaze or 0
        self.kyoku = e.kyoku or 0
        self.honba = e.honba or 0
        self.kyotaku = e.kyotaku or 0
        self.oya = e.oya if e.oya is not None else self.kyoku
        self.scores = list(e.scores) if e.scores else self.scores or [25_000] * len(self.seats)
        self.dora_markers = [e.dora_marker] if e.dora_marker is not None else []
        # three players deal 39 tiles from a 108-tile wall: 108 − 14 − 39 = 55 live tiles
        self.wall_left = _LIVE_WALL if len(self.seats) == 4 else 55
        self.hand_over = False
        self._say(Text(f"— {self.round_name()} —", style="bold"))

    def _on_tsumo(self, e: Event) -> None:
        assert e.actor is not None and e.pai is not None
        self.seats[e.actor].drawn = e.pai
        self.wall_left -= 1

    def _on_dahai(self, e: Event) -> None:
        assert e.actor is not None and e.pai is not None
        seat = self.seats[e.actor]
        seat.take(e.pai)
        seat.river.append(_River(e.pai, bool(e.tsumogiri), riichi=seat.declaring))
        seat.declaring = False

    def _on_reach(self, e: Event) -> None:
        assert e.actor is not None
        self.seats[e.actor].declaring = True
        self._say(Text(self._name(e.actor)), Text(" declares riichi", style="yellow"))

    def _on_reach_accepted(self, e: Event) -> None:
        assert e.actor is not None
        self.seats[e.actor].riichi = True
        if e.scores:
            self.scores = list(e.scores)
        else:
            self.scores[e.actor] -= 1000
        self.kyotaku += 1

    def _call(self, e: Event) -> None:
        assert e.actor is not None
        seat = self.seats[e.actor]
        for t in e.consumed:
            seat.take(t)
        tiles = tuple(e.consumed) + ((e.pai,) if e.pai is not None else ())
        if e.target is not None and e.target != e.actor and self.seats[e.target].river:
            self.seats[e.target].river[-1].called = True
        seat.melds.append((e.type, tiles, e.target if e.target != e.actor else None))
        verb = {"daiminkan": "kan", "ankan": "closed kan"}.get(e.type, e.type)
        self._say(Text(self._name(e.actor)), Text(f" {verb} "), _tiles_text(tiles))

    _on_chi = _call
    _on_pon = _call
    _on_daiminkan = _call
    _on_ankan = _call

    def _on_kakan(self, e: Event) -> None:
        assert e.actor is not None and e.pai is not None
        seat = self.seats[e.actor]
        seat.take(e.pai)
        kind = T.kind_of(e.pai)
        for i, (typ, tiles, source) in enumerate(seat.melds):
            if typ == "pon" and T.kind_of(tiles[0]) == kind:
                seat.melds[i] = ("kakan", (*tiles, e.pai), source)
                break
        self._say(Text(self._name(e.actor)), Text(" adds a kan "), tile_text(e.pai))

    def _on_nukidora(self, e: Event) -> None:
        assert e.actor is not None and e.pai is not None
        self.seats[e.actor].take(e.pai)
        self.seats[e.actor].north += 1

    def _on_dora(self, e: Event) -> None:
        if e.dora_marker is not None:
            self.dora_markers.append(e.dora_marker)

    def _settle(self, deltas: Sequence[int]) -> None:
        if deltas and len(deltas) == len(self.scores):
            self.scores = [s + d for s, d in zip(self.scores, deltas, strict=True)]
        self.hand_over = True

    def _on_hora(self, e: Event) -> None:
        assert e.actor is not None
        self.seats[e.actor].settle_drawn()
        how = "tsumo" if e.target in (None, e.actor) else f"ron off {self._name(e.target)}"
        gain = max(e.deltas) if e.deltas else 0
        yaku = ", ".join(f"{name} {han}" for name, han in e.yaku if han)
        value = f"{e.han} han {e.fu} fu" if e.han is not None and e.fu is not None else ""
        self._say(
            Text(self._name(e.actor)),
            Text(f" wins by {how}: +{gain:,}", style="bold green"),
            Text(f"  {value}  {yaku}".rstrip(), style="dim"),
        )
        self._settle(e.deltas)
        self.kyotaku = 0  # the sticks go to the winner

    def _on_ryukyoku(self, e: Event) -> None:
        reason = f" ({e.kind})" if e.kind else ""
        tenpai = [self._name(s) for s, d in enumerate(e.deltas) if d > 0] if e.deltas else []
        tail = f"; tenpai: {', '.join(tenpai)}" if tenpai else ""
        self._say(Text(f"draw{reason}{tail}", style="bold"))
        self._settle(e.deltas)

    def _on_end_game(self, e: Event) -> None:
        if e.scores:
            self.scores = list(e.scores)
        self.game_over = True

    # ------------------------------------------------------------------ picture
    def round_name(self) -> str:
        return f"{['East', 'South', 'West', 'North'][self.bakaze % 4]} {self.kyoku + 1}"

    def render(self) -> RenderableType:
        """The whole table: a header line, one block per seat, the latest happenings."""
        header = Text.assemble(
            Text(self.round_name(), style="bold"),
            f" · {self.honba} honba · {self.kyotaku} riichi sticks · {self.wall_left} tiles left"
            " · dora indicators ",
            _tiles_text(self.dora_markers, sort=False),
        )
        blocks: list[RenderableType] = [header, Text("")]
        for s, seat in enumerate(self.seats):
            blocks.extend(self._seat_lines(s, seat))
        blocks.append(Text(""))
        blocks.extend(self.log)
        return Group(*blocks)

    def _seat_lines(self, s: int, seat: _Seat) -> list[Text]:
        wind = _WINDS_JA[(s - self.oya) % len(self.seats)]
        score = f"{self.scores[s]:>7,}" if s < len(self.scores) else ""
        title = Text.assemble(
            Text(f"{wind} ", style="bold"),
            Text(f"{self._short_name(s):<14}"),
            score,
            Text("  RIICHI", style="bold yellow") if seat.riichi else "",
            Text(f"  north×{seat.north}", style="magenta") if seat.north else "",
        )
        hand = Text("   hand  ").append_text(_tiles_text(seat.hand))
        if seat.drawn is not None:
            hand.append("  + ").append_text(tile_text(seat.drawn))
        for typ, tiles, source in seat.melds:
            hand.append(f"   [{typ} ")
            hand.append_text(_tiles_text(tiles))
            if source is not None:
                hand.append(f" ←{_WINDS[(source - self.oya) % len(self.seats)]}")
            hand.append("]")
        river = Text("   river ")
        for r in seat.river:
            style = "strike dim" if r.called else ("dim" if r.tsumogiri else "")
            if r.riichi:
                style += " reverse"
            text = tile_text(r.tile)
            if style:
                text.stylize(style.strip())
            river.append_text(text)
            river.append(" ")
        return [title, hand, river]

    def _short_name(self, seat: int) -> str:
        name = self.names[seat] if seat < len(self.names) else f"seat {seat}"
        return name if len(name) <= 14 else name[:13] + "…"
