"""Random legal Riichi wins with their payment situation, for differential tests and benchmarks.

The one generator of random Riichi wins: the compiled scorer (``_score.c``) is checked against
the Python yaku classes on wins from here, and our scorer against the `mahjong` library
(``tests/riichi_scoring``, which reads the physical tile ids kept in :class:`WinTiles`).  So
the generator aims at coverage rather than realism: every win shape (four sets and a pair with
0-4 calls of every kind, seven pairs, thirteen orphans, nine gates), themes that make the rare
yaku and yakuman common (one suit, honours, terminals, green tiles, wind and dragon triplets),
every situational flag in the combinations a game can produce (riichi, double riichi,
ippatsu, haitei, houtei, rinshan, chankan, tenhou, chiihou, renhou), red fives, dora and ura
indicators, Norths set aside with three players, and the payment side (winner and dealer
seats, discarder, honba, riichi sticks, a liable player for pao).  Tiles are drawn from one
physical set per win, so no tile is used more often than it exists.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tenpai import tiles as T
from tenpai.rules.riichi.context import Meld, WinContext
from tenpai.rules.riichi.ruleset import MAHJONG_SOUL, TENHOU, TENHOU_SANMA, RiichiRules

__all__ = ["RULE_VARIANTS", "RandomWin", "WinTiles", "random_win", "random_wins"]

_SUITED = list(range(27))
_HONORS = list(range(27, 34))
_TERMINALS = [0, 8, 9, 17, 18, 26]
_ORPHANS = _TERMINALS + _HONORS
_GREEN = [19, 20, 21, 23, 25, 32]
_SANMA_REMOVED = frozenset(range(1, 8))
_THEMES = ("any", "one_suit_honors", "one_suit", "simples", "orphans", "honors", "green",
           "winds_dragons", "outside", "terminals")
_THEME_WEIGHTS = (38, 14, 12, 10, 7, 5, 4, 6, 2, 2)

#: The presets, and house-rule variants of them that reach every branch of the scorer
#: (renhou as a yaku or a yakuman, kiriage, no counted yakuman, no stacking, 2-fu double wind,
#: no open tanyao, no red fives, the other pao scope).
RULE_VARIANTS: tuple[RiichiRules, ...] = (
    TENHOU.with_(name="tenhou+renhou_mangan+kiriage", renhou="mangan", kiriage_mangan=True),
    MAHJONG_SOUL.with_(name="mahjong_soul+renhou_yakuman", renhou="yakuman",
                       yakuman_stacking=False, double_wind_pair_fu=2),
    TENHOU.with_(name="tenhou-no-kazoe-no-kuitan", kazoe_yakuman=False, open_tanyao=False,
                 red_fives=0, pao_scope="pao_yakuman_only"),
    TENHOU_SANMA.with_(name="tenhou_sanma+double_variants", double_yakuman_variants=True,
                       kiriage_mangan=True),
)


class _NoTiles(Exception):
    """The physical set ran out of a kind; the caller starts the win again."""


@dataclass(frozen=True, slots=True)
class WinTiles:
    """The physical tiles (Tenhou ids 0-135) a win was drawn as.

    The context holds tile codes; a scorer that reads physical ids (the `mahjong` library of
    the differential tests) needs the very copies drawn, red fives included."""

    closed: tuple[int, ...]
    melds: tuple[tuple[str, tuple[int, ...]], ...]
    win: int
    dora: tuple[int, ...]
    ura: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RandomWin:
    """A win to score and the seats and sticks its payments need.

    ``discarder`` is ``None`` for a tsumo; ``pao`` a liable seat or ``None`` (it only matters
    when the hand holds one of the rules' pao yakuman)."""

    ctx: WinContext
    winner: int
    dealer: int
    discarder: int | None
    honba: int
    kyotaku: int
    pao: int | None
    tiles: WinTiles


def _full_set() -> list[list[int]]:
    return [[4 * k, 4 * k + 1, 4 * k + 2, 4 * k + 3] for k in range(34)]


def _sanma_set() -> list[list[int]]:
    return [[] if k in _SANMA_REMOVED else [4 * k, 4 * k + 1, 4 * k + 2, 4 * k + 3]
            for k in range(34)]


class _Pool:
    def __init__(self, rng: random.Random, players: int) -> None:
        self.rng = rng
        self.left = _sanma_set() if players == 3 else _full_set()

    def take(self, kind: int, n: int = 1) -> list[int]:
        ids = self.left[kind]
        if len(ids) < n:
            raise _NoTiles
        # a random copy each time: which copy is the red five is left to chance
        return [ids.pop(self.rng.randrange(len(ids))) for _ in range(n)]

    def count(self, kind: int) -> int:
        return len(self.left[kind])

    def any_tile(self) -> int:
        return self.take(self.rng.choice([k for k in range(34) if self.left[k]]))[0]


def _allowed(theme: str, rng: random.Random) -> list[int]:
    suit = rng.randrange(3) * 9
    one_suit = list(range(suit, suit + 9))
    return {
        "any": _SUITED + _HONORS,
        "one_suit_honors": one_suit + _HONORS,
        "one_suit": one_suit,
        "simples": [k for k in _SUITED if k % 9 not in (0, 8)],
        "orphans": _ORPHANS,
        "honors": _HONORS,
        "green": _GREEN,
        "winds_dragons": _HONORS + one_suit,
        "outside": _TERMINALS + [k for k in _SUITED if k % 9 in (1, 2, 6, 7)],
        "terminals": _TERMINALS,
    }[theme]


def _starts(allowed: list[int]) -> list[int]:
    a = set(allowed)
    return [k for k in allowed if k < 27 and k % 9 <= 6 and k + 1 in a and k + 2 in a]


def _standard(rng: random.Random, pool: _Pool, allowed: list[int], n_melds: int,
              chi: bool) -> tuple[list[int], list[tuple[str, list[int]]]]:
    starts = _starts(allowed)
    seq_p = 0.0 if not starts else (0.35 if n_melds >= 3 else 0.6)
    if rng.random() < 0.15:
        seq_p = 0.05  # triplet-heavy: toitoi, sanankou, suuankou, sankantsu
    closed: list[int] = []
    melds: list[tuple[str, list[int]]] = []
    for i in range(4):
        as_meld = i < n_melds
        if starts and rng.random() < seq_p and (chi or not as_meld):
            b = rng.choice(starts)
            if rng.random() < 0.3 and not as_meld:  # peikou, sanshoku, ittsu
                parallel = b % 9 + rng.choice((0, 9, 18))
                straight = b - b % 9 + 3 * rng.randrange(3)
                b = rng.choice((b, b, parallel, straight))
                if b >= 27 or b % 9 > 6 or pool.count(b) == 0:
                    b = rng.choice(starts)
            ids = pool.take(b) + pool.take(b + 1) + pool.take(b + 2)
            if as_meld:
                melds.append(("chi", ids))
            else:
                closed += ids
        else:
            k = rng.choice(allowed)
            if as_meld:
                kind = rng.choices(("pon", "daiminkan", "kakan", "ankan"), (50, 15, 15, 20))[0]
                melds.append((kind, pool.take(k, 3 if kind == "pon" else 4)))
            else:
                closed += pool.take(k, 3)
    closed += pool.take(rng.choice(allowed), 2)
    return closed, melds


def _chiitoitsu(rng: random.Random, pool: _Pool, allowed: list[int]) -> list[int]:
    kinds = allowed if len(allowed) >= 7 else [k for k in range(34) if pool.count(k) >= 2]
    return [i for k in rng.sample(kinds, 7) for i in pool.take(k, 2)]


def _kokushi(rng: random.Random, pool: _Pool) -> list[int]:
    return [pool.take(k)[0] for k in _ORPHANS] + pool.take(rng.choice(_ORPHANS))


def _chuuren(rng: random.Random, pool: _Pool, players: int) -> list[int]:
    base = rng.randrange(3) * 9 if players == 4 else rng.choice((9, 18))
    pattern = (3, 1, 1, 1, 1, 1, 1, 1, 3)
    ids = [i for n, c in enumerate(pattern) for i in pool.take(base + n, c)]
    return ids + pool.take(base + rng.randrange(9))


def random_win(rng: random.Random, rules: RiichiRules) -> RandomWin:
    """One random legal win under ``rules`` (see the module docstring)."""
    while True:
        try:
            return _one(rng, rules)
        except _NoTiles:
            continue


def random_wins(n: int, seed: int, rules: tuple[RiichiRules, ...] = (TENHOU, MAHJONG_SOUL,
                TENHOU_SANMA)) -> list[RandomWin]:
    """``n`` seeded wins, the rules taken in turn."""
    rng = random.Random(seed)
    return [random_win(rng, rules[i % len(rules)]) for i in range(n)]


def _one(rng: random.Random, rules: RiichiRules) -> RandomWin:
    red = rules.red_fives > 0
    n = rules.players
    sanma = n == 3
    pool = _Pool(rng, n)
    theme = rng.choices(_THEMES, _THEME_WEIGHTS)[0]
    allowed = _allowed(theme, rng)
    if sanma:
        allowed = [k for k in allowed if k not in _SANMA_REMOVED] or [0, 8]
    form = rng.random()
    melds: list[tuple[str, list[int]]] = []
    if form < 0.07:
        closed = _chiitoitsu(rng, pool, allowed)
    elif form < 0.09:
        closed = _kokushi(rng, pool)
    elif form < 0.10:
        closed = _chuuren(rng, pool, n)
    else:
        n_melds = rng.choices((0, 1, 2, 3, 4), (40, 20, 15, 13, 12))[0]
        closed, melds = _standard(rng, pool, allowed, n_melds, chi=not sanma)
    win_id = rng.choice(closed)
    win_kind = win_id // 4
    opened = any(kind != "ankan" for kind, _ in melds)
    has_kan = any(kind not in ("chi", "pon") for kind, _ in melds)
    nukidora = 0
    if sanma:
        seat_wind = 27 + rng.randrange(3)
        round_wind = rng.choices((27, 28, 29), (45, 45, 10))[0]
        if rng.random() < 0.4 and pool.count(30):
            nukidora = rng.randint(1, pool.count(30))
            pool.take(30, nukidora)
    else:
        seat_wind = 27 + rng.randrange(4)
        round_wind = rng.choices((27, 28, 29, 30), (45, 45, 8, 2))[0]
    dealer_seat = rng.randrange(n)
    winner = (dealer_seat + seat_wind - 27) % n
    dealer = seat_wind == 27

    flags: dict[str, bool] = {}
    tsumo = rng.random() < 0.5
    first_turn = not melds and not nukidora and rng.random() < 0.03
    if first_turn and tsumo:
        flags["tenhou" if dealer else "chiihou"] = True
    elif first_turn and not dealer:
        flags["renhou"] = True
    else:
        if not opened and rng.random() < 0.5:
            flags["double_riichi" if rng.random() < 0.1 else "riichi"] = True
        if tsumo:
            if (has_kan or nukidora) and rng.random() < 0.2:
                flags["rinshan"] = True
            elif rng.random() < 0.06:
                flags["haitei"] = True
        else:
            # chankan: the robbed kakan holds the other three copies of the winning kind
            held = sum(1 for i in closed if i // 4 == win_kind)
            held += sum(1 for _, ids in melds for i in ids if i // 4 == win_kind)
            if held == 1 and pool.count(win_kind) == 3 and rng.random() < 0.3:
                pool.take(win_kind, 3)
                flags["chankan"] = True
            elif rng.random() < 0.06:
                flags["houtei"] = True
        if (flags.get("riichi") or flags.get("double_riichi")) and not flags.get("rinshan") \
                and rng.random() < 0.25:
            flags["ippatsu"] = True
    n_kans = sum(1 for kind, _ in melds if kind not in ("chi", "pon"))
    n_ind = 1 + n_kans if rng.random() < 0.9 else rng.randint(1, 5)
    dora_ids = [pool.any_tile() for _ in range(n_ind)]
    riichi = flags.get("riichi") or flags.get("double_riichi")
    ura_ids = [pool.any_tile() for _ in range(n_ind)] if riichi else []

    def code(i: int) -> int:
        return T.physical_to_tile(i, red=red)

    others = [s for s in range(n) if s != winner]
    ctx = WinContext(
        closed=tuple(code(i) for i in closed),
        win_tile=code(win_id),
        melds=tuple(Meld(kind, tuple(code(i) for i in ids),  # type: ignore[arg-type]
                         None if kind == "ankan" else rng.choice(others))
                    for kind, ids in melds),
        tsumo=tsumo,
        seat_wind=seat_wind,
        round_wind=round_wind,
        dora_indicators=tuple(code(i) for i in dora_ids),
        ura_indicators=tuple(code(i) for i in ura_ids),
        rules=rules,
        nukidora=nukidora,
        **flags,
    )
    discarder = None if tsumo else rng.choice(others)
    pao = rng.choice(others) if rng.random() < 0.5 else None
    tiles = WinTiles(tuple(closed), tuple((kind, tuple(ids)) for kind, ids in melds), win_id,
                     tuple(dora_ids), tuple(ura_ids))
    return RandomWin(ctx, winner, dealer_seat, discarder, rng.choice((0, 0, 0, 1, 2, 5)),
                     rng.choice((0, 0, 1, 2, 4)), pao, tiles)
