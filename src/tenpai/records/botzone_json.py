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
``kind="penalty"`` and the offender as ``actor``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.records.common import canonical
from tenpai.records.errors import RecordContentError, RecordError, RecordSyntaxError
from tenpai.records.game import Game, RuleFlags
from tenpai.records.source import DEFAULT_MAX_BYTES, read_text

__all__ = ["parse_botzone_json", "read_botzone_json"]


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
        kinds = {r[0] for r in reqs.values() if r}
        if kinds == {"0"}:
            continue
        if "1" in kinds:
            for s, r in reqs.items():
                tiles = T.parse_botzone(" ".join(r[5:]))
                if len(tiles) != 13:
                    raise ValueError(f"deal of seat {s} has {len(tiles)} tiles")
                hands[s] = canonical(tiles)
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
        events.append(Event("ryukyoku", actor=scores.index(-30), deltas=scores, kind="penalty"))
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
            raise RecordContentError(f"{type(exc).__name__}: {exc}", source,
                                     f"line {ln}") from exc
    return games
