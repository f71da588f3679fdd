"""Seeded games on both engine paths, compared event by event (``tenpai verify engines``).

The compiled code must never change a game: the same seed and the same agents must give the
same event stream and final scores whether the compiled core or the Python reference plays.
This plays seeded games of the registered rule agents (mixed per seat) under each rule set on
both paths and stops at the first difference, naming the game's seed and the first differing
event.

The two paths of each rule set:

* Riichi presets (``tenhou``, ``mahjong_soul``, ``tenhou_sanma``): ``RiichiGame`` on the
  compiled table (``engine="compiled"``) against the Python round (``engine="python"``), in
  this process.  A preset the table does not cover yet is reported as skipped with the reason
  and runs as soon as :func:`~tenpai.rules.riichi.compiled_round.covers` says yes.
* MCR (``mcr``): the fan evaluator is switched per process (``TENPAI_PURE_PYTHON``), so the
  game with the compiled ``_fans`` is played here and the same game with every extension off
  in a child process; the child streams its games back one line each.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any, Final, TextIO

from tenpai.agents.registry import make_agent
from tenpai.engine.flow import GameFlow
from tenpai.events import Event

__all__ = [
    "RULE_SETS",
    "CheckSummary",
    "RuleSet",
    "first_difference",
    "play",
    "run_check",
    "stream_of",
]

#: The rule agents that take part (no trained weights, no optional extras), by family.
RIICHI_AGENTS: Final = ("random", "efficiency", "defensive", "expert")
MCR_AGENTS: Final = ("random", "efficiency", "expert", "planner", "planner_defend")


@dataclass(frozen=True, slots=True)
class RuleSet:
    """One rule set the check plays: a Riichi preset (``preset``) or MCR (``mcr``)."""

    name: str
    family: str  # "riichi" or "mcr"
    preset: str
    agents: tuple[str, ...]
    #: a Riichi game length other than the preset's (``tonpuu``, ``hanchan``)
    length: str | None = None

    def argv(self) -> list[str]:
        """The rule set as the child process's arguments."""
        return [self.name, self.family, self.preset, ",".join(self.agents), self.length or ""]

    @classmethod
    def from_argv(cls, argv: Sequence[str]) -> RuleSet:
        name, family, preset, agents, length = argv
        return cls(name, family, preset, tuple(agents.split(",")), length or None)


#: Every rule set of the check, in the order games cycle through them.  A new preset is one
#: line here; a Riichi preset runs once the compiled table covers it.
RULE_SETS: Final[dict[str, RuleSet]] = {r.name: r for r in (
    RuleSet("tenhou", "riichi", "tenhou", RIICHI_AGENTS),
    RuleSet("mahjong_soul", "riichi", "mahjong_soul", RIICHI_AGENTS),
    RuleSet("tenhou_sanma", "riichi", "tenhou_sanma", RIICHI_AGENTS),
    RuleSet("mcr", "mcr", "mcr_official", MCR_AGENTS),
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


def play(rule_set: RuleSet, seed: int, engine: str) -> GameFlow:
    """One seeded game to its end: seat ``i`` plays agent ``agents[(seed + i) % n]``
    seeded ``seed * 4 + i``, so every game mixes the agents differently."""
    game = new_game(rule_set, seed, engine)
    names = rule_set.agents
    agents = [make_agent(names[(seed + i) % len(names)], seed * 4 + i)
              for i in range(seats_of(game))]
    steps = 0
    while not game.done:
        game.step({d.seat: agents[d.seat].act(d.observation, d.legal) for d in game.pending()})
        steps += 1
        if steps > 100_000:
            raise RuntimeError(f"{rule_set.name} seed {seed}: the game does not end")
    return game


_FIELDS: Final = tuple(f.name for f in fields(Event) if f.compare)


def stream_of(game: Any) -> list[list[Any]]:
    """The game's events, every compared field in order, and the final scores last, as
    JSON-ready lists (what crosses from the child process)."""
    events: list[Event] = game.events
    out: list[list[Any]] = [
        [_plain(getattr(e, name)) for name in _FIELDS] for e in events]
    out.append(["final_scores", list(game.final_scores)])
    return out


def _plain(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    return v


def first_difference(a: Sequence[Any], b: Sequence[Any]) -> str | None:
    """The first differing entry of two streams, named by index (None: they are equal)."""
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"event {i}: compiled {_show(x)} / python {_show(y)}"
    if len(a) != len(b):
        return f"compiled {len(a)} events / python {len(b)}"
    return None


def _show(row: Any) -> str:
    if isinstance(row, list) and len(row) == len(_FIELDS):
        return str({k: v for k, v in zip(_FIELDS, row) if v not in (None, [], ())})
    return str(row)


# ---------------------------------------------------------------------- the MCR child


class _PurePython:
    """The child process that plays MCR games with every extension off: a seed in, one JSON
    line of the game's stream out."""

    def __init__(self, rule_set: RuleSet) -> None:
        env = dict(os.environ, TENPAI_PURE_PYTHON="1")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tenpai.arena.engine_check", *rule_set.argv()],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True, bufsize=1)

    def ask(self, seed: int) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{seed}\n")
        self.proc.stdin.flush()

    def answer(self) -> list[Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the pure-Python child process ended without an answer")
        got: list[Any] = json.loads(line)
        return got

    def cpu(self) -> float:
        """The child's CPU seconds so far (Linux's /proc; 0 where it cannot be read)."""
        try:
            with open(f"/proc/{self.proc.pid}/stat") as fh:
                parts = fh.read().rsplit(")", 1)[1].split()
            return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            return 0.0

    def close(self) -> None:
        """End the child (its CPU time then counts in this process's children's).  An answer
        not read yet (an interrupt in the middle of a game) is read and dropped: the child
        would otherwise block on a full pipe while this process waits for it."""
        self.proc.communicate()


def _serve(rule_set: RuleSet, inp: TextIO, out: TextIO) -> None:
    """The child's loop: play each seed read and write its stream."""
    for line in inp:
        seed = int(line)
        out.write(json.dumps(stream_of(play(rule_set, seed, "python"))) + "\n")
        out.flush()


# ---------------------------------------------------------------------- the check


@dataclass(slots=True)
class CheckSummary:
    """What the check played: games, hands and events per rule set, skipped ones with why."""

    seed: int
    games: dict[str, int] = field(default_factory=dict)
    hands: dict[str, int] = field(default_factory=dict)
    events: dict[str, int] = field(default_factory=dict)
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
                   "events": self.events.get(name, 0)} for name, n in self.games.items()},
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
    difference stops the check (``summary.divergence`` names the rule set, the seed and the
    event).  ``cpu_minutes`` stops starting games once this process and its child have used
    that much CPU.  ``length`` plays the Riichi rule sets as ``tonpuu`` or ``hanchan``.  An
    interrupt (``KeyboardInterrupt``) ends the check with the games compared so far."""
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
        else:
            summary.skipped[given.name] = why
    children: dict[str, _PurePython] = {}
    start = _cpu()
    try:
        for i, rule_set, game_seed in _schedule(games, seed, active):
            used = _cpu() - start + sum(c.cpu() for c in children.values())
            if cpu_minutes is not None and used >= cpu_minutes * 60:
                summary.stopped_by_budget = True
                break
            same = _one(rule_set, game_seed, children, summary)
            if progress is not None:
                progress(summary, rule_set.name, i)
            if not same:
                break
    except KeyboardInterrupt:
        summary.interrupted = True
    finally:
        for child in children.values():
            child.close()
        summary.cpu_seconds = _cpu() - start
    return summary


def _schedule(games: int, seed: int, active: list[RuleSet]) -> Iterator[tuple[int, RuleSet, int]]:
    if not active:
        return
    for i in range(games):
        yield i, active[i % len(active)], seed + i


def _one(rule_set: RuleSet, game_seed: int, children: dict[str, _PurePython],
         summary: CheckSummary) -> bool:
    """Play one seed on both paths; False (and the divergence noted) when they differ."""
    child = None
    if rule_set.family == "mcr":
        child = children.get(rule_set.name)
        if child is None:
            child = children[rule_set.name] = _PurePython(rule_set)
        child.ask(game_seed)  # the child plays while this process does
    compiled = play(rule_set, game_seed, "compiled")
    mine = json.loads(json.dumps(stream_of(compiled)))
    reference = child.answer() if child is not None else json.loads(
        json.dumps(stream_of(play(rule_set, game_seed, "python"))))
    diff = first_difference(mine, reference)
    if diff is not None:
        summary.identical = False
        summary.divergence = {"rule_set": rule_set.name, "seed": game_seed, "first": diff}
        return False
    summary.games[rule_set.name] += 1
    summary.hands[rule_set.name] = summary.hands.get(rule_set.name, 0) + _hands(compiled)
    summary.events[rule_set.name] = summary.events.get(rule_set.name, 0) + len(mine) - 1
    return True


if __name__ == "__main__":  # the pure-Python child of the MCR check
    _serve(RuleSet.from_argv(sys.argv[1:]), sys.stdin, sys.stdout)
