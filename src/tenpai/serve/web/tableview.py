"""Follow an event stream and draw the table as plain JSON for the browser.

Play, replay and review all show the same picture: hands, melds, rivers, dora markers, scores
and the results of the hand.  The browser never interprets events itself; it is handed one
snapshot per step, built here from events alone.  That keeps the client simple and means the
client only ever learns what the events given to :class:`TableView` contain — during play that
is the human seat's masked stream (:func:`tenpai.engine.observation.mask_event`), so hidden
hands stay hidden because they are simply not known here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.serve.web.labels import is_fan, limit_name, seat_labels, yaku_label

__all__ = ["LIVE_WALL", "SeatState", "TableView", "describe_result", "live_wall_for"]

_CALLS = frozenset({"chi", "pon", "daiminkan"})
#: Events after which the seat that made them is the one "on turn" (lit on the table).
_TURN_EVENTS = frozenset({"tsumo", "dahai", "reach", "chi", "pon", "daiminkan", "ankan",
                          "kakan", "flower", "nukidora"})
#: Tiles a hand can draw after the deal, by rule set: the page shows "tiles left" from it.
#: Riichi keeps a 14-tile dead wall (kan draws come from it and it is topped up from the live
#: wall, so every draw counts); MCR and the 108-tile game draw the whole wall.
LIVE_WALL: dict[str, int] = {"riichi": 136 - 14 - 52, "mcr": 144 - 52, "suits108": 108 - 52}
#: Three-player Riichi (2m-8m taken out): 108 tiles, a dead wall of 14, three hands of 13.
_LIVE_WALL_SANMA = 108 - 14 - 39


def live_wall_for(rules: str, players: int) -> int | None:
    """The draws after the deal of a rule set at ``players`` seats (``None`` when unknown)."""
    if rules == "riichi" and players == 3:
        return _LIVE_WALL_SANMA
    return LIVE_WALL.get(rules)


@dataclass(slots=True)
class SeatState:
    """One seat as the viewer knows it; ``hand`` is ``None`` when the tiles are hidden."""

    hand: list[int] | None = None
    hidden: int = 0
    drawn: int | None = None
    melds: list[dict[str, Any]] = field(default_factory=list)
    river: list[dict[str, Any]] = field(default_factory=list)
    flowers: list[int] = field(default_factory=list)
    riichi: bool = False
    declaring: bool = False

    def count(self) -> int:
        return len(self.hand) if self.hand is not None else self.hidden

    def add(self, tile: int | None) -> None:
        if self.hand is not None and tile is not None:
            self.hand.append(tile)
        elif self.hand is not None:
            # A hidden draw into a known hand cannot happen in a consistent stream; count it.
            self.hidden += 1
        else:
            self.hidden += 1

    def remove(self, tile: int) -> None:
        if self.hand is not None and tile in self.hand:
            self.hand.remove(tile)
        elif self.hand is not None and T.kind_of(tile) in [T.kind_of(t) for t in self.hand]:
            # Records sometimes write a red five as a plain five (or back); match by kind.
            k = T.kind_of(tile)
            self.hand.remove(next(t for t in self.hand if T.kind_of(t) == k))
        elif self.hidden > 0:
            self.hidden -= 1

    def as_json(self) -> dict[str, Any]:
        hand = None if self.hand is None else sorted(self.hand, key=_sort_key)
        if hand is not None and self.drawn is not None and self.drawn in hand:
            hand.remove(self.drawn)
            hand.append(self.drawn)
        return {
            "hand": hand,
            "count": self.count(),
            "drawn": self.drawn is not None,
            "melds": [dict(m) for m in self.melds],
            "river": [dict(r) for r in self.river],
            "flowers": list(self.flowers),
            "riichi": self.riichi,
        }


def _sort_key(tile: int) -> tuple[int, int]:
    return (T.kind_of(tile), 1 if T.is_red(tile) else 0)


def describe_result(
    e: Event, names: list[str], *, seat_wind: int = 0, round_wind: int = 0,
    melds: list[dict[str, Any]] | None = None, dora: list[int] | None = None,
) -> dict[str, Any]:
    """A hand's end for the result panel: who won or why it was drawn, points, yaku, han, fu.

    ``yaku_labels`` carries each yaku's English and native name (the page offers both);
    ``limit`` names the limit reached (Mangan...) for Riichi hands, "" otherwise.
    """
    out: dict[str, Any] = {"type": e.type, "deltas": list(e.deltas)}
    if e.type == "hora":
        labels = [{**yaku_label(n, seat_wind, round_wind), "han": v} for n, v in e.yaku]
        riichi = all(lb["en"] != lb["native"] and not is_fan(n) for lb, (n, _) in
                     zip(labels, e.yaku))
        out.update(
            yaku_labels=labels,
            limit=limit_name(e.han, e.fu, list(e.yaku)) if riichi and e.yaku else "",
            unit="han" if riichi else "fan" if any(is_fan(n) for n, _ in e.yaku) else "",
            melds=[dict(m) for m in (melds or [])],
            dora=list(dora or []),
            seat_wind=seat_wind,
            actor=e.actor,
            target=e.target,
            tsumo=e.actor == e.target,
            pai=e.pai,
            han=e.han,
            fu=e.fu,
            yaku=[[n, v] for n, v in e.yaku],
            hand=list(e.hora_tehais),
            ura=list(e.ura_markers),
            who=_name(names, e.actor),
            source=_name(names, e.target),
        )
    else:
        out.update(kind=e.kind or "exhaustive")
        shown = [list(h) if h is not None else None for h in e.tehais] if e.tehais else []
        out["hands"] = shown
    return out


def _name(names: list[str], seat: int | None) -> str:
    if seat is None:
        return ""
    return names[seat] if seat < len(names) and names[seat] else f"seat {seat}"


class TableView:
    """The table after every event applied so far, as one viewer knows it.

    Unknown tiles (another seat's draw in a masked stream) are counted, never invented.
    ``players`` maps table positions to player indexes when a rule set reseats players between
    hands (MCR's ``start_kyoku.meta["seating"]``).
    """

    def __init__(self, names: list[str] | None = None, live_wall: int | None = None) -> None:
        self.names: list[str] = list(names or ["", "", "", ""])
        self.live_wall = live_wall
        self.turn: int | None = None
        self.seats: list[SeatState] = [SeatState() for _ in range(4)]
        self.bakaze = 0
        self.kyoku = 0
        self.honba = 0
        self.kyotaku = 0
        self.oya = 0
        self.scores: list[int] = [0, 0, 0, 0]
        self.dora: list[int] = []
        self.draws = 0
        self.results: list[dict[str, Any]] = []
        self.players: list[int] = [0, 1, 2, 3]
        #: seats at the table: three in sanma, known from the deal (its scores)
        self.seat_count = 4
        self.last: dict[str, Any] | None = None
        self.final: list[int] | None = None
        self.started = False

    # ------------------------------------------------------------------ applying
    def apply(self, e: Event) -> None:
        """Move the picture one event on; unknown event types only update ``last``."""
        handler = getattr(self, f"_on_{e.type}", None)
        if handler is not None:
            handler(e)
        if e.type != "none":
            self.last = _public(e)
        if e.type in _TURN_EVENTS and e.actor is not None:
            self.turn = e.actor
        elif e.type in ("start_kyoku", "hora", "ryukyoku", "end_kyoku"):
            self.turn = None

    def _on_start_game(self, e: Event) -> None:
        if e.names:
            self.names = list(e.names) + [""] * (4 - len(e.names))

    def _on_start_kyoku(self, e: Event) -> None:
        self.started = True
        self.bakaze = e.bakaze or 0
        self.kyoku = e.kyoku or 0
        self.honba = e.honba or 0
        self.kyotaku = e.kyotaku or 0
        self.oya = e.oya if e.oya is not None else self.kyoku % 4
        if e.scores:
            self.scores = list(e.scores)
            self.seat_count = len(e.scores)
        self.dora = [e.dora_marker] if e.dora_marker is not None else []
        self.draws = 0
        self.results = []
        seating = (e.meta or {}).get("seating")
        self.players = [int(p) for p in seating] if seating else [0, 1, 2, 3]
        self.seats = []
        for i in range(4):
            hand = e.tehais[i] if i < len(e.tehais) else None
            if hand is None:
                self.seats.append(SeatState(hand=None, hidden=13))
            else:
                self.seats.append(SeatState(hand=list(hand)))

    def _seat(self, e: Event) -> SeatState:
        return self.seats[e.actor or 0]

    def _on_tsumo(self, e: Event) -> None:
        s = self._seat(e)
        for other in self.seats:
            other.drawn = None
        s.add(e.pai)
        s.drawn = e.pai if s.hand is not None else None
        self.draws += 1

    def _on_dahai(self, e: Event) -> None:
        s = self._seat(e)
        assert e.pai is not None
        s.remove(e.pai)
        s.drawn = None
        s.river.append(
            {"tile": e.pai, "tsumogiri": bool(e.tsumogiri), "called": False,
             "riichi": s.declaring}
        )
        s.declaring = False

    def _on_reach(self, e: Event) -> None:
        self._seat(e).declaring = True

    def _on_reach_accepted(self, e: Event) -> None:
        self._seat(e).riichi = True
        if e.scores:
            self.scores = list(e.scores)
        self.kyotaku += 1

    def _call(self, e: Event) -> None:
        s = self._seat(e)
        for t in e.consumed:
            s.remove(t)
        s.drawn = None
        if e.target is not None:
            river = self.seats[e.target].river
            if river:
                river[-1]["called"] = True
        tiles = [e.pai, *e.consumed] if e.pai is not None else list(e.consumed)
        s.melds.append({"type": e.type, "tiles": tiles, "from": e.target})

    _on_chi = _call
    _on_pon = _call
    _on_daiminkan = _call

    def _on_ankan(self, e: Event) -> None:
        s = self._seat(e)
        for t in e.consumed:
            s.remove(t)
        if not e.consumed:
            # A face-down kan in a masked stream (MCR): four unknown tiles leave the hand.
            for _ in range(4):
                s.remove(-1)
        s.drawn = None
        s.melds.append({"type": "ankan", "tiles": list(e.consumed), "from": None})

    def _on_kakan(self, e: Event) -> None:
        s = self._seat(e)
        assert e.pai is not None
        s.remove(e.pai)
        s.drawn = None
        kind = T.kind_of(e.pai)
        for m in s.melds:
            if m["type"] == "pon" and m["tiles"] and T.kind_of(m["tiles"][0]) == kind:
                m["type"] = "kakan"
                m["tiles"] = [*m["tiles"], e.pai]
                break

    def _on_dora(self, e: Event) -> None:
        if e.dora_marker is not None:
            self.dora.append(e.dora_marker)

    def _on_flower(self, e: Event) -> None:
        s = self._seat(e)
        if e.pai is not None:
            s.remove(e.pai)
            s.flowers.append(e.pai)
        s.drawn = None

    def _on_nukidora(self, e: Event) -> None:
        self._on_flower(e)

    def _on_hora(self, e: Event) -> None:
        seat = e.actor or 0
        result = describe_result(
            e, self._player_names(), seat_wind=(seat - self.oya) % self.seat_count,
            round_wind=self.bakaze, melds=self.seats[seat].melds, dora=self.dora,
        )
        known = self.seats[seat].hand
        if not result["hand"] and known is not None:
            # Some formats (mjlog) do not write the winning hand: the table still knows it.
            ron = e.actor != e.target and e.pai is not None
            result["hand"] = [*known, e.pai] if ron else list(known)
        self.results.append(result)
        self._pay(e.deltas)

    def _on_ryukyoku(self, e: Event) -> None:
        self.results.append(describe_result(e, self._player_names()))
        self._pay(e.deltas)

    def _pay(self, deltas: tuple[int, ...]) -> None:
        if deltas and len(deltas) == len(self.scores):
            self.scores = [s + d for s, d in zip(self.scores, deltas)]
            self.kyotaku = 0

    def _on_end_game(self, e: Event) -> None:
        if e.scores:
            self.final = list(e.scores)

    def _player_names(self) -> list[str]:
        """Each table position's label: repeated agent names are numbered (expert 1, 2, 3)."""
        labels = seat_labels(self.names)
        return [labels[p] if p < len(labels) else f"seat {p}" for p in self.players]

    # ------------------------------------------------------------------ output
    def snapshot(self, viewer: int | None = None) -> dict[str, Any]:
        """The picture as JSON; ``viewer`` is the table position drawn at the bottom."""
        return {
            "started": self.started,
            "names": self._player_names()[: self.seat_count],
            "bakaze": self.bakaze,
            "kyoku": self.kyoku,
            "honba": self.honba,
            "kyotaku": self.kyotaku,
            "oya": self.oya,
            "scores": list(self.scores),
            "dora": list(self.dora),
            "draws": self.draws,
            "tiles_left": (max(0, self.live_wall - self.draws)
                           if self.live_wall is not None and self.started else None),
            "turn": self.turn,
            "players": self.seat_count,
            "seats": [s.as_json() for s in self.seats[: self.seat_count]],
            "results": [dict(r) for r in self.results],
            "last": self.last,
            "final": self.final,
            "viewer": viewer if viewer is not None else 0,
        }


def _public(e: Event) -> dict[str, Any]:
    """The event as the browser shows it in the log line (tiles as codes, not names)."""
    out: dict[str, Any] = {"type": e.type}
    for key in ("actor", "target", "pai", "kind", "han", "fu"):
        value = getattr(e, key)
        if value is not None:
            out[key] = value
    if e.consumed:
        out["consumed"] = list(e.consumed)
    if e.tsumogiri is not None:
        out["tsumogiri"] = e.tsumogiri
    return out
