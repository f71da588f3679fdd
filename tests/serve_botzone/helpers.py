"""Real Botzone match exports for the Botzone protocol tests, and the engine's side of them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tenpai import tiles as T
from tenpai.engine.table import KIND
from tenpai.events import Event
from tenpai.rules.mcr.flow.rules import BOTZONE
from tenpai.rules.mcr.flow.wall import SeatWalls
from tenpai.rules.mcr.game import MCRGame
from tenpai.serve.botzone.judge import RequestWriter
from tenpai.serve.botzone.seat_state import PublicView

EXPORTS = "mcr/botzone_json/SuuTTT_IJCAI-mahjong/botzone_logs"


@dataclass
class Match:
    """One real match: the requests each seat got and the responses it gave, turn by turn."""

    name: str
    quan: int
    wall: list[int]
    requests: list[list[str]]  # [seat][turn]
    responses: list[list[str]]  # [seat][turn]
    scores: list[int]


def load_matches(data_dir: Path) -> list[Match]:
    out = []
    for f in sorted((data_dir / EXPORTS).glob("*_lite.json")):
        d: dict[str, Any] = json.loads(f.read_text(encoding="utf-8"))
        init = d["initdata"]
        if isinstance(init, str):
            init = json.loads(init)
        outs = [e["output"] for e in d["logs"] if "output" in e]
        answers = [e for e in d["logs"] if "output" not in e]
        turns = [o for o in outs if o["command"] == "request"]
        out.append(Match(
            f.name,
            int(init["quan"]),
            T.parse_botzone(init["walltiles"]),
            [[o["content"][str(s)] for o in turns] for s in range(4)],
            [[a[str(s)]["response"] for a in answers] for s in range(4)],
            [int(outs[-1]["content"][str(s)]) for s in range(4)],
        ))
    return out


def engine_game(m: Match) -> MCRGame:
    """Our engine dealing the match's own wall (Botzone preset)."""
    return MCRGame(BOTZONE, wall_source=lambda i, k: SeatWalls.from_shuffled(m.wall),
                   prevalent_wind=m.quan)


def public_views(events: list[Event], seat: int) -> list[PublicView]:
    """What ``seat`` should know after each request, folded from the engine's own events
    (true tiles: the engine played the whole match) — one view per Botzone turn."""
    hands: list[list[int]] = []
    melds: list[list[tuple[str, tuple[int, ...]]]] = [[] for _ in range(4)]
    rivers: list[list[tuple[int, bool]]] = [[] for _ in range(4)]
    wall = [21, 21, 21, 21]
    writer = RequestWriter()
    views: list[PublicView] = []
    for e in events:
        t, p = e.type, e.actor
        if t == "start_kyoku":
            hands = [list(h or ()) for h in e.tehais]
        elif t == "tsumo" and p is not None and e.pai is not None:
            hands[p].append(e.pai)
            wall[p] -= 1
        elif t == "dahai" and p is not None and e.pai is not None:
            hands[p].remove(e.pai)
            rivers[p].append((KIND[e.pai], False))
        elif t in ("pon", "chi", "daiminkan") and p is not None and e.target is not None:
            for c in e.consumed:
                hands[p].remove(c)
            k, _ = rivers[e.target][-1]
            rivers[e.target][-1] = (k, True)
            assert e.pai is not None
            melds[p].append((t, tuple(sorted(KIND[x] for x in (*e.consumed, e.pai)))))
        elif t == "ankan" and p is not None:
            for c in e.consumed:
                hands[p].remove(c)
            melds[p].append(("ankan", tuple(sorted(KIND[x] for x in e.consumed))))
        elif t == "kakan" and p is not None and e.pai is not None:
            hands[p].remove(e.pai)
            i = next(i for i, m in enumerate(melds[p])
                     if m[0] == "pon" and m[1][0] == KIND[e.pai])
            melds[p][i] = ("kakan", tuple(sorted((*melds[p][i][1], KIND[e.pai]))))
        for _ in writer.feed(e):
            views.append({
                "hand": sorted(KIND[x] for x in hands[seat]) if hands else [],
                "melds": [[(mt, () if mt == "ankan" and s != seat else ks) for mt, ks in ms]
                          for s, ms in enumerate(melds)],
                "rivers": [list(r) for r in rivers],
                "wall": list(wall),
            })
    return views

REPO_SRC = Path(__file__).resolve().parents[2] / "src"
