"""Weighted MCR worlds: the speed player's reading of the discards, and worlds that still read
no hidden tile."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace

import pytest

from tenpai import tiles as T
from tenpai.agents.efficiency import EfficiencyAgent
from tenpai.events import Event
from tenpai.hand import shanten_mcr
from tenpai.rules.mcr.flow.round import MCRRound
from tenpai.rules.mcr.flow.rules import BOTZONE, MCR_OFFICIAL, MCRRules
from tenpai.rules.mcr.game import MCRGame
from tenpai.search.mcr import compiled
from tenpai.search.mcr.agent import MCRSearchAgent, make_search_mcr_agent
from tenpai.search.mcr.reading import (
    SCORED_PER_SEAT,
    Evidence,
    ShantenReading,
    draw_speed_hidden,
    turns_taken,
)
from tenpai.search.mcr.settings import MCRSearchSettings
from tenpai.search.mcr.worlds import HiddenDraw, draw_hidden, reshuffled_wall, world_view

from .test_mcr_search import CAPPED, _swap_hidden, _table_at

WEIGHTED = replace(CAPPED, worlds_mode="weighted", pool=4)
SPEED = replace(WEIGHTED, worlds_mode="speed")
HISTORY = replace(WEIGHTED, worlds_mode="history")


def _positions(rules: MCRRules, seed: int, every: int = 3) -> list[tuple[MCRRound, int]]:
    """Copies of the table at every ``every``-th discard decision of a seeded game of four
    efficiency agents (speed players), with the deciding seat."""
    from tenpai.engine.snapshot import clone

    game = MCRGame(rules, seed=seed)
    agents = [EfficiencyAgent(s) for s in range(4)]
    out: list[tuple[MCRRound, int]] = []
    n = 0
    while not game.done:
        pending = game.pending()
        for d in pending:
            if any(e.type == "dahai" for e in d.legal):
                n += 1
                if n % every == 0:
                    assert game.round is not None
                    out.append((clone(game.round), d.seat))
        game.step({d.seat: agents[d.seat].act(d.observation, d.legal) for d in pending})
    return out


def _truth(table: MCRRound, seat: int) -> HiddenDraw:
    others = [s for s in range(4) if s != seat]
    return HiddenDraw({s: list(table.hands[s]) for s in others}, {}, [])


def test_a_hands_discard_probabilities_sum_to_one_and_favour_the_best_shanten() -> None:
    reading = ShantenReading(miss=0.2)
    hands = 0
    for table, seat in _positions(BOTZONE, 5, every=2):
        counts = T.counts34(table.hands[seat])
        if sum(counts) % 3 != 2:
            continue  # a hand about to discard holds 3n + 2 tiles
        held = [k for k in range(34) if counts[k]]
        p = {k: math.exp(reading.discard_log_p(counts, k)) for k in held}
        assert sum(p.values()) == pytest.approx(1.0)
        keep = [k for k in held if p[k] == max(p.values())]
        assert all(p[k] <= 0.2 * p[keep[0]] + 1e-12 for k in held if k not in keep)
        hands += 1
    assert hands >= 10
    with pytest.raises(ValueError, match="cannot throw"):
        reading.discard_log_p([0] * 34, 3)


def test_the_evidence_stops_where_the_hand_is_no_longer_known() -> None:
    """Latest first; through tsumogiri; including the first discard from the hand; a call
    stops the walk; without tsumogiri flags (the Botzone view) only the latest counts."""
    def dahai(s: int, t: int, tsumogiri: bool | None) -> Event:
        return Event("dahai", actor=s, pai=t, tsumogiri=tsumogiri)

    m1, m2, m3, p5 = (T.from_mjai(x) for x in ("1m", "2m", "3m", "5p"))
    events = [dahai(1, m1, False), Event("pon", actor=1, target=2, pai=p5,
                                          consumed=(p5, p5)),
              dahai(1, m2, False), dahai(1, m3, True), dahai(2, m1, False),
              dahai(2, m2, False), dahai(2, m3, True)]
    ev = ShantenReading.evidence(events, [1, 2, 3])
    assert ev.discards == {1: (T.kind_of(m3), T.kind_of(m2)),
                           2: (T.kind_of(m3), T.kind_of(m2))}
    assert ev.scored == 4
    blind = [replace(e, tsumogiri=None) if e.type == "dahai" else e for e in events]
    assert ShantenReading.evidence(blind, [1, 2]).discards == {1: (T.kind_of(m3),),
                                                              2: (T.kind_of(m3),)}
    chain = [dahai(3, T.from_mjai(x), True) for x in ("1s", "2s", "3s", "4s", "5s", "6s")]
    assert len(ShantenReading.evidence(chain, [3]).discards[3]) == SCORED_PER_SEAT


def test_the_reading_favours_the_real_hands_of_speed_players() -> None:
    """Against four efficiency agents the real hands explain their discards better than the
    fair worlds do: in most positions with evidence the truth's log weight is above the mean
    of 32 fair draws."""
    reading = ShantenReading(miss=0.1)
    above, gaps = 0, []
    positions = _positions(BOTZONE, 11, every=2) + _positions(BOTZONE, 12, every=2)
    for table, seat in positions:
        view = world_view(table, seat)
        ev = reading.evidence(table._observe(seat).events, view.others)
        if ev.scored < 3:
            continue
        truth = reading.log_weight(ev, _truth(table, seat))
        fair = sum(reading.log_weights(ev, [draw_hidden(view, j) for j in range(32)])) / 32
        above += truth > fair
        gaps.append(truth - fair)
    assert len(gaps) >= 40
    assert above >= 0.8 * len(gaps), (above, len(gaps))
    assert sum(gaps) / len(gaps) > 1.0


@pytest.mark.parametrize("settings", [WEIGHTED, SPEED], ids=["weighted", "speed"])
@pytest.mark.parametrize(("rules", "seed", "kind"), [
    (BOTZONE, 3, "dahai"), (MCR_OFFICIAL, 4, "dahai"), (BOTZONE, 5, "chi"),
])
def test_hidden_tiles_never_change_the_weighted_worlds(rules: MCRRules, seed: int,
                                                       kind: str,
                                                       settings: MCRSearchSettings) -> None:
    table = _table_at(rules, seed, 0, 3 if kind == "dahai" else 1, kind)
    twin = _swap_hidden(table, 0)
    agent = MCRSearchAgent(settings, seed=7)
    draws = list(agent.hidden_draws(table, world_view(table, 0)))
    assert draws == list(agent.hidden_draws(twin, world_view(twin, 0)))
    assert len(draws) == settings.worlds and len(agent.effective_sizes) == 2
    d = next(d for d in table.pending() if d.seat == 0)
    cands = list(dict.fromkeys(d.legal))[:3]
    assert agent.values(table, 0, cands) == agent.values(twin, 0, cands)


def test_a_pick_played_twice_is_played_on_two_walls() -> None:
    table = _table_at(BOTZONE, 3, 0, 3, "dahai")
    drawn = draw_hidden(world_view(table, 0), 5)
    a, b = reshuffled_wall(drawn, 1), reshuffled_wall(drawn, 2)
    assert a.hands == b.hands == drawn.hands and a.kong_tiles == drawn.kong_tiles
    assert Counter(a.wall) == Counter(b.wall) == Counter(drawn.wall) and a.wall != b.wall


def test_the_pool_is_resampled_towards_the_heavy_draws() -> None:
    """Over decisions with evidence, the played worlds' mean log weight is above the pool's."""
    agent = MCRSearchAgent(replace(WEIGHTED, worlds=8), seed=1)
    assert agent.reading is not None
    lifted = 0
    checked = 0
    for table, seat in _positions(BOTZONE, 13, every=4):
        view = world_view(table, seat)
        ev = agent.reading.evidence(table._observe(seat).events, view.others)
        if ev.scored < 3:
            continue
        played = [d for _s, d in agent.hidden_draws(table, view)]
        pool = [draw_hidden(view, agent.world_seed(table, seat, 100_000 + j))
                for j in range(agent.settings.pool * 8)]
        mean_played = sum(agent.reading.log_weights(ev, played)) / len(played)
        mean_pool = sum(agent.reading.log_weights(ev, pool)) / len(pool)
        lifted += mean_played > mean_pool
        checked += 1
    assert checked >= 10 and lifted >= 0.9 * checked


@pytest.mark.parametrize("settings", [WEIGHTED, SPEED, HISTORY],
                         ids=["weighted", "speed", "history"])
def test_a_weighted_search_plays_legal_reproducible_games(settings: MCRSearchSettings) -> None:
    from .test_mcr_search import _game

    first, agent = _game(21, settings)
    again, _ = _game(21, settings)
    assert first == again
    assert sum(d.searched for d in agent.log) > 0 and agent.effective_sizes
    assert all(1.0 <= e <= settings.pool * settings.worlds + 1e-9
               for e in agent.effective_sizes)


@pytest.mark.skipif(not compiled.available(), reason=compiled.unavailable_reason())
@pytest.mark.parametrize("mode", ["weighted", "speed", "history"])
def test_weighted_worlds_play_in_the_core_as_on_copied_worlds(mode: str) -> None:
    settings = replace(WEIGHTED, policy="c:greedy", worlds_mode=mode)
    fast = MCRSearchAgent(settings, seed=3)
    slow = MCRSearchAgent(settings, seed=3, exported_worlds=False)
    for table, seat in _positions(BOTZONE, 14, every=9):
        d = next(d for d in table.pending() if d.seat == seat)
        cands = list(dict.fromkeys(d.legal))[:3]
        assert fast.values(table, seat, cands, d.legal) == slow.values(table, seat, cands)
    assert fast.playout.exported > 0  # type: ignore[union-attr]


@pytest.mark.parametrize(("env", "says"), [
    ({"TENPAI_SEARCH_MCR_WORLDS_MODE": "psychic"}, "WORLDS_MODE"),
    ({"TENPAI_SEARCH_MCR_POOL": "0"}, "POOL"),
    ({"TENPAI_SEARCH_MCR_MISS": "0"}, "MISS"),
    ({"TENPAI_SEARCH_MCR_MISS": "1"}, "MISS"),
    ({"TENPAI_SEARCH_MCR_WORLDS_MODE": "weighted", "TENPAI_SEARCH_MCR_SIGHT": "hands"},
     "SIGHT"),
    ({"TENPAI_SEARCH_MCR_WORLDS_MODE": "speed", "TENPAI_SEARCH_MCR_SIGHT": "all"}, "SIGHT"),
])
def test_bad_weighting_settings_are_one_line_errors(env: dict[str, str], says: str) -> None:
    with pytest.raises(ValueError, match=says) as err:
        make_search_mcr_agent(0, env)
    assert "\n" not in str(err.value)


def test_the_botzone_bot_weighs_its_worlds_on_its_seat_state() -> None:
    """The bot's view has no tsumogiri flags: the latest discards alone are scored, and the
    search runs with no error."""
    from .test_mcr_search import play_botzone_match

    agent = MCRSearchAgent(SPEED, seed=0)
    play_botzone_match(agent)
    assert agent.effective_sizes


def test_a_reading_needs_a_share_of_misses_strictly_between_0_and_1() -> None:
    for bad in (0.0, 1.0, -0.5):
        with pytest.raises(ValueError, match="miss"):
            ShantenReading(bad)
    assert Evidence({}).scored == 0


def test_speed_hands_stay_in_the_unseen_tiles_and_are_closer_to_ready() -> None:
    """Over seeded positions: a speed world holds exactly the unseen tiles (hands, kongs and
    wall together), and its opponents' hands are on average nearer to ready than a fair
    world's of the same seed."""
    reading = ShantenReading()
    fair_sh, speed_sh = [], []
    for table, seat in _positions(BOTZONE, 15, every=2):
        view = world_view(table, seat)
        turns = turns_taken(table._observe(seat).events, view.others)
        for j in range(4):
            fast = draw_speed_hidden(view, j, turns, reading)
            fair = draw_hidden(view, j)
            held = Counter(fast.wall)
            for s in view.others:
                held.update(fast.hands[s])
                assert len(fast.hands[s]) == len(fair.hands[s])
                if turns[s]:
                    speed_sh.append(shanten_mcr(T.counts34(fast.hands[s])))
                    fair_sh.append(shanten_mcr(T.counts34(fair.hands[s])))
            for groups in fast.kong_tiles.values():
                for g in groups:
                    held.update(g)
            assert held == Counter((*view.tiles, *view.flowers))
    assert len(speed_sh) >= 100
    assert sum(speed_sh) / len(speed_sh) < sum(fair_sh) / len(fair_sh) - 1.0


def test_turns_count_each_opponents_discards() -> None:
    events = [Event("dahai", actor=1, pai=0), Event("dahai", actor=2, pai=1),
              Event("dahai", actor=1, pai=2), Event("tsumo", actor=3, pai=3)]
    assert turns_taken(events, [1, 2, 3]) == {1: 2, 2: 1, 3: 0}
