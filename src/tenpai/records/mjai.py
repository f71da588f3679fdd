"""mjai JSON lines ↔ :class:`Game`.

Reading accepts what real producers write: Mortal / mjai.app style logs, RiichiEnv logs with a
``meta`` object, mjai-manue logs (``logs``, ``yakus``, ``fan``, ``uradora_markers``, ``reason``)
and akochan logs (``aka_flag``, ``kyoku_first``, ``haiyama``, the singular ``uradora_marker``).
Their extra names are mapped onto our fields (``yakus``→``yaku``, ``fan``→``han``,
``uradora_markers`` (read by :meth:`Event.from_mjai`) and ``uradora_marker``→``ura_markers``,
``reason``→``kind`` through :data:`tenpai.events.MJAI_DRAW_REASONS`, which the bot's wire reader
shares); fields we have no place for are ignored.
Writing emits ``start_game``, the rounds and ``end_game``, one JSON object per line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

from tenpai import tiles as T
from tenpai.events import MJAI_DRAW_REASONS, Event, EventError
from tenpai.records.errors import (
    RecordContentError,
    RecordSyntaxError,
    RecordTruncatedError,
)
from tenpai.records.game import Game, RuleFlags
from tenpai.records.source import DEFAULT_MAX_BYTES, read_text, write_text_atomic
from tenpai.records.yaku_names import MJAI_YAKU_IDS

__all__ = ["event_to_mjai", "game_to_mjai_lines", "parse_mjai", "read_mjai", "write_mjai"]


def _normalise(obj: dict[str, Any]) -> dict[str, Any]:
    """Map other producers' field names onto ours before :meth:`Event.from_mjai`."""
    out = dict(obj)
    if "yakus" in out and "yaku" not in out:
        out["yaku"] = out.pop("yakus")
    if "fan" in out and "han" not in out:
        out["han"] = out.pop("fan")
    if "uradora_marker" in out and "ura_markers" not in out:
        out["ura_markers"] = out.pop("uradora_marker")
    if "reason" in out and "kind" not in out:
        reason = str(out.pop("reason"))
        out["kind"] = MJAI_DRAW_REASONS.get(reason, reason)
    if out.get("type") == "ryukyoku" and "kind" not in out:
        out["kind"] = "exhaustive"
    if out.get("type") == "ryukyoku" and out.get("kind") == "nine_terminals" and \
            out.get("actor") is None:
        out = _nine_terminals_declarer(out)
    if out.get("type") == "ryukyoku" and "tenpais" in out and "tehais" in out:
        tenpai = out["tenpais"]
        out["tehais"] = [h if t else ["?"] * 13 for h, t in zip(out["tehais"], tenpai)]
        if not any(tenpai):
            out.pop("tehais")
    if out.get("type") == "kita":
        # three-player North set aside; producers differ on naming the tile (pai, consumed
        # or nothing), which can only be a North
        out["type"] = "nukidora"
        out.setdefault("pai", "N")
    out.pop("logs", None)
    return out


def _nine_terminals_declarer(obj: dict[str, Any]) -> dict[str, Any]:
    """Name the declarer of nine terminals when a producer left ``actor`` out.

    The declarer is the one seat whose hand is shown (the others are hidden as ``?``); with no
    such single seat the event stays without an actor rather than guessing.
    """
    tehais = obj.get("tehais")
    if not isinstance(tehais, list):
        return obj
    shown = [s for s, h in enumerate(tehais)
             if isinstance(h, list) and h and any(t != "?" for t in h)]
    return {**obj, "actor": shown[0]} if len(shown) == 1 else obj


def read_mjai(
    path: str | Path, *, strict: bool = True, max_bytes: int = DEFAULT_MAX_BYTES
) -> Game:
    return parse_mjai(read_text(path, max_bytes), str(path), strict=strict)


def parse_mjai(text: str, source: str = "<memory>", *, strict: bool = True) -> Game:
    """Parse mjai JSON lines.  Lenient mode keeps the complete rounds of a cut-off log."""
    game = Game(source=source, format="mjai")
    current: list[Event] | None = None
    ended = False
    players = 4
    red = False
    for ln, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"line {ln}"
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise RecordSyntaxError(f"bad JSON: {exc.msg}", source, where) from exc
        if not isinstance(obj, dict):
            raise RecordContentError("an mjai line must be a JSON object", source, where)
        typ = obj.get("type")
        if typ == "start_game":
            names = obj.get("names") or []
            game.names = tuple(str(n) for n in names) if isinstance(names, list) else ()
            if "aka_flag" in obj:
                game.extra["aka_flag"] = bool(obj["aka_flag"])
            if isinstance(obj.get("kyoku_first"), int):
                game.extra["kyoku_first"] = obj["kyoku_first"]
            continue
        if typ == "end_game":
            sc = obj.get("scores")
            if isinstance(sc, list):
                try:
                    game.final_scores = tuple(int(x) for x in sc)
                except (TypeError, ValueError) as exc:
                    raise RecordContentError(f"bad end_game scores: {exc}", source, where) from exc
            ended = True
            continue
        try:
            if typ == "start_kyoku":
                _check_round_header(obj)
            ev = Event.from_mjai(_normalise(obj))
        except (EventError, ValueError, TypeError, KeyError, AttributeError) as exc:
            raise RecordContentError(str(exc), source, where) from exc
        if ev.type == "start_kyoku":
            if current is not None:
                raise RecordContentError("start_kyoku inside an unfinished round", source, where)
            current = [ev]
            players = len(ev.tehais) or players
            red = red or any(t >= 34 for h in ev.tehais if h for t in h)
            continue
        if current is None:
            raise RecordContentError(f"{ev.type} outside a round", source, where)
        if isinstance(obj.get("meta"), dict) and ev.meta is None:
            ev = ev.with_(meta=obj["meta"])
        current.append(ev)
        if ev.type == "end_kyoku":
            game.rounds.append(current)
            current = None
    truncated = None
    if current is not None:
        truncated = f"round {len(game.rounds)} has no end_kyoku"
    elif not ended:
        truncated = "no end_game"
    if truncated:
        if strict:
            raise RecordTruncatedError(f"record is truncated: {truncated}", source)
        game.truncated = True
        game.extra["truncation"] = truncated
    red = red or any(e.pai is not None and e.pai >= 34 for r in game.rounds for e in r)
    for i, rnd in enumerate(game.rounds):
        try:
            _fill_hora_tiles(rnd)
            _engine_yaku_ids(rnd)
        except ValueError as exc:
            raise RecordContentError(str(exc), source, f"round {i}") from exc
    _fill_start_scores(game.rounds, players)
    kyoku_first = game.extra.get("kyoku_first")
    game.rules = RuleFlags(
        players=players,
        red_fives=game.extra.get("aka_flag", red),
        hanchan={0: True, 4: False}.get(kyoku_first) if kyoku_first is not None else None,
    )
    return game


#: no real table comes near these; a score beyond them is a corrupt or forged header
_MAX_SCORE: Final = 10_000_000
_MAX_HONBA: Final = 999


def _check_round_header(obj: dict[str, Any]) -> None:
    """Refuse a ``start_kyoku`` no game can reach, naming the field.

    A one-round fragment is replayed from its header alone (no earlier round vouches for it), so
    scores of 1e12 or 25000.5, dealer seat 7 or 94 deposits were taken on trust.  Deposits only
    pile up over draws, each of which adds at most one stick per player and one honba, so there
    can be no more than players x honba of them.  Fields left out stay allowed (some logs omit
    them).
    """
    tehais = obj.get("tehais")
    players = len(tehais) if isinstance(tehais, list) and tehais else 4

    def whole(field: str, low: int, high: int) -> int | None:
        value = obj.get(field)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(f"start_kyoku {field} {value!r} is not a whole number "
                             f"from {low} to {high}")
        return value

    whole("kyoku", 1, 4)
    whole("oya", 0, players - 1)
    honba = whole("honba", 0, _MAX_HONBA)
    kyotaku = whole("kyotaku", 0, players * _MAX_HONBA)
    if kyotaku is not None and kyotaku > players * (honba or 0):
        raise ValueError(f"start_kyoku kyotaku {kyotaku}: {players} players leave at most "
                         f"{players * (honba or 0)} deposits over {honba or 0} honba")
    scores = obj.get("scores")
    if scores is not None:
        if not isinstance(scores, list) or len(scores) != players:
            raise ValueError(f"start_kyoku scores {scores!r} are not {players} numbers")
        for x in scores:
            if isinstance(x, bool) or not isinstance(x, int) or abs(x) > _MAX_SCORE:
                raise ValueError(f"start_kyoku scores: {x!r} is not a whole number of points "
                                 f"within ±{_MAX_SCORE:,}")


def _fill_hora_tiles(rnd: list[Event]) -> None:
    """Give each ``hora`` without ``pai`` its winning tile (akochan and RiichiEnv omit it).

    The tile is not a guess: a ron wins on the target's last discard (or the added kan tile it
    robs, or the North it set aside), a tsumo on the winner's last draw.
    """
    offered: dict[int, int] = {}
    drawn: dict[int, int] = {}
    for k, e in enumerate(rnd):
        if e.type == "tsumo" and e.actor is not None and e.pai is not None:
            drawn[e.actor] = e.pai
        elif e.type in ("dahai", "kakan", "nukidora") and e.actor is not None and e.pai is not None:
            offered[e.actor] = e.pai
        elif e.type == "hora" and e.pai is None and e.actor is not None:
            target = e.target if e.target is not None else e.actor
            src = drawn if target == e.actor else offered
            if target not in src:
                raise ValueError(f"hora of seat {e.actor} (event {k}) without a tile to win on")
            rnd[k] = e.with_(pai=src[target], target=target)


_DRAGONS: Final = (31, 32, 33)
_DRAGON_IDS: Final = ("yakuhai_haku", "yakuhai_hatsu", "yakuhai_chun")
_MELD_TYPES: Final = ("pon", "daiminkan", "ankan", "kakan")


def _engine_yaku_ids(rnd: list[Event]) -> None:
    """Give each ``hora`` written in the mjai server's yaku names the engine's ids.

    Then every writer names them in its own format and the replay checks them like any other
    record's.  ``sangenpai`` sums the dragon triplets into one entry; it becomes one yakuhai
    per dragon triplet of the winner (hand and melds), or stays as written when its han does
    not match the hand.  Names that are not the mjai server's are left alone.
    """
    dragon_melds: dict[int, set[int]] = {}
    for k, e in enumerate(rnd):
        if e.type in _MELD_TYPES and e.actor is not None:
            kinds = {T.kind_of(t) for t in (*e.consumed, *((e.pai,) if e.pai is not None else ()))}
            dragon_melds.setdefault(e.actor, set()).update(kinds & set(_DRAGONS))
        if e.type != "hora" or not any(n in MJAI_YAKU_IDS or n == "sangenpai" for n, _ in e.yaku):
            continue
        names: list[tuple[str, int]] = []
        for name, han in e.yaku:
            if name == "sangenpai":
                held = [T.kind_of(t) for t in (*e.hora_tehais, *((e.pai,) if e.pai is not None
                                                                   else ()))]
                dragons = sorted(dragon_melds.get(e.actor or 0, set())
                                 | {d for d in _DRAGONS if held.count(d) >= 3})
                if len(dragons) == han:
                    names.extend((_DRAGON_IDS[d - 31], 1) for d in dragons)
                    continue
            names.append((MJAI_YAKU_IDS.get(name, name), han))
        rnd[k] = e.with_(yaku=tuple(names))


def _fill_start_scores(rounds: list[list[Event]], players: int) -> None:
    """Supply ``start_kyoku.scores`` where the log leaves them out (mjai-manue).

    Derived from the log itself: the scores a round's ``hora``/``ryukyoku`` report afterwards
    (mjai-manue writes them) minus that round's changes, or the previous round's start plus its
    changes; only a first round with neither falls back to 25,000 each.  Riichi rounds only
    (recognised by their dora indicator): MCR rounds carry no scores at all.
    """
    prev_end: tuple[int, ...] | None = None
    for rnd in rounds:
        start = rnd[0]
        changes = [0] * players
        after: tuple[int, ...] | None = None
        for e in rnd:
            if e.type == "reach_accepted" and e.actor is not None and e.actor < players:
                changes[e.actor] -= 1000
            elif e.type in ("hora", "ryukyoku"):
                for s, d in enumerate(e.deltas[:players]):
                    changes[s] += d
                if len(e.scores) == players:
                    after = e.scores
        if not start.scores and start.dora_marker is not None:  # MCR rounds have no scores
            if after is not None:
                scores = tuple(a - c for a, c in zip(after, changes, strict=True))
            elif prev_end is not None:
                scores = prev_end
            else:
                scores = (25_000,) * players
            rnd[0] = start = start.with_(scores=scores)
        if after is not None:
            prev_end = after
        elif len(start.scores) == players:
            prev_end = tuple(s + c for s, c in zip(start.scores, changes, strict=True))


def event_to_mjai(e: Event) -> dict[str, Any]:
    """The mjai object of an event: our ``nukidora`` is mjai's ``kita`` (three players)."""
    obj = e.to_mjai()
    if e.type == "nukidora":
        obj["type"] = "kita"
    return obj


def game_to_mjai_lines(game: Game) -> list[str]:
    """One compact JSON object per event, ``start_game`` first and ``end_game`` last.

    A Riichi game's ``start_game`` also carries what the reader takes from it (mjai.app's
    fields): ``kyoku_first`` 0 for a hanchan, 4 for a tonpuu, and ``aka_flag``; without them a
    tonpuu reads back as a game of unknown length and replays as a hanchan.
    """
    objs = [event_to_mjai(e) for e in game.events()]
    r = game.rules
    if r.variant == "riichi" and objs and objs[0].get("type") == "start_game":
        if r.hanchan is not None:
            objs[0]["kyoku_first"] = 0 if r.hanchan else 4
        if r.red_fives is not None:
            objs[0]["aka_flag"] = r.red_fives
    return [json.dumps(o, ensure_ascii=False, separators=(",", ":")) for o in objs]


def write_mjai(game: Game, path: str | Path) -> None:
    write_text_atomic(path, "\n".join(game_to_mjai_lines(game)) + "\n")
