"""Botzone / IJCAI MCR text records ↔ :class:`Game` (one hand per match, many per file).

Seats 0-3 are East, South, West, North and ``Wind`` 0-3 the prevalent wind in the same order
(the format's README says E, N, W, S, but fan totals and scores only reproduce this way).
``Chi XX`` names the middle tile of the chow.  ``Ignore Player …`` parts are claims that lost
on priority: they are kept in ``meta["ignored"]`` of the winning claim's event so a writer can
reproduce the line.  ``Fan`` gives the fan names (values from :mod:`tenpai.records.mcr_fans`),
``Score`` the point changes (``hora.deltas`` / ``ryukyoku.deltas``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.records.common import canonical
from tenpai.records.errors import (
    RecordContentError,
    RecordError,
    RecordTruncatedError,
    in_record_terms,
)
from tenpai.records.game import Game, RuleFlags
from tenpai.records.mcr_fans import FAN_VALUES
from tenpai.records.source import DEFAULT_MAX_BYTES, read_text, write_text_atomic

__all__ = [
    "games_to_botzone_text",
    "parse_botzone_text",
    "read_botzone_text",
    "write_botzone_text",
]


def read_botzone_text(
    path: str | Path, *, strict: bool = True, max_bytes: int = DEFAULT_MAX_BYTES
) -> list[Game]:
    return parse_botzone_text(read_text(path, max_bytes), str(path), strict=strict)


class _Match:
    def __init__(self, source: str, match_id: str) -> None:
        self.game = Game(source=source, format="botzone_text",
                         rules=RuleFlags(variant="mcr", players=4, red_fives=False))
        self.game.extra["match"] = match_id
        self.events: list[Event] = []
        self.wind: int | None = None
        self.hands: list[tuple[int, ...] | None] = [None] * 4
        self.last_draw: list[int | None] = [None] * 4
        self.fan: tuple[int, tuple[tuple[str, int], ...]] | None = None
        self.done = False

    def started(self) -> bool:
        return bool(self.events)

    def start(self) -> None:
        if self.wind is None or any(h is None for h in self.hands):
            raise ValueError("play begins before Wind and four Deal lines")
        self.events.append(
            Event("start_kyoku", bakaze=self.wind, kyoku=0, honba=0, kyotaku=0, oya=0,
                  tehais=tuple(self.hands))
        )

    def last_play(self) -> Event:
        for e in reversed(self.events):
            if e.type in ("dahai", "kakan", "tsumo"):
                return e
        raise ValueError("claim without a preceding discard")

    def action(self, seat: int, verb: str, tile: int, ignored: list[list[Any]]) -> None:
        if not self.started():
            self.start()
        meta: dict[str, Any] | None = {"ignored": ignored} if ignored else None
        if verb == "Draw":
            self.events.append(Event("tsumo", actor=seat, pai=tile))
            self.last_draw[seat] = tile
            return
        if verb == "Play":
            ev = Event("dahai", actor=seat, pai=tile, tsumogiri=self.last_draw[seat] == tile)
            self.last_draw[seat] = None
            self.events.append(ev)
            return
        if verb not in ("AnGang", "BuGang", "Hu"):
            self.last_draw[seat] = None
        if verb in ("Chi", "Peng", "Gang"):
            last = self.last_play()
            if last.type != "dahai" or last.actor == seat:
                raise ValueError(f"{verb} by player {seat} does not follow another's discard")
            assert last.pai is not None and last.actor is not None
            if verb == "Chi":
                k = T.kind_of(tile)
                if k >= 27 or k % 9 in (0, 8):
                    raise ValueError(f"Chi middle tile {T.to_botzone(tile)} cannot be a middle")
                run = [tile - 1, tile, tile + 1]
                if last.pai not in run:
                    raise ValueError("Chi does not use the discarded tile")
                run.remove(last.pai)
                typ, consumed = "chi", tuple(run)
                pai = last.pai
            else:
                if tile != last.pai:
                    raise ValueError(f"{verb} names {T.to_botzone(tile)}, the discard differs")
                typ = "pon" if verb == "Peng" else "daiminkan"
                consumed = (tile,) * (2 if verb == "Peng" else 3)
                pai = tile
            self.events.append(Event(typ, actor=seat, target=last.actor, pai=pai,  # type: ignore[arg-type]
                                     consumed=canonical(consumed), meta=meta))
        elif verb == "AnGang":
            self.events.append(Event("ankan", actor=seat, consumed=(tile,) * 4, meta=meta))
        elif verb == "BuGang":
            self.events.append(Event("kakan", actor=seat, pai=tile, consumed=(tile,) * 3,
                                     meta=meta))
        elif verb == "Hu":
            last = self.last_play()
            target = seat if last.type == "tsumo" and last.actor == seat else last.actor
            if target == seat and last.pai is not None and last.pai != tile:
                # Some simulators print the last discard on a self-drawn Hu line; the winning
                # tile is the one drawn.  The printed tile is kept so the line can be rewritten.
                meta = {**(meta or {}), "printed_tile": T.to_botzone(tile)}
                tile = last.pai
            self.events.append(Event("hora", actor=seat, target=target, pai=tile, meta=meta))
        else:
            raise ValueError(f"unknown action {verb!r}")

    def finish(self, deltas: tuple[int, ...]) -> None:
        if not self.started():
            self.start()
        last = self.events[-1]
        if last.type == "hora":
            if self.fan is None:
                raise ValueError("a Hu without a Fan line")
            total, yaku = self.fan
            self.events[-1] = last.with_(deltas=deltas, han=total, yaku=yaku)
        else:
            self.events.append(Event("ryukyoku", deltas=deltas, kind="exhaustive"))
        self.events.append(Event("end_kyoku"))
        self.game.rounds.append(self.events)
        self.game.final_scores = deltas
        self.done = True


def _fan(parts: list[str]) -> tuple[int, tuple[tuple[str, int], ...]]:
    total = int(parts[1])
    yaku: list[tuple[str, int]] = []
    for item in " ".join(parts[2:]).split("+") if len(parts) > 2 else []:
        name, _, count = item.partition("*")
        name = name.strip()
        if name not in FAN_VALUES:
            raise ValueError(f"unknown fan {name!r}")
        yaku.append((name, FAN_VALUES[name] * int(count or "1")))
    if yaku and sum(v for _, v in yaku) != total:
        raise ValueError(f"fans add up to {sum(v for _, v in yaku)}, the line says {total}")
    return total, tuple(yaku)


def parse_botzone_text(text: str, source: str = "<memory>", *, strict: bool = True) -> list[Game]:
    """All matches in a Botzone text file, one :class:`Game` each."""
    games: list[Game] = []
    m: _Match | None = None

    def close(ln: int) -> None:
        if m is not None and not m.done:
            if strict:
                raise RecordTruncatedError(
                    f"match {m.game.extra['match']} has no Score line", source, f"line {ln}")
            m.game.truncated = True
            games.append(m.game)

    ln = 0
    for ln, raw in enumerate(text.splitlines(), 1):
        parts = raw.split()
        if not parts:
            continue
        where = f"line {ln}"
        try:
            head = parts[0]
            if head == "Match":
                close(ln)
                m = _Match(source, parts[1] if len(parts) > 1 else "")
                continue
            if m is None:
                raise ValueError(f"{head!r} before the first Match line")
            if m.done:
                raise ValueError(f"{head!r} after the Score line")
            if head == "Wind":
                m.wind = int(parts[1]) % 4 if 0 <= int(parts[1]) < 4 else int("x")
            elif head == "Player":
                seat = int(parts[1])
                if not 0 <= seat < 4:
                    raise ValueError(f"player {seat} out of range")
                verb = parts[2]
                if verb == "Deal":
                    tiles = T.parse_botzone(" ".join(parts[3:]))
                    if len(tiles) != 13:
                        raise ValueError(f"Deal of {len(tiles)} tiles")
                    m.hands[seat] = canonical(tiles)
                    continue
                tile = T.from_botzone(parts[3])
                ignored: list[list[Any]] = []
                rest = parts[4:]
                while rest:
                    if len(rest) < 5 or rest[0] != "Ignore" or rest[1] != "Player":
                        raise ValueError(f"unreadable trailing text {' '.join(rest)!r}")
                    ignored.append([int(rest[2]), rest[3], rest[4]])
                    T.from_botzone(rest[4])
                    rest = rest[5:]
                m.action(seat, verb, tile, ignored)
            elif head == "Fan":
                m.fan = _fan(parts)
            elif head == "Huang":
                if not m.started():
                    m.start()
            elif head == "Score":
                deltas = tuple(int(x) for x in parts[1:])
                if len(deltas) != 4:
                    raise ValueError("Score needs four numbers")
                m.finish(deltas)
                games.append(m.game)
            else:
                raise ValueError(f"unknown line type {head!r}")
        except RecordError:
            raise
        except (ValueError, IndexError, KeyError, TypeError, AssertionError) as exc:
            raise RecordContentError(in_record_terms(exc, repr(raw.strip()[:120])), source,
                                     where) from exc
    close(ln + 1)
    return games


def _verb_line(e: Event) -> str:
    assert e.actor is not None
    p = f"Player {e.actor}"
    tile = e.pai
    if e.type == "tsumo":
        out = f"{p} Draw {T.to_botzone(tile or 0)}"
    elif e.type == "dahai":
        out = f"{p} Play {T.to_botzone(tile or 0)}"
    elif e.type == "chi":
        mid = sorted([*e.consumed, tile or 0])[1]
        out = f"{p} Chi {T.to_botzone(mid)}"
    elif e.type == "pon":
        out = f"{p} Peng {T.to_botzone(tile or 0)}"
    elif e.type == "daiminkan":
        out = f"{p} Gang {T.to_botzone(tile or 0)}"
    elif e.type == "ankan":
        out = f"{p} AnGang {T.to_botzone(e.consumed[0])}"
    elif e.type == "kakan":
        out = f"{p} BuGang {T.to_botzone(tile or 0)}"
    elif e.type == "hora":
        printed = (e.meta or {}).get("printed_tile")
        out = f"{p} Hu {printed if isinstance(printed, str) else T.to_botzone(tile or 0)}"
    else:
        raise ValueError(f"event {e.type} has no Botzone text form")
    for seat, verb, t in (e.meta or {}).get("ignored", []):
        out += f" Ignore Player {seat} {verb} {t}"
    return out


def games_to_botzone_text(games: list[Game]) -> str:
    """Botzone text of some one-hand MCR games."""
    lines: list[str] = []
    for gi, g in enumerate(games):
        if len(g.rounds) != 1:
            raise RecordContentError("a Botzone match holds exactly one hand", g.source,
                                     f"game {gi}")
        ev = g.rounds[0]
        sk = ev[0]
        lines.append(f"Match {g.extra.get('match', gi)}")
        lines.append(f"Wind {sk.bakaze or 0}")
        for s, h in enumerate(sk.tehais):
            lines.append(f"Player {s} Deal " + " ".join(T.to_botzone(t) for t in h or ()))
        end: list[str] = []
        for e in ev[1:]:
            if e.type == "hora":
                lines.append(_verb_line(e))
                fans = "+".join(
                    f"{n}*{v // FAN_VALUES.get(n, v or 1) if FAN_VALUES.get(n) else 1}"
                    for n, v in e.yaku
                )
                end = [f"Fan {e.han or 0} {fans}".rstrip(), "Score " + " ".join(map(str, e.deltas))]
            elif e.type == "ryukyoku":
                end = ["Huang", "Score " + " ".join(map(str, e.deltas or (0, 0, 0, 0)))]
            elif e.type in ("end_kyoku", "none"):
                continue
            else:
                lines.append(_verb_line(e))
        lines += end
        lines.append("")
    return "\n".join(lines)


def write_botzone_text(games: list[Game], path: str | Path) -> None:
    write_text_atomic(path, games_to_botzone_text(games))
