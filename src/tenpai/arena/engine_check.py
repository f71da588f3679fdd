"""Seeded games on both engine paths, compared in lock-step (``tenpai verify engines``).

The compiled code must never change a game: the same seed and the same agents must give the
same decisions, observations, events and final scores whether the compiled core or the Python
reference plays.  This plays seeded games of the registered rule agents (mixed per seat)
under each rule set on both paths at once (:mod:`tenpai.arena.lockstep`: the agents decide
once, on the compiled side, and both paths take their answers) and stops at the first
difference, naming the game's seed and where the paths parted.

The two paths of each rule set:

* Riichi presets (``tenhou``, ``mahjong_soul``, ``tenhou_sanma``): ``RiichiGame`` on the
  compiled table (``engine="compiled"``) against the Python round (``engine="python"``), in
  this process.  A preset the table does not cover yet is reported as skipped with the reason
  and runs as soon as :func:`~tenpai.rules.riichi.compiled_round.covers` says yes.
* MCR (``mcr``): the fan evaluator is chosen per process (``TENPAI_PURE_PYTHON``), so the
  game with the compiled ``_fans`` is played here and its reference in a child process with
  every extension off, stepped with the same answers one JSON line at a time.

The agents: each seat plays one of the rule set's ``agents`` in turn; the costly searching
agents (``heavy``: ``expert``, ``planner``...) take one seat in a stated share of the games
(``heavy_share``), chosen from the seed, because one of them costs more than the rest of the
game on both paths together (docs/performance_runs.md, "Differential proof
(`tests/engine/test_compiled_round.py`)").
"""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from tenpai.agents.registry import make_agent
from tenpai.arena.lockstep import (
    ChildReference,
    InProcessReference,
    Reference,
    lockstep,
    serve,
)
from tenpai.engine.flow import GameFlow

__all__ = [
    "RULE_SETS",
    "CheckSummary",
    "RuleSet",
    "play",
    "run_check",
    "seat_agents",
]

#: The rule agents that take part (no trained weights, no optional extras), by family:
#: the cheap ones take every seat in turn, the heavy ones one seat in a share of the games.
RIICHI_AGENTS: Final = ("random", "efficiency", "defensive")
RIICHI_HEAVY: Final = ("expert",)
MCR_AGENTS: Final = ("random", "efficiency")
MCR_HEAVY: Final = ("expert", "planner", "planner_defend")
#: The share of games with one heavy seat: one of them costs 5-30 CPU s a game, the rest of
#: a lock-step game 0.15-1.3 s (docs/performance_runs.md, "Differential proof
#: (`tests/engine/test_compiled_round.py`)").
HEAVY_SHARE: Final = 0.02


@dataclass(frozen=True, slots=True)
class RuleSet:
    """One rule set the check plays: a Riichi preset (``preset``) or MCR (``mcr``)."""

    name: str
    family: str  # "riichi" or "mcr"
    preset: str
    agents: tuple[str, ...]
    #: a Riichi game length other than the preset's (``tonpuu``, ``hanchan``)
    length: str | None = None
    #: searching agents, one of which takes one seat in ``heavy_share`` of the games
    heavy: tuple[str, ...] = ()
    heavy_share: float = 0.0

    def argv(self) -> list[str]:
        """The rule set as the child process's arguments."""
        return [self.name, self.family, self.preset, ",".join(self.agents), self.length or "",
                ",".join(self.heavy), repr(self.heavy_share)]

    @classmethod
    def from_argv(cls, argv: Sequence[str]) -> RuleSet:
        name, family, preset, agents, length, heavy, share = argv
        return cls(name, family, preset, tuple(agents.split(",")), length or None,
                   tuple(h for h in heavy.split(",") if h), float(share))


#: Every rule set of the check, in the order games cycle through them.  A new preset is one
#: line here; a Riichi preset runs once the compiled table covers it.
RULE_SETS: Final[dict[str, RuleSet]] = {r.name: r for r in (
    RuleSet("tenhou", "riichi", "tenhou", RIICHI_AGENTS, heavy=RIICHI_HEAVY,
            heavy_share=HEAVY_SHARE),
    RuleSet("mahjong_soul", "riichi", "mahjong_soul", RIICHI_AGENTS, heavy=RIICHI_HEAVY,
            heavy_share=HEAVY_SHARE),
    RuleSet("tenhou_sanma", "riichi", "tenhou_sanma", RIICHI_AGENTS, heavy=RIICHI_HEAVY,
            heavy_share=HEAVY_SHARE),
    RuleSet("mcr", "mcr", "mcr_official", MCR_AGENTS, heavy=MCR_HEAVY, heavy_share=HEAVY_SHARE),
)}


def unavailable(rule_set: RuleSet) -> str | None:
    """Why the rule set cannot be compared in this build (None: it can)."""
    if rule_set.family == "mcr":
        from tenpai.rules.mcr.evaluate import compiled_available

        return None if compiled_available() else (
            "the compiled MCR fan evaluator (_fans) is not built or is switched off")
    from tenpai.rules.riichi import compiled_round
    from tenpai.rules.riichi.ruleset import preset

    if not compiled_round.available():
        return "the compiled table is not built or is switched off (TENPAI_PURE_PYTHON)"
    if not compiled_round.covers(preset(rule_set.preset)):
        return f"the compiled table does not cover the rules {rule_set.preset!r} yet"
    return None


def new_game(rule_set: RuleSet, seed: int, engine: str) -> GameFlow:
    """A seeded game of the rule set; ``engine`` is RiichiGame's (MCR: the build's own)."""
    if rule_set.family == "mcr":
        from tenpai.rules.mcr.flow.rules import PRESETS as MCR_PRESETS
        from tenpai.rules.mcr.game import MCRGame

        return MCRGame(MCR_PRESETS[rule_set.preset], seed=seed)
    from tenpai.rules.riichi.game import RiichiGame
    from tenpai.rules.riichi.ruleset import preset

    rules = preset(rule_set.preset)
    if rule_set.length is not None:
        rules = rules.with_(length=rule_set.length)
    return RiichiGame(rules, seed=seed, engine=engine)  # type: ignore[arg-type]


def seats_of(game: GameFlow) -> int:
    return int(getattr(game, "players", 4))


def seat_agents(rule_set: RuleSet, seed: int, players: int) -> list[str]:
    """The agents of one game: seat ``i`` plays ``agents[(seed + i) % n]``, and in
    ``heavy_share`` of the games (drawn from the seed, so one seed always gives the same
    seats) one seat, also drawn, plays one of the heavy agents instead."""
    names = rule_set.agents
    seats = [names[(seed + i) % len(names)] for i in range(players)]
    if rule_set.heavy:
        rng = random.Random(f"verify engines {seed}")
        if rng.random() < rule_set.heavy_share:
            seats[rng.randrange(players)] = rng.choice(rule_set.heavy)
    return seats


def _agents(rule_set: RuleSet, seed: int, players: int) -> list[Any]:
    return [make_agent(name, seed * 4 + i)
            for i, name in enumerate(seat_agents(rule_set, seed, players))]


def play(rule_set: RuleSet, seed: int, engine: str) -> GameFlow:
    """One seeded game to its end on one path, with the agents the check seats (to replay a
    seed the check names on either path alone)."""
    game = new_game(rule_set, seed, engine)
    agents = _agents(rule_set, seed, seats_of(game))
    steps = 0
    while not game.done:
        game.step({d.seat: agents[d.seat].act(d.observation, d.legal) for d in game.pending()})
        steps += 1
        if steps > 100_000:
            raise RuntimeError(f"{rule_set.name} seed {seed}: the game does not end")
    return game


# ---------------------------------------------------------------------- the check


@dataclass(slots=True)
class CheckSummary:
    """What the check played: games, hands, events and decisions per rule set, the games a
    heavy agent sat in, skipped rule sets with why."""

    seed: int
    games: dict[str, int] = field(default_factory=dict)
    hands: dict[str, int] = field(default_factory=dict)
    events: dict[str, int] = field(default_factory=dict)
    decisions: dict[str, int] = field(default_factory=dict)
    observations: dict[str, int] = field(default_factory=dict)
    heavy_games: dict[str, int] = field(default_factory=dict)
    mix: dict[str, dict[str, Any]] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)
    identical: bool = True
    divergence: dict[str, Any] | None = None
    cpu_seconds: float = 0.0
    stopped_by_budget: bool = False
    #: stopped by an interrupt (Ctrl-C, SIGTERM): the games counted were all compared
    interrupted: bool = False

    @property
    def total(self) -> int:
        return sum(self.games.values())

    def as_dict(self) -> dict[str, Any]:
        return {"seed": self.seed, "games": self.total, "per_rule_set": {
            name: {"games": n, "hands": self.hands.get(name, 0),
                   "events": self.events.get(name, 0),
                   "decisions": self.decisions.get(name, 0),
                   "observations": self.observations.get(name, 0),
                   "games_with_a_heavy_agent": self.heavy_games.get(name, 0)}
            for name, n in self.games.items()},
            "agents": self.mix, "lengths": "the presets' own" if not any(
                m.get("length") for m in self.mix.values()) else {
                k: m.get("length") or "preset" for k, m in self.mix.items()},
            "compared": "at every decision: seats, legal actions (in order), observation "
                        "fields; after every step: the new events; at the end: final scores",
            "skipped": self.skipped, "identical": self.identical,
            "divergence": self.divergence, "cpu_seconds": round(self.cpu_seconds, 1),
            "stopped_by_cpu_budget": self.stopped_by_budget, "interrupted": self.interrupted}


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _hands(game: Any) -> int:
    return sum(1 for e in game.events if e.type in ("start_kyoku", "start_hand"))


def run_check(
    games: int,
    seed: int,
    rule_sets: Sequence[str | RuleSet],
    *,
    length: str | None = None,
    cpu_minutes: float | None = None,
    progress: Callable[[CheckSummary, str, int], None] | None = None,
) -> CheckSummary:
    """Play ``games`` seeded games cycling through ``rule_sets`` (game ``i`` has seed
    ``seed + i`` under ``rule_sets[i % k]``, skipped ones left out of the cycle); the first
    difference stops the check (``summary.divergence`` names the rule set, the seed and
    where).  ``cpu_minutes`` stops starting games once this process and its children have
    used that much CPU.  ``length`` plays the Riichi rule sets as ``tonpuu`` or ``hanchan``.
    An interrupt (``KeyboardInterrupt``) ends the check with the games compared so far."""
    summary = CheckSummary(seed)
    active: list[RuleSet] = []
    for given in rule_sets:
        if isinstance(given, str):
            if given not in RULE_SETS:
                raise ValueError(f"unknown rule set {given!r}; known: {', '.join(RULE_SETS)}")
            given = RULE_SETS[given]
        if length is not None and given.family == "riichi":
            given = replace(given, length=length)
        why = unavailable(given)
        if why is None:
            active.append(given)
            summary.games[given.name] = 0
            summary.mix[given.name] = {
                "seats": list(given.agents), "heavy": list(given.heavy),
                "heavy_share": given.heavy_share, "length": given.length}
        else:
            summary.skipped[given.name] = why
    references: dict[str, Reference] = {}
    start = _cpu()
    try:
        for i, rule_set, game_seed in _schedule(games, seed, active):
            used = _cpu() - start + sum(
                r.cpu() for r in references.values() if isinstance(r, ChildReference))
            if cpu_minutes is not None and used >= cpu_minutes * 60:
                summary.stopped_by_budget = True
                break
            same = _one(rule_set, game_seed, references, summary)
            if progress is not None:
                progress(summary, rule_set.name, i)
            if not same:
                break
    except KeyboardInterrupt:
        summary.interrupted = True
    finally:
        for ref in references.values():
            if isinstance(ref, ChildReference):
                ref.close()
        summary.cpu_seconds = _cpu() - start
    return summary


def _schedule(games: int, seed: int, active: list[RuleSet]) -> Iterator[tuple[int, RuleSet, int]]:
    if not active:
        return
    for i in range(games):
        yield i, active[i % len(active)], seed + i


def reference_for(rule_set: RuleSet) -> Reference:
    """The Python path of a rule set: in process for Riichi, a child process for MCR."""
    if rule_set.family == "mcr":
        return ChildReference(rule_set.argv())
    return InProcessReference(lambda s: new_game(rule_set, s, "python"))


def _one(rule_set: RuleSet, game_seed: int, references: dict[str, Reference],
         summary: CheckSummary) -> bool:
    """Play one seed on both paths in lock-step; False (and the divergence noted) when they
    differ."""
    ref = references.get(rule_set.name)
    if ref is None:
        ref = references[rule_set.name] = reference_for(rule_set)
    game = new_game(rule_set, game_seed, "compiled")
    players = seats_of(game)
    result = lockstep(game, ref, game_seed, _agents(rule_set, game_seed, players))
    if result.difference is not None:
        summary.identical = False
        summary.divergence = {"rule_set": rule_set.name, "seed": game_seed,
                              "agents": seat_agents(rule_set, game_seed, players),
                              "first": result.difference}
        return False
    name = rule_set.name
    summary.games[name] += 1
    summary.hands[name] = summary.hands.get(name, 0) + _hands(game)
    summary.events[name] = summary.events.get(name, 0) + len(game.events)
    summary.decisions[name] = summary.decisions.get(name, 0) + result.decisions
    summary.observations[name] = summary.observations.get(name, 0) + result.observations
    if any(a in rule_set.heavy for a in seat_agents(rule_set, game_seed, players)):
        summary.heavy_games[name] = summary.heavy_games.get(name, 0) + 1
    return True


if __name__ == "__main__":  # the pure-Python reference of the MCR check
    _rule_set = RuleSet.from_argv(sys.argv[1:])
    serve(lambda s: new_game(_rule_set, s, "python"), sys.stdin, sys.stdout)
