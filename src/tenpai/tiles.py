"""Tiles and every tile notation tenpai meets.

Three integer spaces are used, each chosen for the job it does best:

* **kind** (0-33): the 34 distinct tiles, the index of every count vector.
  0-8 = 1m-9m, 9-17 = 1p-9p, 18-26 = 1s-9s, 27-33 = East South West North White Green Red.
* **tile** (0-44): a kind plus the facts a record can carry about one tile — red fives
  (34 = 0m, 35 = 0p, 36 = 0s) and the eight MCR flowers (37-44 = H1-H8). Events and records
  speak in this space because no record format knows which physical copy was played.
* **physical id** (0-143): Tenhou's 136 ids (kind = id // 4; 16, 52, 88 are the red fives when
  a rule uses them) plus 136-143 for the flowers. The engine's walls hold physical ids so every
  copy can be accounted for.

Parsers raise :class:`TileParseError` (a ``ValueError``) naming the bad token and its position,
because a message like "bad tile" is useless in a 3,000-line record.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Final

__all__ = [
    "NUM_KINDS",
    "NUM_TILES",
    "RED_FIVE_IDS",
    "TileParseError",
    "counts34",
    "dora_from_indicator",
    "from_botzone",
    "from_mjai",
    "from_tenhou6",
    "from_tenhou136",
    "is_flower",
    "is_honor",
    "is_red",
    "is_simple",
    "is_terminal",
    "is_terminal_or_honor",
    "kind_of",
    "number_of",
    "parse",
    "parse_botzone",
    "parse_counts",
    "parse_mjai_list",
    "physical_to_tile",
    "red_of",
    "suit_of",
    "to_botzone",
    "to_compact",
    "to_mjai",
    "to_tenhou6",
    "to_tenhou136",
]

NUM_KINDS: Final = 34
NUM_TILES: Final = 45
RED_MAN: Final = 34
RED_PIN: Final = 35
RED_SOU: Final = 36
FLOWER_BASE: Final = 37
NUM_FLOWERS: Final = 8

#: Tenhou physical ids of the red fives (0m, 0p, 0s) when a rule set plays with them.
RED_FIVE_IDS: Final = (16, 52, 88)

SUIT_LETTERS: Final = "mpsz"
_HONOR_MJAI: Final = ("E", "S", "W", "N", "P", "F", "C")
_RED_KIND: Final = (4, 13, 22)


class TileParseError(ValueError):
    """A tile string could not be read; ``token`` and ``position`` say where."""

    def __init__(self, message: str, token: str, position: int) -> None:
        super().__init__(f"{message}: {token!r} at position {position}")
        self.token = token
        self.position = position


# ---------------------------------------------------------------------------
# Lookup tables.  Built once so the helpers below are single index operations.
# ---------------------------------------------------------------------------


def _build_kind_table() -> tuple[int, ...]:
    table = list(range(NUM_KINDS))
    table += list(_RED_KIND)
    table += [-1] * NUM_FLOWERS
    return tuple(table)


_KIND: Final = _build_kind_table()


def kind_of(tile: int) -> int:
    """The kind (0-33) of a tile code; -1 for a flower, which has no kind."""
    return _KIND[tile]


def is_red(tile: int) -> bool:
    """True for the red fives 34-36."""
    return RED_MAN <= tile <= RED_SOU


def is_flower(tile: int) -> bool:
    """True for the MCR flowers 37-44."""
    return tile >= FLOWER_BASE


def red_of(kind: int) -> int:
    """The red tile code of a five's kind (4, 13 or 22)."""
    try:
        return RED_MAN + _RED_KIND.index(kind)
    except ValueError:
        raise ValueError(f"kind {kind} is not a five and has no red copy") from None


def suit_of(kind: int) -> int:
    """0 man, 1 pin, 2 sou, 3 honours."""
    return kind // 9


def number_of(kind: int) -> int:
    """1-9 for suited kinds, 1-7 for honours."""
    return kind % 9 + 1


def is_honor(kind: int) -> bool:
    return kind >= 27


def is_terminal(kind: int) -> bool:
    return kind < 27 and kind % 9 in (0, 8)


def is_terminal_or_honor(kind: int) -> bool:
    return kind >= 27 or kind % 9 in (0, 8)


def is_simple(kind: int) -> bool:
    return kind < 27 and kind % 9 not in (0, 8)


def dora_from_indicator(kind: int) -> int:
    """The dora kind shown by an indicator kind (9 wraps to 1, N to E, Red to White)."""
    if kind < 27:
        base = kind - kind % 9
        return base + (kind % 9 + 1) % 9
    if kind < 31:
        return 27 + (kind - 27 + 1) % 4
    return 31 + (kind - 31 + 1) % 3


def counts34(tiles: Iterable[int]) -> list[int]:
    """Count vector over the 34 kinds of some tile codes (flowers are ignored)."""
    counts = [0] * NUM_KINDS
    for t in tiles:
        k = _KIND[t]
        if k >= 0:
            counts[k] += 1
    return counts


# ---------------------------------------------------------------------------
# Compact notation: "123m406p789s1122z", 0 = red five, "1-8f" = flowers.
# ---------------------------------------------------------------------------

_COMPACT_RE: Final = re.compile(r"\s*([0-9]+)([mpszf])")


def parse(text: str) -> list[int]:
    """Parse compact notation into tile codes, keeping the written order.

    ``"123m406p1122z"`` gives 1m 2m 3m 4p 0p 6p E E S S.  Digits come before their suit
    letter; ``0`` is a red five; honours are 1-7z (E S W N P F C); flowers are 1-8f.
    """
    out: list[int] = []
    pos = 0
    n = len(text)
    while pos < n:
        if text[pos].isspace():
            pos += 1
            continue
        m = _COMPACT_RE.match(text, pos)
        if m is None:
            end = pos
            while end < n and not text[end].isspace() and text[end] not in "mpszf":
                end += 1
            token = text[pos : max(end + 1, pos + 1)]
            raise TileParseError("expected digits followed by m, p, s, z or f", token, pos)
        digits, suit = m.group(1), m.group(2)
        start = m.start(1)
        for i, ch in enumerate(digits):
            d = int(ch)
            where = start + i
            if suit == "z":
                if not 1 <= d <= 7:
                    raise TileParseError("honours are 1z-7z", ch + suit, where)
                out.append(26 + d)
            elif suit == "f":
                if not 1 <= d <= 8:
                    raise TileParseError("flowers are 1f-8f", ch + suit, where)
                out.append(FLOWER_BASE + d - 1)
            else:
                s = SUIT_LETTERS.index(suit)
                out.append(RED_MAN + s if d == 0 else s * 9 + d - 1)
        pos = m.end()
    return out


def parse_counts(text: str) -> list[int]:
    """Compact notation straight to a 34-count vector (red fives count as fives)."""
    return counts34(parse(text))


def _compact_parts(tile: int) -> tuple[int, str]:
    if tile >= FLOWER_BASE:
        return tile - FLOWER_BASE + 1, "f"
    if tile >= RED_MAN:
        return 0, SUIT_LETTERS[tile - RED_MAN]
    return tile % 9 + 1, SUIT_LETTERS[tile // 9]


def to_compact(tiles: Iterable[int], *, sort: bool = True) -> str:
    """Format tile codes compactly: ``[0, 1, 2, 27, 27]`` -> ``"123m11z"``.

    With ``sort`` the tiles are grouped by suit and ordered (a red five sorts as a five);
    without it the written order is kept and a suit letter closes every run.
    """
    seq = list(tiles)
    if sort:
        seq.sort(key=_sort_key)
    out: list[str] = []
    run: list[str] = []
    run_suit = ""
    for t in seq:
        if not 0 <= t < NUM_TILES:
            raise ValueError(f"tile code {t} is out of range 0-{NUM_TILES - 1}")
        digit, suit = _compact_parts(t)
        if suit != run_suit and run:
            out.append("".join(run) + run_suit)
            run = []
        run_suit = suit
        run.append(str(digit))
    if run:
        out.append("".join(run) + run_suit)
    return "".join(out)


def _sort_key(tile: int) -> tuple[int, int]:
    if tile >= FLOWER_BASE:
        return (100 + tile, 0)
    return (_KIND[tile], 1 if tile >= RED_MAN else 0)


# ---------------------------------------------------------------------------
# mjai: "1m".."9m", "5mr", "E S W N P F C", "?" for an unknown tile.
# ---------------------------------------------------------------------------


def _build_mjai() -> tuple[tuple[str, ...], dict[str, int]]:
    names: list[str] = []
    for k in range(NUM_KINDS):
        names.append(_HONOR_MJAI[k - 27] if k >= 27 else f"{k % 9 + 1}{SUIT_LETTERS[k // 9]}")
    names += ["5mr", "5pr", "5sr"]
    names += [f"H{i}" for i in range(1, NUM_FLOWERS + 1)]
    return tuple(names), {n: i for i, n in enumerate(names)}


_MJAI_NAMES, _MJAI_CODES = _build_mjai()


def to_mjai(tile: int) -> str:
    """mjai name of a tile code (flowers, which mjai lacks, are written H1-H8)."""
    if not 0 <= tile < NUM_TILES:
        raise ValueError(f"tile code {tile} is out of range 0-{NUM_TILES - 1}")
    return _MJAI_NAMES[tile]


def from_mjai(name: str, position: int = 0) -> int:
    """Tile code of an mjai name; ``position`` is only used in the error message."""
    code = _MJAI_CODES.get(name)
    if code is None:
        raise TileParseError("not an mjai tile", name, position)
    return code


def parse_mjai_list(names: Sequence[str]) -> list[int]:
    """A list of mjai names; an error names the index of the bad entry."""
    return [from_mjai(n, i) for i, n in enumerate(names)]


# ---------------------------------------------------------------------------
# Tenhou physical ids 0-135 (and our 136-143 flowers).
# ---------------------------------------------------------------------------


def from_tenhou136(tile_id: int, red: bool = True) -> int:
    """Tile code of a Tenhou id; ids 16, 52 and 88 are red fives when ``red`` is set."""
    if not 0 <= tile_id < 136:
        raise TileParseError("Tenhou tile ids are 0-135", str(tile_id), 0)
    if red and tile_id in RED_FIVE_IDS:
        return RED_MAN + RED_FIVE_IDS.index(tile_id)
    return tile_id >> 2


def physical_to_tile(tile_id: int, red: bool = True) -> int:
    """Tile code of a physical id, flowers (136-143) included."""
    if 136 <= tile_id < 144:
        return FLOWER_BASE + tile_id - 136
    return from_tenhou136(tile_id, red)


def to_tenhou136(tile: int, copy: int = 0) -> int:
    """A Tenhou id for a tile code.

    Red fives map to 16/52/88.  For other tiles ``copy`` (0-3) picks the physical copy; for a
    plain five the red copy's slot is skipped, so copies 0-2 of a five are never red.
    """
    if not 0 <= copy <= 3:
        raise ValueError(f"copy must be 0-3, got {copy}")
    if RED_MAN <= tile <= RED_SOU:
        return RED_FIVE_IDS[tile - RED_MAN]
    if not 0 <= tile < NUM_KINDS:
        raise ValueError(f"tile code {tile} has no Tenhou id")
    if tile in _RED_KIND:
        if copy > 2:
            raise ValueError("a plain five has only three non-red copies")
        return tile * 4 + 1 + copy
    return tile * 4 + copy


# ---------------------------------------------------------------------------
# tenhou.net/6 codes: 11-19, 21-29, 31-39, 41-47; 51-53 are the red fives.
# ---------------------------------------------------------------------------


def to_tenhou6(tile: int) -> int:
    """tenhou.net/6 code of a tile code."""
    if RED_MAN <= tile <= RED_SOU:
        return 51 + tile - RED_MAN
    if not 0 <= tile < NUM_KINDS:
        raise ValueError(f"tile code {tile} has no tenhou.net/6 code")
    return (tile // 9 + 1) * 10 + tile % 9 + 1


def from_tenhou6(code: int, position: int = 0) -> int:
    """Tile code of a tenhou.net/6 code (60, "the drawn tile", is not a tile and is refused)."""
    if 51 <= code <= 53:
        return RED_MAN + code - 51
    suit, num = divmod(code, 10)
    if 1 <= suit <= 3 and 1 <= num <= 9:
        return (suit - 1) * 9 + num - 1
    if suit == 4 and 1 <= num <= 7:
        return 27 + num - 1
    raise TileParseError("not a tenhou.net/6 tile code", str(code), position)


# ---------------------------------------------------------------------------
# Botzone (MCR): W1-9 characters, B1-9 dots, T1-9 bamboo, F1-4 winds (E S W N),
# J1-3 dragons in the order Red, Green, White (so J1 is kind 33), H1-8 flowers.
# ---------------------------------------------------------------------------

_BOTZONE_SUITS: Final = {"W": 0, "B": 9, "T": 18}


def to_botzone(tile: int) -> str:
    """Botzone name of a tile code (red fives are written as plain fives)."""
    if tile >= FLOWER_BASE:
        if tile >= NUM_TILES:
            raise ValueError(f"tile code {tile} is out of range")
        return f"H{tile - FLOWER_BASE + 1}"
    k = _KIND[tile] if tile >= 0 else -1
    if k < 0:
        raise ValueError(f"tile code {tile} is out of range")
    if k < 27:
        return f"{'WBT'[k // 9]}{k % 9 + 1}"
    if k < 31:
        return f"F{k - 26}"
    return f"J{34 - k}"


def from_botzone(name: str, position: int = 0) -> int:
    """Tile code of a Botzone name such as ``W1``, ``F4``, ``J3`` or ``H8``."""
    if len(name) == 2 and name[1].isdigit():
        letter, d = name[0], int(name[1])
        if letter in _BOTZONE_SUITS and 1 <= d <= 9:
            return _BOTZONE_SUITS[letter] + d - 1
        if letter == "F" and 1 <= d <= 4:
            return 26 + d
        if letter == "J" and 1 <= d <= 3:
            return 34 - d
        if letter == "H" and 1 <= d <= NUM_FLOWERS:
            return FLOWER_BASE + d - 1
    raise TileParseError("not a Botzone tile", name, position)


def parse_botzone(text: str) -> list[int]:
    """Whitespace-separated Botzone names; the error position is the token's character offset."""
    out: list[int] = []
    for m in re.finditer(r"\S+", text):
        out.append(from_botzone(m.group(0), m.start()))
    return out
