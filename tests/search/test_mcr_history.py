"""The history worlds of ``search_mcr`` (``WORLDS_MODE=history``, tenpai.search.mcr.history)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.rules.mcr.flow.rules import BOTZONE, MCR_OFFICIAL, MCRRules
from tenpai.search.mcr.agent import MCRSearchAgent
from tenpai.search.mcr.history import HistoryWalk, draw_history_hidden, tsumogiri_known
from tenpai.search.mcr.reading import ShantenReading, turns_taken
from tenpai.search.mcr.worlds import draw_hidden, world_view

from .test_mcr_reading import HISTORY, _positions
from .test_mcr_search import _swap_hidden, _table_at


def _tile(name: str) -> int:
    return T.parse(name)[0]


def test_a_walk_reads_where_each_discard_came_from() -> None:
    """Latest first: a tsumogiri, a discard from the hand, one after a chow (the chow's two
    tiles are read back into the hand), one after a kong's replacement draw, and the walk
    stops at the kong."""
    e = [Event("ankan", actor=1, consumed=(0, 1, 2, 3)),
         Event("tsumo", actor=1),
         Event("dahai", actor=1, pai=_tile("9p"), tsumogiri=False),
         Event("dahai", actor=2, pai=_tile("3m"), tsumogiri=False),
         Event("chi", actor=1, target=2, pai=_tile("3m"), consumed=(_tile("1m"), _tile("2m"))),
         Event("dahai", actor=1, pai=_tile("7z"), tsumogiri=False),
         Event("tsumo", actor=2),
         Event("dahai", actor=2, pai=_tile("5s"), tsumogiri=True),
         Event("tsumo", actor=3),
         Event("dahai", actor=3, pai=_tile("6s"), tsumogiri=False),
         Event("tsumo", actor=0),
         Event("dahai", actor=0, pai=_tile("4p"), tsumogiri=False),
         Event("tsumo", actor=1),
         Event("dahai", actor=1, pai=_tile("8s"), tsumogiri=False),
         Event("tsumo", actor=2),
         Event("dahai", actor=2, pai=_tile("1z"), tsumogiri=False),
         Event("tsumo", actor=3),
         Event("dahai", actor=3, pai=_tile("2z"), tsumogiri=False),
         Event("tsumo", actor=0),
         Event("dahai", actor=0, pai=_tile("3z"), tsumogiri=False),
         Event("tsumo", actor=1),
         Event("dahai", actor=1, pai=_tile("9s"), tsumogiri=True),
         Event("dahai", actor=2, pai=_tile("4z"), tsumogiri=False)]   # its window is open
    walk = HistoryWalk(e, 1, known=True)
    k = T.kind_of
    assert [(kind, origin, taken) for kind, origin, taken, _p in walk.steps] == [
        (k(_tile("9s")), "drawn", ()),
        (k(_tile("8s")), "hand", ()),
        (k(_tile("7z")), "call", (k(_tile("1m")), k(_tile("2m")))),
        (k(_tile("9p")), "hand", ())]
    passed = [p for *_x, p in walk.steps]
    assert passed[0] == ()   # the 4z still waits for its answers
    # seat 0 sits on seat 1's left: its discards could be chowed
    assert passed[1] == ((k(_tile("1z")), False), (k(_tile("2z")), False),
                         (k(_tile("3z")), True))
    # the 5s, the 6s and the 4p, passed by seat 1
    assert passed[2] == ((k(_tile("5s")), False), (k(_tile("6s")), False),
                         (k(_tile("4p")), True))
    # the 3m went to seat 1's own chow: no pass
    assert passed[3] == ()
    assert HistoryWalk(e, 1, known=False).steps[1][1] == "unknown"


def test_tsumogiri_is_known_only_where_the_view_marks_some() -> None:
    e = [Event("dahai", actor=1, pai=0, tsumogiri=False),
         Event("dahai", actor=0, pai=4, tsumogiri=True)]
    assert not tsumogiri_known(e, 0)
    assert tsumogiri_known(e, 2)


def test_a_passed_call_that_would_have_sped_the_hand_costs_a_miss() -> None:
    """A speed player holding a pair of 5p and a pung's worth of help from it would have
    punged the 5p it let pass: its hand is worth ``miss`` less than one without the pair."""
    reading = ShantenReading(miss=0.5)
    events = [Event("tsumo", actor=1), Event("dahai", actor=1, pai=_tile("9s"), tsumogiri=True),
              Event("tsumo", actor=2), Event("dahai", actor=2, pai=_tile("5p"), tsumogiri=False),
              Event("tsumo", actor=3)]
    walk = HistoryWalk(events, 1, known=True)
    pair = T.parse("55p123m456s79m11z3z")
    other = T.parse("57p123m456s79m11z3z")
    rng = random.Random(0)
    with_pair = walk.log_weight(reading, pair, rng)
    without = walk.log_weight(reading, other, rng)
    no_pass = HistoryWalk(events[:2], 1, known=True)
    assert with_pair == pytest.approx(no_pass.log_weight(reading, pair, rng) + -0.6931471805599453)
    assert without == pytest.approx(no_pass.log_weight(reading, other, rng))


def test_the_real_hands_explain_the_whole_history_better_than_fair_draws() -> None:
    """Against four efficiency agents (speed players): in most positions the real hands'
    log weight is above the mean of 16 fair draws'."""
    reading = ShantenReading(miss=0.5)
    rng = random.Random(1)
    above = checked = 0
    for table, seat in _positions(BOTZONE, 11, every=3):
        view = world_view(table, seat)
        events = table._observe(seat).events
        known = tsumogiri_known(events, seat)
        for s in view.others:
            walk = HistoryWalk(events, s, known)
            if len(walk.steps) < 4:
                continue
            truth = walk.log_weight(reading, table.hands[s], rng)
            fair = [walk.log_weight(reading, draw_hidden(view, j).hands[s], rng)
                    for j in range(16)]
            above += truth > sum(fair) / len(fair)
            checked += 1
    assert checked >= 40
    assert above >= 0.8 * checked, (above, checked)


@pytest.mark.parametrize(("rules", "seed"), [(BOTZONE, 15), (MCR_OFFICIAL, 16)])
def test_history_worlds_hold_exactly_the_unseen_tiles(rules: MCRRules, seed: int) -> None:
    reading = ShantenReading()
    for table, seat in _positions(rules, seed, every=4):
        view = world_view(table, seat)
        events = table._observe(seat).events
        walks = {s: HistoryWalk(events, s, True) for s in view.others}
        turns = turns_taken(events, view.others)
        sizes: list[float] = []
        drawn = draw_history_hidden(view, 3, walks, turns, reading, 4, sizes)
        assert drawn == draw_history_hidden(view, 3, walks, turns, reading, 4)
        held = Counter(drawn.wall)
        for s, size in zip(view.others, view.sizes):
            assert len(drawn.hands[s]) == size
            assert not any(T.is_flower(t) for t in drawn.hands[s])
            held.update(drawn.hands[s])
        for groups in drawn.kong_tiles.values():
            for g in groups:
                held.update(g)
        assert held == Counter((*view.tiles, *view.flowers))
        assert all(1.0 <= x <= 4.0 + 1e-9 for x in sizes)


def test_hidden_tiles_never_change_the_history_worlds() -> None:
    table = _table_at(BOTZONE, 3, 0, 3, "dahai")
    twin = _swap_hidden(table, 0)
    agent = MCRSearchAgent(HISTORY, seed=7)
    draws = list(agent.hidden_draws(table, world_view(table, 0)))
    assert draws == list(agent.hidden_draws(twin, world_view(twin, 0)))
    assert len(draws) == HISTORY.worlds


def test_the_botzone_bot_reads_histories_on_its_seat_state() -> None:
    """The bot's view marks no discard tsumogiri: every drawn tile is read as unknown, and the
    search runs with no error."""
    from .test_mcr_search import play_botzone_match

    agent = MCRSearchAgent(HISTORY, seed=0)
    play_botzone_match(agent)
    assert agent.effective_sizes
