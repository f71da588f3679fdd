"""Three-player mjai (``tenhou_sanma``): the bot against the engine, the ``search`` agent on a
three-player stream, and the refusals of the other table size.

The whole-game test plays seeded three-player engine games; every event goes over the wire as
each seat sees it (masked, written as mjai JSON, read back) into one :class:`MjaiBot` per seat,
and at every engine decision the bot's rebuilt state — derived legal actions and every property
of its observation, the Norths set aside included — must equal the engine's, and the answer it
sends back must be one of the engine's legal actions.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tenpai.agents import make_agent
from tenpai.arena.record import play_scheduled
from tenpai.arena.runner import make_config
from tenpai.arena.schedule import GameKey
from tenpai.engine.observation import mask_event
from tenpai.events import Event
from tenpai.rules.riichi.game import RiichiGame
from tenpai.rules.riichi.ruleset import TENHOU, TENHOU_SANMA
from tenpai.serve.mjai.bot import BotError, MjaiBot
from tenpai.serve.mjai.legal import derive_legal
from tenpai.serve.mjai.observation import MjaiObservation
from tenpai.serve.mjai.process import live_processes
from tenpai.serve.mjai.tracker import SeatTracker, TrackerError
from tenpai.serve.mjai.wire import (
    action_to_mjai,
    dumps,
    event_to_wire,
    parse_action,
    parse_line,
    read_message,
)

from .helpers import REPO, write_wrapper

PROPS = (
    "hand", "counts", "drawn", "melds", "rivers", "riichi", "dora_markers", "scores",
    "wall_remaining", "bakaze", "kyoku", "honba", "kyotaku", "oya", "seat_wind", "events",
    "nukidora", "players", "rules",
)


def _key(e: Event) -> tuple[object, ...]:
    return (e.type, e.actor, e.target, e.pai, tuple(sorted(e.consumed)), e.tsumogiri, e.kind)


def _wire_lines(e: Event, seat: int, scores: list[int]) -> dict[str, Any]:
    """The event as an mjai server sends it to ``seat`` (``start_game`` with the seat id)."""
    if e.type == "start_game":
        return {"type": "start_game", "id": seat, "names": list(e.names)}
    if e.type == "end_game":
        return {"type": "end_game"}
    return event_to_wire(mask_event(e, seat), scores)


def _play(seed: int, agents: tuple[str, ...], seen: Counter[str]) -> tuple[int, int]:
    """One seeded three-player game through three bots; (decisions, nukidora decisions)."""
    game = RiichiGame(TENHOU_SANMA, seed=seed)
    bots = [MjaiBot(make_agent(a, seed * 3 + s), rules=TENHOU_SANMA)
            for s, a in enumerate(agents)]
    scores = [TENHOU_SANMA.starting_points] * 3
    fed = 0
    decisions = kita_offers = 0
    while True:
        new = game.events[fed:]
        fed = len(game.events)
        pending = {} if game.done else {d.seat: d for d in game.pending()}
        replies: dict[int, dict[str, Any] | None] = {}
        for e in new:
            seen[e.type] += 1
            if e.type == "start_kyoku" or e.type == "reach_accepted":
                scores = list(e.scores)
            elif e.type in ("hora", "ryukyoku"):
                scores = [s + d for s, d in zip(scores, e.deltas, strict=True)]
        for s, bot in enumerate(bots):
            objs = [_wire_lines(e, s, scores) for e in new if e.type != "none"]
            if not objs:
                continue
            # each message on its own line, as a stdio server writes them
            reply = None
            for obj in objs:
                (back,) = parse_line(dumps(obj))
                reply = bot.handle([back])
            replies[s] = reply
        if game.done:
            break
        answers = {}
        for s, d in pending.items():
            decisions += 1
            st = bots[s].tracker
            assert st is not None
            assert sorted(map(_key, derive_legal(st))) == sorted(map(_key, d.legal)), (
                seed, s, st.last)
            ob = MjaiObservation(st)
            for p in PROPS:
                assert getattr(ob, p) == getattr(d.observation, p), (seed, s, p)
            assert ob.visible_counts() == d.observation.visible_counts()
            if any(e.type == "nukidora" for e in d.legal):
                kita_offers += 1
            reply = replies.get(s)
            assert reply is not None, (seed, s, "no answer to a decision")
            action = parse_action(dumps(reply))
            assert action in d.legal, (seed, s, reply)
            answers[s] = action
        for s in range(3):
            if s not in pending:
                assert replies.get(s) is None, (seed, s, "an answer nobody asked for")
        game.step(answers)
    return decisions, kita_offers


def test_three_player_games_through_the_bot_match_the_engine() -> None:
    seen: Counter[str] = Counter()
    decisions = kita_offers = 0
    lineups = [("efficiency",) * 3, ("random", "efficiency", "random")]
    for seed in range(4):
        d, k = _play(seed, lineups[seed % 2], seen)
        decisions += d
        kita_offers += k
    assert decisions > 1000
    assert kita_offers > 0
    # the games must take the three-player paths, or the comparison proves little
    for t in ("nukidora", "pon", "reach_accepted", "hora", "ryukyoku"):
        assert seen[t] > 0, t
    assert seen["chi"] == 0


def _start(players: int, seat: int = 0) -> dict[str, Any]:
    hand = ["1m", "9m", "1p", "3p", "5p", "7p", "9p", "1s", "4s", "7s", "E", "N", "N"]
    return {
        "type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0,
        "dora_marker": "1s", "scores": [35000] * players,
        "tehais": [hand if s == seat else ["?"] * 13 for s in range(players)],
    }


def test_a_three_player_bot_refuses_a_four_player_stream_and_back() -> None:
    sanma = MjaiBot(make_agent("efficiency", 0), rules=TENHOU_SANMA)
    sanma.handle([{"type": "start_game", "id": 0}])
    with pytest.raises(BotError, match="deals 4 hands, not 3"):
        sanma.handle([_start(4)])
    yonma = MjaiBot(make_agent("efficiency", 0), rules=TENHOU)
    yonma.handle([{"type": "start_game", "id": 0}])
    with pytest.raises(BotError, match=r"deals 3 hands, not 4.*tenhou_sanma"):
        yonma.handle([_start(3)])
    with pytest.raises(BotError, match="seat 3 is not 0-2"):
        MjaiBot(make_agent("efficiency", 0), rules=TENHOU_SANMA).handle(
            [{"type": "start_game", "id": 3}])


def test_kita_is_read_as_nukidora_and_the_bot_answers_nukidora() -> None:
    bot = MjaiBot(make_agent("efficiency", 0), rules=TENHOU_SANMA)
    bot.handle([{"type": "start_game", "id": 0}])
    bot.handle([_start(3)])
    st = bot.tracker
    assert st is not None and st.wall_remaining == 55
    reply = bot.handle([{"type": "tsumo", "actor": 0, "pai": "N"}])
    legal = derive_legal(st)
    assert Event("nukidora", actor=0, pai=30) in legal
    assert not any(e.type == "chi" for e in legal)
    assert reply is not None
    # another seat's North, in mjai.app's spelling (no tile named): read as a North set aside
    other = MjaiBot(make_agent("efficiency", 0), rules=TENHOU_SANMA)
    other.handle([{"type": "start_game", "id": 1}])
    other.handle([_start(3, seat=1)])
    other.handle([{"type": "tsumo", "actor": 0, "pai": "?"}])
    other.handle([{"type": "kita", "actor": 0}])
    assert other.tracker is not None and other.tracker.nukidora[0] == [30]
    assert other.north_name == "kita" and bot.north_name == "nukidora"
    assert read_message({"type": "kita", "actor": 2, "pai": "N"}) == Event(
        "nukidora", actor=2, pai=30)
    assert dumps(action_to_mjai(Event("nukidora", actor=0, pai=30))) == \
        '{"type":"nukidora","actor":0,"pai":"N"}'


def test_tracker_refuses_chi_and_nukidora_where_they_cannot_be() -> None:
    st = SeatTracker(1, TENHOU_SANMA)
    st.apply(Event("start_game", names=("a", "b", "c")))
    st.apply(read_message(_start(3, seat=1)))
    st.apply(Event("tsumo", actor=0))
    st.apply(Event("dahai", actor=0, pai=0, tsumogiri=True))
    with pytest.raises(TrackerError, match="chi at a 3-player table"):
        st.apply(Event("chi", actor=1, target=0, pai=0, consumed=(4, 8)))
    yonma = SeatTracker(0, TENHOU)
    yonma.apply(Event("start_game", names=("a", "b", "c", "d")))
    yonma.apply(read_message(_start(4)))
    yonma.apply(Event("tsumo", actor=0, pai=33))
    with pytest.raises(TrackerError, match="nukidora under rules tenhou"):
        yonma.apply(Event("nukidora", actor=0, pai=30))


def test_search_answers_a_short_three_player_stream_without_a_rebuild_failure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The search agent (small budget, few worlds) over mjai at three seats: every decision
    of a seeded hand is answered legally and no stream fails to rebuild."""
    monkeypatch.setenv("TENPAI_SEARCH_BUDGET_MS", "20")
    monkeypatch.setenv("TENPAI_SEARCH_WORLDS", "2")
    monkeypatch.setenv("TENPAI_SEARCH_THRESHOLD", "1.0")
    agent = make_agent("search", 1)
    game = RiichiGame(TENHOU_SANMA, seed=5)
    bot = MjaiBot(agent, rules=TENHOU_SANMA)
    others = [make_agent("efficiency", s) for s in range(3)]
    scores = [TENHOU_SANMA.starting_points] * 3
    fed = answered = 0
    while not game.done and game.events.count(Event("end_kyoku")) < 1:
        new = game.events[fed:]
        fed = len(game.events)
        reply = None
        for e in new:
            if e.type == "start_kyoku":
                scores = list(e.scores)
            if e.type != "none":
                reply = bot.handle(parse_line(dumps(_wire_lines(e, 0, scores))))
        answers = {}
        for d in game.pending():
            if d.seat == 0:
                assert reply is not None
                action = parse_action(dumps(reply))
                assert action in d.legal
                answers[0] = action
                answered += 1
            else:
                answers[d.seat] = others[d.seat].act(d.observation, d.legal)
        game.step(answers)
    assert answered > 5
    assert agent.rebuild_failures == 0  # type: ignore[attr-defined]
    assert any(stat.searched for stat in agent.log)  # type: ignore[attr-defined]


def _cli(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tenpai", "mjai-bot", *args], input=stdin, text=True,
        capture_output=True, timeout=120, cwd=REPO,
        env={"PYTHONPATH": str(REPO / "src"), "PATH": "/usr/bin:/bin"},
    )


def test_cli_plays_three_players_and_refuses_the_other_table_size() -> None:
    start = json.dumps({"type": "start_game", "id": 0})
    ok = _cli(["--agent", "efficiency", "--preset", "tenhou_sanma"],
              "\n".join([start, json.dumps(_start(3)),
                         json.dumps({"type": "tsumo", "actor": 0, "pai": "N"})]) + "\n")
    assert ok.returncode == 0, ok.stderr
    answer = json.loads(ok.stdout.strip().splitlines()[-1])
    assert answer["type"] in ("nukidora", "dahai") and answer["actor"] == 0
    four = _cli(["--agent", "efficiency", "--preset", "tenhou_sanma"],
                start + "\n" + json.dumps(_start(4)) + "\n")
    assert four.returncode == 2
    assert "deals 4 hands, not 3" in four.stderr and len(four.stderr.strip().splitlines()) == 1
    three = _cli(["--agent", "efficiency"], start + "\n" + json.dumps(_start(3)) + "\n")
    assert three.returncode == 2 and "deals 3 hands, not 4" in three.stderr
    seat = _cli(["--agent", "efficiency", "--preset", "tenhou_sanma", "--seat", "3"])
    assert seat.returncode == 2 and "--seat 3" in seat.stderr


def test_arena_plays_our_three_player_bot_processes_as_mjai_seats(tmp_path: Path) -> None:
    """``mjai:tenpai mjai-bot --preset tenhou_sanma`` seats at a three-player arena table: the
    external-seat adapter sends the three-player stream, and the bots answer every decision
    legally (no protocol error of any kind) over a whole seeded game."""
    cmd = shlex.join([sys.executable, "-m", "tenpai", "mjai-bot", "--agent", "efficiency",
                      "--preset", "tenhou_sanma", "--seat-from-start-game"])
    wrapper = write_wrapper(tmp_path, "tenpai-sanma",
                            f"PYTHONPATH={shlex.quote(str(REPO / 'src'))} exec {cmd}")
    config, _ = make_config("riichi", [f"mjai:{wrapper}", "defensive", f"mjai:{wrapper}"], 3, 4,
                            {"preset": "tenhou_sanma"})
    record = play_scheduled("riichi", config.options, config.agents, 4, GameKey(0, 1))
    assert len(record.protocol) == 2
    for proto in record.protocol:
        assert proto.decisions > 20
        assert list(proto.errors) == [], proto.errors
    assert len(record.seats) == 3
    assert live_processes() == []


def test_a_north_set_aside_stands_like_a_call_and_passing_it_is_furiten() -> None:
    """While the others may ron it nothing changes; once its replacement draw follows it ends
    the first go-around (and every ippatsu), and a seat waiting on North that let it pass is
    furiten until it discards."""
    st = SeatTracker(1, TENHOU_SANMA)
    st.apply(Event("start_game", names=("a", "b", "c")))
    start = _start(3, seat=1)
    start["tehais"][1] = ["1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p", "E", "E", "N",
                          "N"]
    st.apply(read_message(start))
    assert st.waits() == (27, 30)
    st.apply(Event("tsumo", actor=0))
    st.apply(Event("nukidora", actor=0, pai=30))
    # the rob window: an ordinary ron on the North (ittsu), and nothing has changed yet
    assert derive_legal(st) == [Event("hora", actor=1, target=0, pai=30), Event("none")]
    assert st.first_go_around() and not st.any_call and not st.furiten()
    st.apply(Event("tsumo", actor=0))
    assert st.any_call and not st.first_go_around() and st.replacements == 1
    assert st.nukidora[0] == [30] and st.wall_remaining == 53
    assert st.furiten()


def test_the_bot_sets_a_north_aside_under_the_name_the_server_uses() -> None:
    """A server that offers ``kita`` in its ``possible_actions`` gets ``kita`` back; the tile
    set aside is the one the seat holds."""

    class SetNorthAside:
        def act(self, observation: object, legal: list[Event]) -> Event:
            return next(e for e in legal if e.type == "nukidora")

    for name in ("kita", "nukidora"):
        bot = MjaiBot(SetNorthAside(), rules=TENHOU_SANMA)  # type: ignore[arg-type]
        bot.handle([{"type": "start_game", "id": 0}])
        bot.handle([_start(3)])
        offered = [{"type": name, "actor": 0, "pai": "N"},
                   {"type": "dahai", "actor": 0, "pai": "N", "tsumogiri": True}]
        reply = bot.handle([{"type": "tsumo", "actor": 0, "pai": "N",
                             "possible_actions": offered}])
        assert reply == {"type": name, "actor": 0, "pai": "N"}
