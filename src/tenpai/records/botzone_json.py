"""Botzone-style MCR judge logs (JSON, one game per line) → :class:`Game`.

A game is ``{"log": [...], "scores": [4], "quan": wind, "walltiles": "...", "seed": n}``; the
log alternates judge requests (``{"0": "…", …}`` per seat) and bot responses
(``{"0": {"verdict", "response"}, …}``).  The requests say what happened —
``1 f0 f1 f2 f3 t1…t13`` the deal, ``2 t`` a seat draws, ``3 s PLAY t`` / ``3 s CHI m t`` /
``3 s PENG t`` / ``3 s GANG`` / ``3 s BUGANG t`` an action — and the responses add what the
requests hide: the tile of a concealed kong (``GANG t``) and who declared ``HU``.
The fan list is not in the log; ``hora.han`` is recovered from the payoff formula
(self-drawn: winner +3(8+F); on a discard: winner +(24+F)), ``yaku`` stays empty.
A game ending in −30/+10 payoffs (a false win or an illegal action) gives a ``ryukyoku`` with
``kind="penalty"`` and the offender as ``actor`` (its last answer in ``meta["offence"]``).  The
dealt order of each hand is kept in ``extra["deal"]`` so that :func:`write_botzone_json` can
write the log back as it was.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.records.common import canonical
from tenpai.records.errors import (
    RecordContentError,
    RecordError,
    RecordSyntaxError,
    in_record_terms,
)
from tenpai.records.game import Game, RuleFlags
from tenpai.records.source import DEFAULT_MAX_BYTES, read_text, write_text_atomic

__all__ = [
    "botzone_json_object",
    "games_to_botzone_json",
    "parse_botzone_json",
    "read_botzone_json",
    "write_botzone_json",
]


def read_botzone_json(
    path: str | Path, *, strict: bool = True, max_bytes: int = DEFAULT_MAX_BYTES
) -> list[Game]:
    return parse_botzone_json(read_text(path, max_bytes), str(path), strict=strict)


def _game(obj: dict[str, Any], source: str, ln: int) -> Game:
    game = Game(source=source, format="botzone_json",
                rules=RuleFlags(variant="mcr", players=4, red_fives=False))
    log = obj["log"]
    scores = tuple(int(x) for x in obj["scores"])
    if len(scores) != 4:
        raise ValueError("scores must have four entries")
    quan = int(obj.get("quan", 0))
    game.extra.update({"walltiles": obj.get("walltiles"), "seed": obj.get("seed"), "line": ln})
    hands: list[tuple[int, ...] | None] = [None] * 4
    events: list[Event] = []
    last_req: dict[int, list[str]] = {}
    prev_resp: dict[str, Any] = {}
    hu: list[int] = []
    for step, entry in enumerate(log):
        if not isinstance(entry, dict):
            raise ValueError(f"log entry {step} is not an object")
        if step % 2 == 1:
            prev_resp = entry
            hu = [
                int(s) for s, v in entry.items()
                if str(v.get("response", "")).split()[:1] == ["HU"]
            ]
            continue
        reqs = {int(s): str(v).split() for s, v in entry.items()}
        if any(not 0 <= s < 4 for s in reqs):
            raise ValueError(f"log entry {step} addresses player(s) {sorted(reqs)}; "
                             "players are 0-3")
        kinds = {r[0] for r in reqs.values() if r}
        if kinds == {"0"}:
            continue
        if "1" in kinds:
            for s, r in reqs.items():
                tiles = T.parse_botzone(" ".join(r[5:]))
                if len(tiles) != 13:
                    raise ValueError(f"deal of seat {s} has {len(tiles)} tiles")
                hands[s] = canonical(tiles)
                game.extra.setdefault("deal", [[], [], [], []])[s] = r[5:]
            events.append(Event("start_kyoku", bakaze=quan % 4, kyoku=0, honba=0, kyotaku=0,
                                oya=0, tehais=tuple(hands)))
            continue
        if not events:
            raise ValueError(f"play before the deal at log entry {step}")
        drawer = [s for s, r in reqs.items() if r and r[0] == "2"]
        if drawer:
            s = drawer[0]
            events.append(Event("tsumo", actor=s, pai=T.from_botzone(reqs[s][1])))
            last_req = reqs
            continue
        r = next(iter(reqs.values()))
        if len(r) < 3 or r[0] != "3":
            raise ValueError(f"unreadable request {' '.join(r)!r} at log entry {step}")
        seat, verb = int(r[1]), r[2]
        last = events[-1]
        if verb == "DRAW":
            pass
        elif verb == "PLAY":
            pai = T.from_botzone(r[3])
            tg = last.type == "tsumo" and last.actor == seat and last.pai == pai
            events.append(Event("dahai", actor=seat, pai=pai, tsumogiri=tg))
        elif verb in ("CHI", "PENG", "GANG") and last.type == "dahai" and last.actor != seat:
            assert last.pai is not None
            d = last.pai
            if verb == "CHI":
                mid = T.from_botzone(r[3])
                run = [mid - 1, mid, mid + 1]
                run.remove(d)
                events.append(Event("chi", actor=seat, target=last.actor, pai=d,
                                    consumed=canonical(run)))
                events.append(Event("dahai", actor=seat, pai=T.from_botzone(r[4]),
                                    tsumogiri=False))
            elif verb == "PENG":
                events.append(Event("pon", actor=seat, target=last.actor, pai=d,
                                    consumed=(d, d)))
                events.append(Event("dahai", actor=seat, pai=T.from_botzone(r[3]),
                                    tsumogiri=False))
            else:
                events.append(Event("daiminkan", actor=seat, target=last.actor, pai=d,
                                    consumed=(d, d, d)))
        elif verb == "GANG":
            resp = str(prev_resp.get(str(seat), {}).get("response", "")).split()
            if len(resp) != 2 or resp[0] != "GANG":
                raise ValueError(f"concealed kong at log entry {step} without its tile")
            t = T.from_botzone(resp[1])
            events.append(Event("ankan", actor=seat, consumed=(t,) * 4))
        elif verb == "BUGANG":
            t = T.from_botzone(r[3])
            events.append(Event("kakan", actor=seat, pai=t, consumed=(t,) * 3))
        else:
            raise ValueError(f"unknown action {verb!r} at log entry {step}")
        last_req = reqs
    del last_req
    if not events:
        raise ValueError("no deal in the log")
    winner = max(range(4), key=lambda s: scores[s])
    if sorted(scores) == [-30, 10, 10, 10]:
        offender = scores.index(-30)
        answer = str(prev_resp.get(str(offender), {}).get("response", ""))
        events.append(Event("ryukyoku", actor=offender, deltas=scores, kind="penalty",
                            meta={"offence": answer} if answer else None))
    elif winner in hu and scores[winner] > 0:
        last = events[-1]
        if last.type == "tsumo" and last.actor == winner:
            target, fan = winner, scores[winner] // 3 - 8
        else:
            target, fan = last.actor if last.actor is not None else winner, scores[winner] - 24
        events.append(Event("hora", actor=winner, target=target, pai=last.pai, deltas=scores,
                            han=fan))
    elif not any(scores):
        events.append(Event("ryukyoku", deltas=scores, kind="exhaustive"))
    else:
        raise ValueError(f"final scores {list(scores)} match no ending")
    events.append(Event("end_kyoku"))
    game.rounds.append(events)
    game.final_scores = scores
    return game


def parse_botzone_json(text: str, source: str = "<memory>", *, strict: bool = True) -> list[Game]:
    games: list[Game] = []
    for ln, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise RecordSyntaxError(f"bad JSON: {exc.msg}", source, f"line {ln}") from exc
        try:
            if not isinstance(obj, dict):
                raise ValueError("a game must be a JSON object")
            games.append(_game(obj, source, ln))
        except RecordError:
            raise
        except (ValueError, KeyError, IndexError, TypeError, AttributeError,
                AssertionError) as exc:
            raise RecordContentError(in_record_terms(exc, "the judge log"), source,
                                     f"line {ln}") from exc
    return games


# -- writing -----------------------------------------------------------------------------------

_PASS: dict[str, str] = {"verdict": "OK", "response": "PASS"}


def _responses(acts: dict[int, str]) -> dict[str, dict[str, str]]:
    return {str(s): {"verdict": "OK", "response": acts[s]} if s in acts else dict(_PASS)
            for s in range(4)}


def _all(text: str) -> dict[str, str]:
    return {str(s): text for s in range(4)}


def _b(tile: int | None) -> str:
    if tile is None:
        raise ValueError("an event without its tile")
    return T.to_botzone(tile)


def _deal_line(game: Game, seat: int, hand: tuple[int, ...] | None) -> str:
    """The deal request of a seat, in the dealt order when the game kept it."""
    if hand is None or len(hand) != 13:
        raise ValueError(f"seat {seat} has no 13-tile hand")
    kept = game.extra.get("deal")
    tiles = [T.to_botzone(t) for t in hand]
    if isinstance(kept, list) and len(kept) == 4 and isinstance(kept[seat], list):
        order = [str(x) for x in kept[seat]]
        if sorted(order) == sorted(tiles):
            tiles = order
    return "1 0 0 0 0 " + " ".join(tiles)


def _claim_responses(nxt: Event | None, after: Event | None) -> dict[int, str]:
    """The responses to a discard (or an added kong), read off the event that follows it."""
    if nxt is None:
        return {}
    a = nxt.actor
    assert a is not None or nxt.type not in ("chi", "pon", "daiminkan", "hora")
    if nxt.type == "chi":
        assert a is not None and after is not None
        mid = sorted([*nxt.consumed, nxt.pai or 0])[1]
        return {a: f"CHI {_b(mid)} {_b(after.pai)}"}
    if nxt.type == "pon":
        assert a is not None and after is not None
        return {a: f"PENG {_b(after.pai)}"}
    if nxt.type == "daiminkan":
        assert a is not None
        return {a: "GANG"}
    if nxt.type == "hora":
        assert a is not None
        return {a: "HU"}
    return {}


def botzone_json_object(game: Game) -> dict[str, Any]:
    """One MCR game as a Botzone judge log object (the inverse of the reader).

    The log is rebuilt from the events: each request followed by the four responses it got,
    ``PASS`` where a seat did nothing.  Claims that lost on priority are not in the events and
    are written as ``PASS``; ``walltiles`` and ``seed`` are written when the game kept them (a
    game read from another format has none, and no wall is invented).
    """
    if game.rules.variant != "mcr" or game.players != 4:
        raise ValueError("Botzone judge logs hold four-player MCR games only")
    if len(game.rounds) != 1:
        raise ValueError(f"a Botzone judge log holds one hand, the game has {len(game.rounds)}")
    evs = [e for e in game.rounds[0] if e.type not in ("dora", "none")]
    start = evs[0]
    if start.type != "start_kyoku":
        raise ValueError("the round does not begin with start_kyoku")
    quan = start.bakaze or 0
    log: list[dict[str, Any]] = [
        {str(s): f"0 {s} {quan}" for s in range(4)}, _responses({}),
        {str(s): _deal_line(game, s, start.tehais[s]) for s in range(4)}, _responses({}),
    ]
    i = 1
    end = evs[-1] if evs[-1].type != "end_kyoku" else evs[-2]
    while i < len(evs):
        e = evs[i]
        nxt = evs[i + 1] if i + 1 < len(evs) else None
        a = e.actor
        if e.type in ("hora", "ryukyoku", "end_kyoku"):
            break
        assert a is not None
        if e.type == "tsumo":
            log.append({str(s): f"2 {_b(e.pai)}" if s == a else f"3 {a} DRAW" for s in range(4)})
            if nxt is None or nxt.type in ("ryukyoku", "end_kyoku"):
                act = "PASS"  # a judge penalty: the drawer's answer was not a move
            elif nxt.type == "dahai":
                act = f"PLAY {_b(nxt.pai)}"
            elif nxt.type == "ankan":
                act = f"GANG {_b(nxt.consumed[0] if nxt.consumed else None)}"
            elif nxt.type == "kakan":
                act = f"BUGANG {_b(nxt.pai)}"
            elif nxt.type == "hora":
                act = "HU"
            else:
                raise ValueError(f"a draw followed by {nxt.type} (event {i + 1})")
            log.append(_responses({a: act}))
            i += 1
            continue
        if e.type == "dahai":
            log.append(_all(f"3 {a} PLAY {_b(e.pai)}"))
        elif e.type in ("chi", "pon"):
            if nxt is None or nxt.type != "dahai" or nxt.actor != a:
                raise ValueError(f"a {e.type} not followed by the caller's discard (event {i})")
            if e.type == "chi":
                mid = sorted([*e.consumed, e.pai or 0])[1]
                log.append(_all(f"3 {a} CHI {_b(mid)} {_b(nxt.pai)}"))
            else:
                log.append(_all(f"3 {a} PENG {_b(nxt.pai)}"))
            i += 1  # the discard is part of the request
            nxt = evs[i + 1] if i + 1 < len(evs) else None
        elif e.type in ("daiminkan", "ankan"):
            log.append(_all(f"3 {a} GANG"))
            log.append(_responses({}))
            i += 1
            continue
        elif e.type == "kakan":
            log.append(_all(f"3 {a} BUGANG {_b(e.pai)}"))
        else:
            raise ValueError(f"event {e.type} has no Botzone judge form (event {i})")
        after = evs[i + 2] if i + 2 < len(evs) else None
        log.append(_responses(_claim_responses(nxt, after)))
        i += 1
    if end.type == "ryukyoku" and end.kind == "penalty" and end.actor is not None:
        offence = (end.meta or {}).get("offence")
        if isinstance(offence, str) and offence and log[-1] is not None:
            log[-1][str(end.actor)] = {"verdict": "OK", "response": offence}
    scores = game.final_scores or end.deltas
    if len(scores) != 4:
        raise ValueError("the game has no final scores")
    out: dict[str, Any] = {"log": log, "scores": [int(x) for x in scores], "quan": quan}
    if isinstance(game.extra.get("walltiles"), str):
        out["walltiles"] = game.extra["walltiles"]
    if game.extra.get("seed") is not None:
        out["seed"] = game.extra["seed"]
    return out


def games_to_botzone_json(games: Game | list[Game]) -> str:
    """Botzone judge JSON lines, one game per line."""
    items = [games] if isinstance(games, Game) else games
    return "".join(
        json.dumps(botzone_json_object(g), ensure_ascii=False, separators=(", ", ": ")) + "\n"
        for g in items
    )


def write_botzone_json(games: Game | list[Game], path: str | Path) -> None:
    """Write one or more games as Botzone judge JSON lines, atomically."""
    write_text_atomic(path, games_to_botzone_json(games))
