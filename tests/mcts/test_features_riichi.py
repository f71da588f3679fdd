"""The Riichi perfect-information planes, their feature-access variants and the safety planes."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pytest

from tenpai import tiles as T
from tenpai.agents.efficiency import EfficiencyAgent
from tenpai.events import Event, EventType
from tenpai.mcts.features import score_interval
from tenpai.mcts.features_riichi import (
    ENCODER,
    HIDDEN_PLANES,
    KINDS,
    PLANES,
    SAFETY_PLANES,
    WALL_SCALE,
    dora_kind,
    encode_riichi,
    safety_planes_riichi,
)
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.rules.riichi.game import RiichiGame
from tenpai.rules.riichi.ruleset import TENHOU, TENHOU_SANMA, RiichiRules
from tenpai.rules.riichi.safety import safe_kinds

PUBLIC = [i for i in range(PLANES) if i not in HIDDEN_PLANES]
WALL, URA, DORA = 76, 86, 72


class _Skipper:
    """The efficiency player, but it lets a ron go by half the time (so furiten happens)."""

    name = "skipper"

    def __init__(self, seed: int) -> None:
        self._base = EfficiencyAgent(seed)
        self._rng = random.Random(seed)

    def act(self, observation: Any, legal: Sequence[Event]) -> Event:
        types = {e.type for e in legal}
        if "hora" in types and "none" in types and self._rng.random() < 0.5:
            return next(e for e in legal if e.type == "none")
        return self._base.act(observation, legal)


def _decisions(
    seed: int, rules: RiichiRules = TENHOU, length: str = "tonpuu"
) -> Iterator[tuple[RiichiGame, RiichiRound, int]]:
    """Every (game, round, deciding seat) of a game between skippers; the game steps on when
    the caller asks for the next one."""
    game = RiichiGame(rules.with_(length=length), seed=seed)
    agents = [_Skipper(seed * 10 + i) for i in range(rules.players)]
    while not game.done:
        rnd = game.round
        assert rnd is not None
        pending = game.pending()
        for d in pending:
            yield game, rnd, d.seat
        game.step({d.seat: agents[d.seat].act(d.observation, d.legal) for d in pending})


def _ordinary_draws(events: Sequence[Event]) -> list[tuple[int, int]]:
    """(event index, kind) of each draw from the live wall: a draw right after a discard (or
    the deal); a draw after a kan is a replacement tile from the dead wall."""
    out = []
    prev = "start_kyoku"
    for i, e in enumerate(events):
        if e.type == "tsumo" and prev in ("dahai", "start_kyoku"):
            assert e.pai is not None
            out.append((i, T.kind_of(e.pai)))
        if e.type not in ("dora", "reach_accepted"):
            prev = e.type
    return out


def _visible(rnd: RiichiRound, seat: int) -> np.ndarray:
    """Copies of each kind ``seat`` sees: its hand, uncalled discards, melds, indicators."""
    seen = np.zeros(KINDS, dtype=np.int64)
    tiles = list(rnd.hands[seat]) + list(rnd.dora_markers)
    for s in range(rnd.players):
        tiles += [t for t, c in zip(rnd.rivers[s], rnd.river_called[s]) if not c]
        tiles += [t for m in rnd.melds[s] for t in m.tiles]
    for t in tiles:
        seen[T.kind_of(t)] += 1
    return seen


def _dora_of(indicator: int, players: int) -> int:
    k = T.kind_of(indicator)
    if players == 3 and k in (0, 8):
        return 8 - k  # 2m-8m are not in the three-player set
    return T.dora_from_indicator(k)


def _check_full(x: np.ndarray, rnd: RiichiRound, seat: int) -> None:
    n = rnd.players
    assert x.shape == (PLANES, KINDS) and x.dtype == np.float32
    assert np.isin(x[:-1], (0.0, 1.0)).all()  # packs as uint8, the last plane × 70
    assert np.allclose(x[-1], rnd.wall.remaining / WALL_SCALE)
    for r in range(4):
        if r >= n:
            assert not x[4 * r : 4 * r + 4].any() and not x[88 + 11 * r : 99 + 11 * r].any()
            continue
        s = (seat + r) % n
        hand = x[4 * r : 4 * r + 4].sum(axis=0)
        assert np.array_equal(hand, rnd.counts[s]) and hand.sum() == len(rnd.hands[s])
        reds = {T.kind_of(t) for t in rnd.hands[s] if T.is_red(t)}
        assert set(np.flatnonzero(x[16 + r])) == reds
        river = rnd.rivers[s]
        assert x[20 + 4 * r : 24 + 4 * r].sum() == len(river)
        for j in range(4):
            row = x[36 + 4 * r + j]
            if j < len(river):
                assert row.sum() == 1 and row[T.kind_of(river[-1 - j])] == 1
            else:
                assert not row.any()
        assert x[52 + 4 * r : 56 + 4 * r].sum() == sum(len(m.tiles) for m in rnd.melds[s])
        assert x[68 + r].all() == rnd.riichi[s] and x[68 + r].any() == rnd.riichi[s]
        scores = x[88 + 11 * r : 99 + 11 * r]
        assert scores.all(axis=1).sum() == 1 and scores.sum() == KINDS
        assert scores[score_interval(rnd.scores[s])].all()
    dora = np.zeros(KINDS)
    for t in rnd.dora_markers:
        dora[_dora_of(t, n)] += 1
    assert np.array_equal(x[DORA : DORA + 4].sum(axis=0), np.minimum(dora, 4))
    ura = np.zeros(KINDS)
    for t in rnd.wall.ura[: len(rnd.dora_markers)]:
        ura[_dora_of(t, n)] += 1
    assert np.array_equal(x[URA : URA + 2].sum(axis=0), np.minimum(ura, 2))
    walls = x[WALL : WALL + 10]
    assert walls.sum() == min(10, rnd.wall.remaining) and (walls.sum(axis=1) <= 1).all()
    own_turn = rnd.turn == seat and rnd.drawn is not None
    assert x[132].sum() == own_turn
    assert x[133].sum() == (rnd.phase in ("claim", "rob"))
    for block, at in ((134, None), (138, rnd.bakaze), (142, (seat - rnd.oya) % n)):
        assert x[block : block + 4].all(axis=1).sum() == 1
        if at is not None:
            assert x[block + at].all()
    assert x[146:149, 0].sum() == min(rnd.honba, 3) and x[149:152, 0].sum() == min(rnd.kyotaku, 3)
    assert x[152 + min(rnd.kyoku, 3)].all() and x[152:156].sum() == KINDS


def _check_access(full: np.ndarray, rnd: RiichiRound, seat: int, rng: random.Random) -> bool:
    """The "removed" and "random" variants; True when the random deal differs from the real."""
    removed = encode_riichi(rnd, seat, "removed")
    assert not removed[list(HIDDEN_PLANES)].any()
    assert np.array_equal(removed[PUBLIC], full[PUBLIC])
    rand = encode_riichi(rnd, seat, "random", rng)
    assert np.array_equal(rand[PUBLIC], full[PUBLIC])
    assert np.isin(rand[:-1], (0.0, 1.0)).all()
    n = rnd.players
    hidden = np.zeros(KINDS, dtype=np.int64)
    for r in range(1, n):
        hand = rand[4 * r : 4 * r + 4].sum(axis=0).astype(np.int64)
        assert hand.sum() == len(rnd.hands[(seat + r) % n])  # same hand sizes
        hidden += hand
    walls = rand[WALL : WALL + 10]
    assert walls.sum() == min(10, rnd.wall.remaining) and (walls.sum(axis=1) <= 1).all()
    hidden += walls.sum(axis=0).astype(np.int64)
    assert (hidden + _visible(rnd, seat) <= 4).all()
    reds = rand[16:20].sum(axis=0) + sum(
        np.eye(KINDS)[T.kind_of(t)] for t in _visible_tiles(rnd, seat) if T.is_red(t)
    )
    assert (reds <= 1).all()
    return not np.array_equal(rand[list(HIDDEN_PLANES)], full[list(HIDDEN_PLANES)])


def _visible_tiles(rnd: RiichiRound, seat: int) -> list[int]:
    """Visible tiles outside the own hand (the own hand's reds are in row 16 already)."""
    out = list(rnd.dora_markers)
    for s in range(rnd.players):
        out += [t for t, c in zip(rnd.rivers[s], rnd.river_called[s]) if not c]
        out += [t for m in rnd.melds[s] for t in m.tiles]
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_planes_follow_the_table_and_the_wall_rows_are_the_next_draws(seed: int) -> None:
    assert ENCODER == "mzplanes_riichi@1" and PLANES == 157
    rng = random.Random(seed)
    predictions: list[tuple[RiichiRound, int, list[int]]] = []
    differs = checked = 0
    for _game, rnd, seat in _decisions(seed):
        full = encode_riichi(rnd, seat)
        _check_full(full, rnd, seat)
        differs += _check_access(full, rnd, seat, rng)
        checked += 1
        walls = full[WALL : WALL + 10]
        predictions.append((rnd, len(rnd.events), [int(k) for k in walls.argmax(axis=1)[
            walls.any(axis=1)]]))
    assert checked > 200 and differs > 0.9 * checked
    verified = 0
    draws_of: dict[int, list[tuple[int, int]]] = {}
    for rnd, at, predicted in predictions:
        draws = draws_of.setdefault(id(rnd), _ordinary_draws(rnd.events))
        later = [k for i, k in draws if i >= at]
        assert later[: len(predicted)] == predicted[: len(later)]
        verified += bool(later and predicted)
    assert verified > 0.8 * len(predictions)


def test_dora_kinds_wrap_in_each_group() -> None:
    cases = {"9m": "1m", "9p": "1p", "9s": "1s", "0m": "6m", "4z": "1z", "3z": "4z", "7z": "5z",
             "5z": "6z", "6z": "7z"}
    for indicator, dora in cases.items():
        (i,) = T.parse(indicator)
        (d,) = T.parse(dora)
        assert dora_kind(i) == T.kind_of(d)
    assert dora_kind(T.parse("1m")[0], players=3) == 8 and dora_kind(8, players=3) == 0
    game = RiichiGame(TENHOU, seed=4)
    rnd = game.round
    assert rnd is not None
    rnd.dora_markers = T.parse("9m4z7z9m")  # as if three kans had revealed more
    x = encode_riichi(rnd, rnd.oya)
    expected = np.zeros((4, KINDS), dtype=np.float32)
    expected[0:2, 0] = 1  # 1m twice
    expected[0, 27] = expected[0, 31] = 1  # East, haku
    assert np.array_equal(x[DORA : DORA + 4], expected)


def test_three_players_leave_the_fourth_seat_empty() -> None:
    for n_checked, (_game, rnd, seat) in enumerate(_decisions(3, TENHOU_SANMA)):
        x = encode_riichi(rnd, seat)
        _check_full(x, rnd, seat)
        assert not x[[12, 13, 14, 15, 19, 32, 33, 34, 35, 48, 49, 50, 51, 64, 65, 66, 67, 71]].any()
        assert safety_planes_riichi(rnd, seat)[2].sum() == 0
        if n_checked > 300:
            break


def _ev(kind: EventType, actor: int | None = None, pai: str | None = None, **kw: Any) -> Event:
    return Event(kind, actor=actor, pai=None if pai is None else T.parse(pai)[0], **kw)


def test_safe_kinds_on_a_hand_made_round() -> None:
    k = {name: T.kind_of(T.parse(name)[0]) for name in ("1z", "9m", "5p", "1s", "2s", "3s", "3z",
                                                          "7z", "4p")}
    ev = [Event("start_kyoku", bakaze=0, kyoku=0, honba=0, kyotaku=0, oya=0)]
    ev += [_ev("tsumo", 0, "1z"), _ev("dahai", 0, "1z")]  # passed by 1 before its discard
    assert safe_kinds(ev, 1) == set()  # the window is still open
    ev += [_ev("tsumo", 1, "9m")]
    assert safe_kinds(ev, 1) == {k["1z"]}
    ev += [_ev("dahai", 1, "9m")]  # its own discard: furiten for good; the pass is forgotten
    assert safe_kinds(ev, 1) == {k["9m"]}
    assert safe_kinds(ev, 0) == {k["1z"]}
    ev += [_ev("tsumo", 2, "0p"), _ev("dahai", 2, "0p"), Event("none", actor=1)]
    ev += [Event("pon", actor=3, target=2, pai=T.parse("0p")[0], consumed=tuple(T.parse("55p")))]
    ev += [_ev("dahai", 3, "1s"), _ev("tsumo", 0, "2s"), _ev("dahai", 0, "2s")]
    assert safe_kinds(ev, 1) == {k["9m"], k["5p"], k["1s"]}  # 2s: window open
    assert safe_kinds(ev, 3) == {k["1s"]}  # what it passed (5p, called) ended at its discard
    ev += [_ev("tsumo", 1, "3s"), _ev("reach", 1), _ev("dahai", 1, "3s")]
    ev += [_ev("reach_accepted", 1), _ev("tsumo", 2, "3z"), _ev("dahai", 2, "3z")]
    ev += [_ev("tsumo", 3, "4p"), _ev("ankan", 3, consumed=tuple(T.parse("4444p")))]
    ev += [_ev("dora", dora_marker=T.parse("1m")[0]), _ev("tsumo", 3, "5p")]
    ev += [_ev("kakan", 3, "5p", consumed=tuple(T.parse("055p"))), _ev("tsumo", 3, "7z")]
    riichi = {k["9m"], k["3s"], k["3z"], k["5p"]}  # a closed kan's 4p proves nothing
    assert safe_kinds(ev, 1) == riichi
    ev += [_ev("dahai", 3, "7z"), _ev("tsumo", 0, "8p"), _ev("dahai", 0, "8p")]
    ev += [_ev("tsumo", 1, "6s")]
    riichi |= {k["7z"], T.kind_of(T.parse("8p")[0])}
    assert safe_kinds(ev, 1) == riichi
    ev += [_ev("dahai", 1, "6s")]  # in riichi its own discard forgets nothing
    riichi.add(T.kind_of(T.parse("6s")[0]))
    assert safe_kinds(ev, 1) == riichi
    ev += [_ev("tsumo", 2, "4p"), _ev("dahai", 2, "4p")]
    ev += [Event("hora", actor=1, target=2, pai=T.parse("4p")[0])]
    assert safe_kinds(ev, 1) == riichi  # won on: not passed
    ev += [Event("end_kyoku"), Event("start_kyoku", bakaze=0, kyoku=1, honba=0, kyotaku=0, oya=1)]
    assert safe_kinds(ev, 1) == set()  # a new hand


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_safe_kinds_never_hold_a_win_the_engine_allows(seed: int) -> None:
    """A kind a player is offered a ron on (taken or not), or wins on, is never in its safe
    set; every safe kind is either no wait of that player or the player is furiten; and a ron
    let go by is in the set once its window closes."""
    offers: list[tuple[RiichiRound, int, int, int]] = []
    safe_total = 0
    for game, rnd, seat in _decisions(seed, length="hanchan"):
        planes = safety_planes_riichi(rnd, seat)
        assert planes.shape == (SAFETY_PLANES, KINDS) and planes.dtype == np.uint8
        for r in range(1, 4):
            assert set(np.flatnonzero(planes[r - 1])) == safe_kinds(rnd.events, (seat + r) % 4)
        for d in game.pending():
            if d.seat == seat and any(e.type == "hora" and e.target != seat for e in d.legal):
                tile = next(e.pai for e in d.legal if e.type == "hora")
                assert tile is not None
                assert T.kind_of(tile) not in safe_kinds(rnd.events, seat)
                offers.append((rnd, seat, T.kind_of(tile), len(rnd.events)))
        for s in range(4):
            if len(rnd.hands[s]) % 3 != 1:
                continue  # mid-turn: it cannot ron now
            safe = safe_kinds(rnd.events, s)
            safe_total += len(safe)
            assert not (safe & set(rnd.waits_of(s))) or rnd._furiten(s)
    rons = 0
    for i, e in enumerate(game.events):
        if e.type == "hora" and e.actor != e.target:
            assert e.pai is not None and e.actor is not None
            assert T.kind_of(e.pai) not in safe_kinds(game.events[:i], e.actor)
            rons += 1
    let_go = 0
    for rnd, seat, kind, at in offers:
        if rnd.events[at].type != "hora":  # the window closed without a win
            assert kind in safe_kinds(rnd.events[: at + 1], seat)
            let_go += 1
    assert rons > 0 and let_go > 0 and safe_total > 0
