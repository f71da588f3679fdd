"""Play one scheduled game and boil its events down to what the results store keeps.

Everything is read from the mjai-shaped events every rule set emits (``start_kyoku``, ``hora``
with actor, target and deltas, ``reach_accepted``, calls, ``ryukyoku``), so the same summary
works for any flow registered in :mod:`tenpai.arena.games`.

Hands are recorded by *player* (the index of the agent in the game's lineup).  Riichi and the
108-tile flows seat player ``p`` at table position ``p`` for the whole game; a full MCR game
changes seats between rounds, and inside a hand its events use table positions.  Its
``start_kyoku`` then carries ``meta["seating"]`` (the player at each position), which
:func:`summarize` reads to map every actor, target and payment back to players.

A Botzone seat's bad answer (``seat_errors``, :data:`SEAT_ERRORS`): ``substitute`` counts it and
plays the safe action in its place, the game going on; ``forfeit`` ends the game there as
Botzone's judge ends the match (the offender −30, each other seat +10).  The forfeited game's
events are those played up to the request the bot answered wrongly, then a ``ryukyoku`` of
kind ``penalty`` with the offender as ``actor``, those scores as ``deltas`` and ``meta``
``{"error", "request", "offence"}`` (the shape :mod:`tenpai.records.botzone_json` reads a
penalised Botzone match into), ``end_kyoku`` and ``end_game``; its places follow from the scores
by :func:`final_ranks`, and the offender's protocol rows gain one of kind ``forfeit``.
"""

from __future__ import annotations

import dataclasses
import json
import time
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tenpai.agents.registry import external_seats, make_agent
from tenpai.arena.games import make_game
from tenpai.arena.schedule import GameKey, agent_seed, deal_seed, seating
from tenpai.engine.agent import Agent, shares_tables
from tenpai.engine.batch import step_flows
from tenpai.engine.flow import GameFlow
from tenpai.engine.runner import play
from tenpai.events import Event

__all__ = [
    "FORFEIT_ROW",
    "SEAT_ERRORS",
    "GameRecord",
    "HandRecord",
    "ProtocolRecord",
    "RecordError",
    "SeatRecord",
    "WinRecord",
    "final_ranks",
    "hand_seating",
    "pack_events",
    "play_scheduled",
    "play_scheduled_batch",
    "summarize",
]

_CALLS = frozenset({"chi", "pon", "daiminkan"})
_BOTZONE = ("botzone:", "botzone-json:")

#: What a Botzone seat's counted error does to the game (see the module docstring); the first
#: is the default.
SEAT_ERRORS = ("substitute", "forfeit")

#: The protocol row kind that marks the seat whose error ended the game.
FORFEIT_ROW = "forfeit"


@dataclass(frozen=True, slots=True)
class WinRecord:
    """One win: ``from_seat`` is the discarder of a ron, ``None`` for a self-draw."""

    winner: int
    from_seat: int | None
    points: int
    han: int | None
    fu: int | None


@dataclass(slots=True)
class HandRecord:
    """One hand (kyoku): how it ended, the point changes, who declared riichi or called."""

    index: int
    bakaze: int
    kyoku: int
    honba: int
    outcome: str = "unfinished"
    draw_kind: str | None = None
    deltas: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    riichi: list[bool] = field(default_factory=lambda: [False] * 4)
    called: list[bool] = field(default_factory=lambda: [False] * 4)
    wins: list[WinRecord] = field(default_factory=list)

    @property
    def deal_in(self) -> int | None:
        """The seat that discarded a winning tile, if any."""
        return next((w.from_seat for w in self.wins if w.from_seat is not None), None)


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """One seat's result in one game, with its per-hand tallies."""

    seat: int
    agent: str
    score: int
    rank: int
    hands: int
    wins: int
    deal_ins: int
    riichi: int
    calls: int


@dataclass(frozen=True, slots=True)
class ProtocolRecord:
    """An external (``mjai:``) seat's protocol tally in one game: decisions asked of it and
    errors by kind (see :mod:`tenpai.serve.mjai.external`), with one example of each kind."""

    seat: int
    agent: str
    decisions: int
    errors: tuple[tuple[str, int, str], ...] = ()


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A finished game: its key, the seats and the hands; ``events`` is the whole game as
    compressed mjai lines (:func:`tenpai.arena.saved.pack_events`), kept for its records."""

    key: GameKey
    seed: int
    seats: tuple[SeatRecord, ...]
    hands: tuple[HandRecord, ...]
    seconds: float
    protocol: tuple[ProtocolRecord, ...] = ()
    events: bytes = b""


def final_ranks(scores: Sequence[int]) -> list[int]:
    """Ranks 1-4 by final score; ties go to the seat nearer the first dealer (seat 0)."""
    order = sorted(range(len(scores)), key=lambda s: (-scores[s], s))
    ranks = [0] * len(scores)
    for r, s in enumerate(order):
        ranks[s] = r + 1
    return ranks


class RecordError(ValueError):
    """A game's events cannot be summarised; the message names the hand and the problem."""


_IDENTITY: tuple[int, ...] = (0, 1, 2, 3)


def hand_seating(start_kyoku: Event) -> tuple[int, ...]:
    """The player at each table position in the hand this ``start_kyoku`` opens.

    Flows whose seats never change emit no seating and get the identity; a full MCR game puts
    ``meta["seating"]`` (a permutation of 0-3) on every ``start_kyoku``.
    """
    meta = start_kyoku.meta or {}
    raw = meta.get("seating")
    if raw is None:
        return _IDENTITY
    seating = tuple(int(p) for p in raw)
    if sorted(seating) != [0, 1, 2, 3]:
        raise RecordError(f"start_kyoku seating {list(raw)!r} is not a permutation of 0-3")
    return seating


def summarize(events: Sequence[Event]) -> list[HandRecord]:
    """The hands of a game from its events, every seat index translated to the player."""
    hands: list[HandRecord] = []
    player = _IDENTITY
    for e in events:
        t = e.type
        if t == "start_kyoku":
            hands.append(HandRecord(len(hands), e.bakaze or 0, e.kyoku or 0, e.honba or 0))
            player = hand_seating(e)
            continue
        if not hands or (e.actor is None and t != "ryukyoku"):
            continue
        h = hands[-1]
        if t == "reach_accepted":
            assert e.actor is not None
            h.riichi[player[e.actor]] = True
        elif t in _CALLS:
            assert e.actor is not None
            h.called[player[e.actor]] = True
        elif t == "hora":
            assert e.actor is not None
            h.outcome = "hora"
            target = e.target if e.target is not None and e.target != e.actor else None
            for pos, d in enumerate(e.deltas):
                h.deltas[player[pos]] += d
            points = e.deltas[e.actor] if e.deltas else 0
            winner = player[e.actor]
            h.wins.append(
                WinRecord(winner, None if target is None else player[target], points, e.han, e.fu)
            )
        elif t == "ryukyoku" and e.kind == "penalty":  # a forfeit: no draw, nobody won
            h.outcome = "penalty"
            for pos, d in enumerate(e.deltas):
                h.deltas[player[pos]] += d
        elif t == "ryukyoku":
            h.outcome = "ryukyoku"
            h.draw_kind = e.kind or "exhaustive"
            for pos, d in enumerate(e.deltas):
                h.deltas[player[pos]] += d
    return hands


def _seat_records(
    names: Sequence[str], scores: Sequence[int], hands: Sequence[HandRecord]
) -> tuple[SeatRecord, ...]:
    ranks = final_ranks(scores)
    out = []
    for s, name in enumerate(names):
        out.append(
            SeatRecord(
                seat=s,
                agent=name,
                score=scores[s],
                rank=ranks[s],
                hands=len(hands),
                wins=sum(1 for h in hands if any(w.winner == s for w in h.wins)),
                deal_ins=sum(1 for h in hands if h.deal_in == s),
                riichi=sum(1 for h in hands if h.riichi[s]),
                calls=sum(1 for h in hands if h.called[s]),
            )
        )
    return tuple(out)


def pack_events(events: Iterable[Event]) -> bytes:
    """A game's events as zlib-compressed mjai lines (what the store keeps for its records).

    Agents' ``meta`` (probabilities, values) is left out, except the seating an MCR
    ``start_kyoku`` carries, which its records need, and a forfeit's (a ``penalty`` ryukyoku:
    the error, the request and the answer).
    """
    lines = []
    for e in events:
        if e.meta and not (e.type == "ryukyoku" and e.kind == "penalty"):
            kept = {"seating": e.meta["seating"]} if "seating" in e.meta else None
            e = e.with_(meta=kept if e.type == "start_kyoku" else None)
        lines.append(json.dumps(e.to_mjai(), ensure_ascii=False, separators=(",", ":")))
    return zlib.compress("\n".join(lines).encode("utf-8"), 6)


def play_scheduled(
    rules: str,
    options: Mapping[str, str],
    lineup: Sequence[str],
    run_seed: int,
    key: GameKey,
    seating_mode: str = "rotations",
    seat_errors: str = "substitute",
) -> GameRecord:
    """Play game ``key`` of a run: the deal's walls, the key's seating (of ``seating_mode``,
    see :mod:`tenpai.arena.schedule`), seeded agents; a Botzone seat's errors as
    ``seat_errors`` says (:data:`SEAT_ERRORS`)."""
    if seat_errors not in SEAT_ERRORS:
        raise ValueError(f"seat_errors must be one of {', '.join(SEAT_ERRORS)}, got "
                         f"{seat_errors!r}")
    start = time.perf_counter()
    names = seating(lineup, key.rotation, seating_mode)
    seed = deal_seed(run_seed, key.deal)
    game = make_game(rules, seed, names, options)
    if any(n.startswith(_BOTZONE) for n in names):
        protocol, forfeit = _play_with_botzone(game, names, run_seed, key,
                                               seat_errors == "forfeit")
        if forfeit is not None:
            return _forfeited_record(key, seed, names, game, time.perf_counter() - start,
                                     protocol, forfeit)
    elif any(n.startswith("mjai:") for n in names):
        protocol = _play_with_external(game, names, run_seed, key)
    else:
        agents = [make_agent(n, agent_seed(run_seed, key, s)) for s, n in enumerate(names)]
        play(game, agents)
        protocol = ()
    return _game_record(key, seed, names, game, time.perf_counter() - start, protocol)


def _game_record(
    key: GameKey,
    seed: int,
    names: Sequence[str],
    game: GameFlow,
    seconds: float,
    protocol: tuple[ProtocolRecord, ...] = (),
) -> GameRecord:
    hands = summarize(game.events)
    seats = _seat_records(names, game.final_scores, hands)
    return GameRecord(key, seed, seats, tuple(hands), seconds, protocol,
                      pack_events(game.events))


@dataclass(slots=True)
class _LiveGame:
    key: GameKey
    seed: int
    names: list[str]
    game: GameFlow
    agents: list[Agent]
    seconds: float = 0.0
    steps: int = 0


def play_scheduled_batch(
    rules: str,
    options: Mapping[str, str],
    lineup: Sequence[str],
    run_seed: int,
    keys: Sequence[GameKey],
    tables: int,
    *,
    max_steps: int = 1_000_000,
    seating_mode: str = "rotations",
) -> Iterator[GameRecord]:
    """Play games ``keys`` of a run on ``tables`` tables at once; yield each as it ends.

    Deals, seatings and per-game agent seeds are those of :func:`play_scheduled`.  An agent
    whose class opts in (:func:`~tenpai.engine.agent.shares_tables`: greedy networks) is made
    once and answers every seat of every table in one call per step; any other agent is made
    per game from the same seed as in the one-at-a-time path, so rule and random agents play
    exactly the same games.  A network's batched forward is not bit-identical to one row at
    a time (float sums in another order, differences near 1e-6), so its choice can differ only
    where two scores tie that closely.  External mjai seats are not played here.
    Each record's ``seconds`` is its share of the steps it was live in.
    """
    if tables < 1:
        raise ValueError(f"tables must be at least 1, got {tables}")
    shared: dict[str, Agent | None] = {}
    for name in dict.fromkeys(lineup):
        if name.startswith(("mjai:", *_BOTZONE)):
            raise ValueError("external mjai seats are played one game at a time")
        candidate = make_agent(name, 0)
        shared[name] = candidate if shares_tables(candidate) else None
    queue = list(reversed(keys))
    live: list[_LiveGame] = []
    while queue or live:
        while queue and len(live) < tables:
            start = time.perf_counter()
            key = queue.pop()
            names = seating(lineup, key.rotation, seating_mode)
            seed = deal_seed(run_seed, key.deal)
            agents = [
                a if (a := shared[n]) is not None else make_agent(n, agent_seed(run_seed, key, s))
                for s, n in enumerate(names)
            ]
            game = make_game(rules, seed, names, options)
            live.append(_LiveGame(key, seed, names, game, agents,
                                  time.perf_counter() - start))
        start = time.perf_counter()
        step_flows([g.game for g in live], [g.agents for g in live])
        share = (time.perf_counter() - start) / len(live)
        still = []
        for g in live:
            g.seconds += share
            g.steps += 1
            if g.game.done:
                yield _game_record(g.key, g.seed, g.names, g.game, g.seconds)
            elif g.steps > max_steps:
                raise RuntimeError(
                    f"game (deal {g.key.deal}, rotation {g.key.rotation}) did not end within "
                    f"{max_steps} steps"
                )
            else:
                still.append(g)
        live = still


def _play_with_external(
    game: GameFlow, names: Sequence[str], run_seed: int, key: GameKey
) -> tuple[ProtocolRecord, ...]:
    """A game with external mjai bots (the module that plays them, in the serve layer above
    us, is found through the agent registry and imported only then)."""
    play_game = external_seats("mjai:").play_game
    agents = [
        None if n.startswith("mjai:") else make_agent(n, agent_seed(run_seed, key, s))
        for s, n in enumerate(names)
    ]
    reports = play_game(game, names, agents)
    return _protocol_records(reports)


def _play_with_botzone(
    game: GameFlow, names: Sequence[str], run_seed: int, key: GameKey, forfeit: bool = False
) -> tuple[tuple[ProtocolRecord, ...], Any]:
    """A game with Botzone bots in ``botzone:`` seats, our engine as their judge (the module
    that plays them, in the serve layer above us, is found through the agent registry); with
    ``forfeit`` the first error ends it, and the second value is that error (the serve
    layer's ``Forfeit``), else None."""
    botzone = external_seats("botzone:")
    agents = [
        None if n.startswith(_BOTZONE) else make_agent(n, agent_seed(run_seed, key, s))
        for s, n in enumerate(names)
    ]
    seats = {s: botzone.BotzoneSeat(s, n, botzone.runner_for(n), forfeit=forfeit)
             for s, n in enumerate(names) if n.startswith(_BOTZONE)}
    reports = botzone.play_game(game, agents, seats)
    ended = next((r.forfeit for r in reports if r.forfeit is not None), None)
    return _protocol_records(reports), ended


def _forfeited_record(
    key: GameKey,
    seed: int,
    names: Sequence[str],
    game: GameFlow,
    seconds: float,
    protocol: tuple[ProtocolRecord, ...],
    forfeit: Any,
) -> GameRecord:
    """The record of a game a Botzone seat's error ended (see the module docstring): the
    Botzone preset plays one hand with table position = player, so the scores by position
    are the players' scores."""
    scores = tuple(int(x) for x in forfeit.scores())
    meta: dict[str, Any] = {"error": forfeit.kind, "request": forfeit.request}
    if forfeit.answer:
        meta["offence"] = forfeit.answer
    events = [*game.events[:forfeit.events],
              Event("ryukyoku", actor=forfeit.seat, deltas=scores, kind="penalty", meta=meta),
              Event("end_kyoku"), Event("end_game", scores=scores)]
    hands = summarize(events)
    seats = _seat_records(names, scores, hands)
    marker = (FORFEIT_ROW, 1, f"{forfeit.kind} at request {forfeit.request} "
              f"({forfeit.text!r}), answer {forfeit.answer!r}"[:300])
    protocol = tuple(
        dataclasses.replace(p, errors=(*p.errors, marker)) if p.seat == forfeit.seat else p
        for p in protocol
    )
    return GameRecord(key, seed, seats, tuple(hands), seconds, protocol, pack_events(events))


def _protocol_records(reports: Sequence[Any]) -> tuple[ProtocolRecord, ...]:
    """Each external seat's protocol report (decisions, errors by kind with one example each)
    as stored with the game; mjai and Botzone seats report alike."""
    return tuple(
        ProtocolRecord(
            r.seat,
            r.agent,
            r.decisions,
            tuple((k, n, r.examples.get(k, "")) for k, n in sorted(r.errors.items())),
        )
        for r in reports
    )
