"""Tables at chosen moments of seeded games played by ``efficiency``, and seeded games of a
searching agent against ``efficiency`` at an engine table or through the mjai bot (shared by
the tests of ``search`` and of ``mcts_pg``, tests/mcts/test_pg_agent.py)."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from tenpai import tiles as T
from tenpai.agents.efficiency import EfficiencyAgent
from tenpai.engine.flow import Decision
from tenpai.events import Event
from tenpai.rules.riichi.flow.round import RiichiRound
from tenpai.rules.riichi.game import RiichiGame
from tenpai.rules.riichi.ruleset import TENHOU, RiichiRules
from tenpai.search.worlds import hidden_slots

TONPUU = dataclasses.replace(TENHOU, length="tonpuu")
#: The scores of an all-last start (``start=LAST_HAND``): the game is one or a few hands.
LAST_HAND_SCORES = (32000, 25000, 23000, 20000)
LAST_HAND = (0, 3, 0, 0)


def tile(mjai: str) -> int:
    """The tile named ``mjai`` (``"5m"``, ``"E"``, ...): hand-written event streams read as mjai."""
    return T.from_mjai(mjai)


def tiles(*names: str) -> tuple[int, ...]:
    return tuple(tile(n) for n in names)


def dahai(actor: int, name: str, tsumogiri: bool = False) -> Event:
    return Event("dahai", actor=actor, pai=tile(name), tsumogiri=tsumogiri)


def tsumo(actor: int, name: str | None = None) -> Event:
    """A draw; ``name=None`` for a draw the deciding seat does not see."""
    return Event("tsumo", actor=actor, pai=None if name is None else tile(name))


#: Seat 0's deal in the hand-written streams; the others' are hidden (the deciding seat's masked
#: view).
HAND0 = tiles("1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "S", "W")


def decisions(seed: int, limit: int = 400, rules: RiichiRules = TONPUU
              ) -> Iterator[tuple[RiichiRound, Decision]]:
    """Every pending decision of a seeded efficiency game under ``rules`` (the round is live:
    copy to keep)."""
    game = RiichiGame(rules, seed=seed)
    agent = EfficiencyAgent(seed)
    steps = 0
    while not game.done and steps < limit:
        assert game.round is not None
        for d in game.pending():
            yield game.round, d
        game.step({d.seat: agent.act(d.observation, d.legal) for d in game.pending()})
        steps += 1


def find(pred: Callable[[RiichiRound, Decision], bool], seeds: range = range(40),
         rules: RiichiRules = TONPUU) -> tuple[RiichiRound, Decision]:
    """A copy of the first table of the seeded efficiency games where ``pred`` holds, and the
    copy's decision of that seat."""
    from tenpai.engine.snapshot import clone

    for seed in seeds:
        for rnd, d in decisions(seed, rules=rules):
            if pred(rnd, d):
                copy = clone(rnd)
                mine = next(x for x in copy.pending() if x.seat == d.seat)
                return copy, mine
    raise AssertionError("no such decision in the seeded games")


def swap_hidden_tiles(rnd: RiichiRound, seat: int) -> RiichiRound:
    """A copy of ``rnd`` where the next seat's first three concealed tiles and the next three
    tiles of the live wall have changed places: what ``seat`` has seen is the same, the hidden
    tiles are not (a search or a world sampler must not tell the two apart)."""
    from tenpai.engine.snapshot import clone

    other = clone(rnd)
    opp = (seat + 1) % rnd.players
    w = other.wall
    top = w.live[w._next:w._next + 3]
    hand = other.hands[opp]
    w.live[w._next:w._next + 3] = hand[:3]
    other.hands[opp] = top + hand[3:]
    return other


def hidden(rnd: RiichiRound, seat: int) -> Counter[int]:
    """The tiles ``seat`` cannot see at ``rnd``: the others' concealed tiles and the wall's
    hidden slots."""
    out: Counter[int] = Counter()
    for s in range(rnd.players):
        if s != seat:
            out.update(rnd.hands[s])
    for lst, a, b in hidden_slots(rnd):
        out.update(lst[a:b])
    return out


def fingerprint(rnd: RiichiRound) -> tuple[object, ...]:
    """Every hidden place of ``rnd`` (hands and wall), to tell two tables' deals apart."""
    w = rnd.wall
    return (tuple(tuple(h) for h in rnd.hands), tuple(w.live), tuple(w.dora), tuple(w.ura),
            tuple(w.rinshan))


def play_last_hand(agent: Any, seed: int, others_seed: int | None = None) -> list[Event]:
    """The events of a seeded all-last tonpuu game, ``agent`` in seat 0 against ``efficiency``
    (seeded ``others_seed``, by default ``seed + 1``); every answer is asserted legal and the
    game to end within 400 steps."""
    others = EfficiencyAgent(seed + 1 if others_seed is None else others_seed)
    game = RiichiGame(TONPUU, seed=seed, scores=LAST_HAND_SCORES, start=LAST_HAND)
    steps = 0
    while not game.done and steps < 400:
        answers = {}
        for d in game.pending():
            a = (agent if d.seat == 0 else others).act(d.observation, d.legal)
            assert a in d.legal
            answers[d.seat] = a
        game.step(answers)
        steps += 1
    assert game.done
    return game.events


def mjai_line(e: Event, seat: int = 0) -> str:
    """``e`` on the mjai wire as ``seat`` receives it (its own ``start_game`` carries its id)."""
    from tenpai.engine.observation import mask_event
    from tenpai.serve.mjai.wire import dumps, event_to_wire

    wire = event_to_wire(mask_event(e, seat))
    if e.type == "start_game":
        wire["id"] = seat
    return dumps(wire)


def mjai_stream_lines(seed: int) -> list[str]:
    """Seat 0's mjai stream of a short seeded all-last tonpuu game of efficiency players."""
    game = RiichiGame(TONPUU, seed=seed, scores=LAST_HAND_SCORES, start=LAST_HAND)
    agent = EfficiencyAgent(seed)
    while not game.done:
        game.step({d.seat: agent.act(d.observation, d.legal) for d in game.pending()})
    return [mjai_line(e) for e in game.events]


def _key(e: Event) -> tuple[object, ...]:
    return (e.type, e.pai, tuple(sorted(e.consumed)), e.target)


def play_through_mjai_bot(agent: Any, seed: int = 3, bot_rules: RiichiRules = TENHOU) -> int:
    """Play a seeded all-last tonpuu game with ``agent`` behind the mjai bot in seat 0 (fed the
    seat's stream line by line, its replies read back) against ``efficiency``; every reply is
    asserted to be one of the engine's legal actions.  The number of decisions answered.
    ``bot_rules`` are the bot's (mjai never says the game's length): by default the bot's own
    default, Tenhou's hanchan; ``TONPUU`` tells it the game's real length."""
    from tenpai.serve.mjai.bot import MjaiBot
    from tenpai.serve.mjai.wire import dumps, parse_action, parse_line

    bot = MjaiBot(agent, seat=0, rules=bot_rules)
    others = EfficiencyAgent(seed + 1)
    game = RiichiGame(TONPUU, seed=seed, scores=LAST_HAND_SCORES, start=LAST_HAND)
    sent = answered = 0
    reply: dict[str, Any] | None = None
    while not game.done:
        answers = {}
        for e in game.events[sent:]:
            reply = bot.handle(parse_line(mjai_line(e)))
        sent = len(game.events)
        for d in game.pending():
            if d.seat != 0:
                answers[d.seat] = others.act(d.observation, d.legal)
                continue
            assert reply is not None, "the bot did not answer a decision"
            action = parse_action(dumps(reply))
            match = [e for e in d.legal if (e.type == "none" if action.type == "none"
                                            else _key(e) == _key(action))]
            assert match, (reply, d.legal)
            answers[0] = match[0]
            answered += 1
        game.step(answers)
    return answered
