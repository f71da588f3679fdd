"""A deliberately tiny reader of Botzone text matches, just enough to rebuild each winning hand.

The real record reader belongs to ``tenpai.records``; this one only tracks hands, melds and
the river so the ``Fan`` line of every win can check our scorer.  Seat N has wind N (E S W N)
and ``Wind`` is the prevalent wind, as the data README establishes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from tenpai.rules.mcr import MCRContext, Meld
from tenpai.tiles import from_botzone

# Botzone writes 中 发 白 as J1 J2 J3 (tenpai.tiles follows the same order).
_DRAGONS = {"J1": 33, "J2": 32, "J3": 31}


def _kind(name: str) -> int:
    return _DRAGONS.get(name, from_botzone(name) if name[0] != "J" else -1)


@dataclass
class BotzoneWin:
    match: str
    ctx: MCRContext
    fans: Counter[str]
    total: int
    scores: list[int]
    winner: int
    discarder: int | None


def read_wins(text: str) -> list[BotzoneWin]:
    """Every win of a Botzone text file, with the judge's fan line and scores."""
    wins: list[BotzoneWin] = []
    for block in text.split("Match ")[1:]:
        win = _replay(block.strip().splitlines())
        if win is not None:
            wins.append(win)
    return wins


def _replay(lines: list[str]) -> BotzoneWin | None:
    match = lines[0].strip()
    hands = [Counter[int]() for _ in range(4)]
    melds: list[list[Meld]] = [[] for _ in range(4)]
    river: list[int] = []
    prevalent = 0
    prev: tuple[int, str, int] | None = None  # (player, action, kind) of the previous line
    last_play: tuple[int, int] | None = None
    kong_draw = [False] * 4
    for raw in lines[1:]:
        line = raw.split(" Ignore ")[0].split()
        if line[0] == "Wind":
            prevalent = int(line[1])
            continue
        if line[0] != "Player":
            continue
        p, act = int(line[1]), line[2]
        tiles = [_kind(t) for t in line[3:]]
        k = tiles[0] if tiles else -1
        if act == "Deal":
            hands[p].update(tiles)
        elif act == "Draw":
            hands[p][k] += 1
            kong_draw[p] = prev is not None and prev[0] == p and "Gang" in prev[1]
        elif act == "Play":
            hands[p][k] -= 1
            river.append(k)
            last_play = (p, k)
        elif act in ("Chi", "Peng", "Gang"):
            assert last_play is not None
            src, claimed = last_play
            river.pop()
            offset = (p - src) % 4
            if act == "Chi":
                need = [k - 1, k, k + 1]
                need.remove(claimed)
                melds[p].append(Meld.chow(k - 1))
            else:
                need = [k] * (2 if act == "Peng" else 3)
                melds[p].append(Meld.pung(k, offset) if act == "Peng"
                                else Meld.kong(k, "exposed_kong", offset))
            hands[p].subtract(need)
        elif act == "AnGang":
            hands[p][k] -= 4
            melds[p].append(Meld.kong(k, "concealed_kong"))
        elif act == "BuGang":
            hands[p][k] -= 1
            i = next(i for i, m in enumerate(melds[p]) if m.kind == "pung" and m.base == k)
            melds[p][i] = Meld.kong(k, "promoted_kong", melds[p][i].claimed_from)
        elif act == "Hu":
            self_drawn = prev is not None and prev[0] == p and prev[1] == "Draw"
            robbing = prev is not None and prev[1] == "BuGang" and prev[0] != p
            discarder = None if self_drawn else (prev[0] if prev else None)
            if self_drawn and prev is not None:
                # Some records name the last discard after a self-drawn "Hu"; the drawn tile
                # is the one that completed the hand.
                k = prev[2]
            if not self_drawn:
                hands[p][k] += 1
                if not robbing:
                    river.pop()
            visible = river.count(k) + sum(
                list(m.tiles).count(k) for ms in melds for m in ms if m.kind != "concealed_kong")
            concealed = tuple(sorted(hands[p].elements()))
            ctx = MCRContext(
                concealed, k, tuple(melds[p]), self_drawn=self_drawn, seat_wind=p,
                prevalent_wind=prevalent, kong_replacement=self_drawn and kong_draw[p],
                robbing_kong=robbing, last_copy=visible == 3 and hands[p][k] == 1,
            )
            return _finish(match, lines, ctx, p, discarder)
        prev = (p, act, k)
    return None


def _finish(match: str, lines: list[str], ctx: MCRContext, winner: int,
            discarder: int | None) -> BotzoneWin:
    fan_line = next(line for line in lines if line.startswith("Fan "))
    score_line = next(line for line in lines if line.startswith("Score "))
    _, total, desc = fan_line.split(maxsplit=2)
    fans: Counter[str] = Counter()
    for part in desc.split("+"):
        name, times = part.split("*")
        fans[name] += int(times)
    scores = [int(x) for x in score_line.split()[1:]]
    return BotzoneWin(match, ctx, fans, int(total), scores, winner, discarder)
