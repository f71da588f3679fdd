"""Two engine paths of one seeded game driven in lock-step (``tenpai verify engines``).

Playing the game twice, once per path, makes the agents decide twice, and the agents cost far
more than either engine.  Here they decide once: the compiled game asks them, and its
reference (the Python round in this process, or a child process with every extension off)
takes the same answers.  Before every step the reference must offer the same decisions: the
same seats, the same legal actions in the same order and the same observation fields; after
every step it must have logged the same new events; at the end, the same final scores.  That
is a stronger check than comparing whole streams at the end: a legal action offered on one
path only is caught even when no agent takes it.

A reference reports a :class:`Report` per step: plain Python objects in this process, their
JSON form from the child (compared against the compiled side's JSON form, so a tuple and a
list of the same items agree and nothing else does).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any, Final, Protocol, TextIO

from tenpai.engine.flow import Decision, GameFlow
from tenpai.engine.meld import Meld
from tenpai.events import Event

__all__ = [
    "OBSERVED",
    "ChildReference",
    "InProcessReference",
    "LockstepResult",
    "Reference",
    "Report",
    "lockstep",
    "report_of",
    "serve",
]

#: The event fields that take part in equality (``meta`` does not).
FIELDS: Final = tuple(f.name for f in fields(Event) if f.compare)

#: Observation fields compared at every decision, where the observation has them.  The
#: masked event list is left out: both paths mask with the same function over the hand's
#: events, and those events are compared after every step.
OBSERVED: Final = (
    "seat", "hand", "counts", "drawn", "melds", "rivers", "visible_counts", "riichi",
    "dora_markers", "nukidora", "flowers", "players", "scores", "wall_remaining", "draws_left",
    "bakaze", "prevalent_wind", "kyoku", "honba", "kyotaku", "oya", "seat_wind",
)


@dataclass(slots=True)
class Report:
    """One path's state between two steps: its pending decisions (seat, legal actions,
    observation fields), the events logged since the previous report, and whether it ended
    (with its final scores)."""

    pending: list[Any]
    events: list[Any]
    done: bool
    final: Any


_VIEWS: dict[type, tuple[tuple[str, bool], ...]] = {}


def observation_view(obs: Any) -> tuple[tuple[str, Any], ...]:
    """The compared observation fields as (name, value) pairs."""
    kind = type(obs)
    names = _VIEWS.get(kind)
    if names is None:  # which fields the class has, and which are methods, once per class
        names = _VIEWS[kind] = tuple(
            (n, callable(getattr(kind, n, None) or getattr(obs, n))) for n in OBSERVED
            if hasattr(kind, n) or hasattr(obs, n))
    return tuple((n, getattr(obs, n)() if method else getattr(obs, n)) for n, method in names)


def report_of(game: GameFlow, since: int) -> Report:
    """The game's report, events from index ``since`` on, as Python objects."""
    done = game.done
    pending = [] if done else [
        (d.seat, tuple(d.legal), observation_view(d.observation)) for d in game.pending()]
    return Report(pending, game.events[since:], done,
                  tuple(game.final_scores) if done else None)


def plain(v: Any) -> Any:
    """The JSON form of a report's contents (tuples as lists, events as field lists)."""
    return json.loads(report_json_of(v))


_ROW = attrgetter(*FIELDS)


def _jsonable(v: Any) -> Any:
    if isinstance(v, Event):
        return _ROW(v)
    if isinstance(v, Meld):
        return (v.type, v.tiles, v.called, v.target, v.added)
    raise TypeError(f"not in a report: {type(v).__name__}")


def report_json_of(v: Any) -> str:
    """One JSON text per value, the same on both sides of the pipe (events as their compared
    fields in order, melds as their fields): the child's line and the compiled side's text
    are compared as strings, and parsed only to name a difference."""
    return json.dumps(v, default=_jsonable, separators=(",", ":"))


def report_json(r: Report) -> str:
    return report_json_of([r.pending, r.events, r.done, r.final])


def report_from_json(line: str) -> Report:
    pending, events, done, final = json.loads(line)
    return Report(pending, events, done, final)


def show_event(row: Any) -> str:
    """An event (object or field list) with its empty fields left out, for a message."""
    if isinstance(row, Event):
        row = plain(row)
    if isinstance(row, list) and len(row) == len(FIELDS):
        return str({k: v for k, v in zip(FIELDS, row) if v not in (None, [], ())})
    return str(row)


def compare(mine: Report, ref: Report, where: str) -> str | None:
    """The first difference between the compiled side's report and the reference's, named
    with ``where`` (None: they agree)."""
    for i, (x, y) in enumerate(zip(mine.events, ref.events)):
        if x != y:
            return (f"{where}, new event {i}: compiled {show_event(x)} / "
                    f"python {show_event(y)}")
    if len(mine.events) != len(ref.events):
        return (f"{where}: compiled logged {len(mine.events)} events / python "
                f"{len(ref.events)}")
    if mine.done != ref.done:
        return f"{where}: compiled {'ended' if mine.done else 'goes on'} / python " \
               f"{'ended' if ref.done else 'goes on'}"
    if mine.done:
        if mine.final != ref.final:
            return f"final scores: compiled {mine.final} / python {ref.final}"
        return None
    seats_m = [p[0] for p in mine.pending]
    seats_r = [p[0] for p in ref.pending]
    if seats_m != seats_r:
        return f"{where}: seats to decide compiled {seats_m} / python {seats_r}"
    for (seat, legal_m, obs_m), (_, legal_r, obs_r) in zip(mine.pending, ref.pending):
        if legal_m != legal_r:
            only_m = [show_event(e) for e in legal_m if e not in legal_r]
            only_r = [show_event(e) for e in legal_r if e not in legal_m]
            return (f"{where}: seat {seat}'s legal actions differ: compiled only "
                    f"[{', '.join(only_m)}], python only [{', '.join(only_r)}]"
                    + ("" if only_m or only_r else " (the order)"))
        if obs_m != obs_r:
            for (name, a), (_, b) in zip(obs_m, obs_r):
                if a != b:
                    return (f"{where}: seat {seat}'s observation differs in {name}: "
                            f"compiled {a} / python {b}")
            return f"{where}: seat {seat}'s observation fields differ"
    return None


class Reference(Protocol):
    """The other path of a lock-step game: started on a seed, stepped with the answers'
    indices in its own legal lists (equal to the compiled side's, checked before)."""

    def start(self, seed: int) -> Report | str: ...

    def step(self, answers: Sequence[tuple[int, int]]) -> Report | str: ...

    #: whether its reports are JSON lines (compared with :func:`report_json` of the compiled
    #: side's) rather than :class:`Report` objects
    json_form: bool


class InProcessReference:
    """The reference game in this process (Riichi: the Python round)."""

    json_form = False

    def __init__(self, new_game: Callable[[int], GameFlow]) -> None:
        self.new_game = new_game
        self.game: GameFlow | None = None
        self.seen = 0

    def start(self, seed: int) -> Report:
        self.game = self.new_game(seed)
        self.seen = 0
        return self._report()

    def step(self, answers: Sequence[tuple[int, int]]) -> Report:
        assert self.game is not None
        legal = {d.seat: d.legal for d in self.game.pending()}
        self.game.step({seat: legal[seat][k] for seat, k in answers})
        return self._report()

    def _report(self) -> Report:
        assert self.game is not None
        r = report_of(self.game, self.seen)
        self.seen = len(self.game.events)
        return r


class ChildReference:
    """The reference game in a child process with every extension off (MCR: the fan
    evaluator is chosen per process).  One JSON line each way per step."""

    json_form = True

    def __init__(self, argv: Sequence[str]) -> None:
        env = dict(os.environ, TENPAI_PURE_PYTHON="1")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tenpai.arena.engine_check", *argv],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True, bufsize=1)

    def start(self, seed: int) -> str:
        return self._ask({"seed": seed})

    def step(self, answers: Sequence[tuple[int, int]]) -> str:
        return self._ask({"answers": [list(a) for a in answers]})

    def _ask(self, message: dict[str, Any]) -> str:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the pure-Python child process ended without an answer")
        if line.startswith("{"):
            raise RuntimeError(f"the pure-Python child: {json.loads(line)['error']}")
        return line.rstrip("\n")

    def cpu(self) -> float:
        """The child's CPU seconds so far (Linux's /proc; 0 where it cannot be read)."""
        try:
            with open(f"/proc/{self.proc.pid}/stat") as fh:
                parts = fh.read().rsplit(")", 1)[1].split()
            return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            return 0.0

    def close(self) -> None:
        """End the child (its CPU time then counts in this process's children's); closing its
        input ends its loop, and an answer not read yet is read and dropped."""
        self.proc.communicate()


def serve(new_game: Callable[[int], GameFlow], inp: TextIO, out: TextIO) -> None:
    """The child's loop: a ``{"seed": s}`` line starts a game, an ``{"answers": [[seat,
    index], ...]}`` line steps it; each is answered with one JSON report line (or
    ``{"error": ...}`` when the step is refused)."""
    ref = InProcessReference(new_game)
    for line in inp:
        message = json.loads(line)
        try:
            r = ref.start(message["seed"]) if "seed" in message else ref.step(
                [(int(s), int(k)) for s, k in message["answers"]])
        except Exception as exc:  # the parent reports it as a difference
            out.write(json.dumps({"error": f"{type(exc).__name__}: {exc}"}) + "\n")
        else:
            out.write(report_json(r) + "\n")
        out.flush()


@dataclass(slots=True)
class LockstepResult:
    """One game compared in lock-step: the compiled game, the decisions and observations
    compared, and the first difference (None: identical)."""

    game: GameFlow
    decisions: int
    observations: int
    difference: str | None


def _index(legal: Sequence[Event], answer: Event) -> int:
    for k, e in enumerate(legal):
        if e is answer:
            return k
    return list(legal).index(answer)


def lockstep(game: GameFlow, reference: Reference, seed: int,
             agents: Sequence[Any], *, max_steps: int = 100_000) -> LockstepResult:
    """Drive ``game`` (the compiled path) and ``reference`` with one set of answers, the
    agents asked on the compiled side only, comparing the two at every step."""
    decisions = observations = 0
    seen = 0
    steps = 0

    def check(ref: Report | str, where: str) -> str | None:
        nonlocal seen
        r = report_of(game, seen)
        seen = len(game.events)
        if isinstance(ref, Report):
            return compare(r, ref, where)
        text = report_json(r)
        if text == ref:
            return None
        return compare(report_from_json(text), report_from_json(ref), where) or (
            f"{where}: the reports differ: compiled {text} / python {ref}")

    diff = check(reference.start(seed), "at the start")
    while diff is None and not game.done:
        pending: Sequence[Decision] = game.pending()
        decisions += 1
        observations += len(pending)
        chosen = {d.seat: agents[d.seat].act(d.observation, d.legal) for d in pending}
        answers = [(d.seat, _index(d.legal, chosen[d.seat])) for d in pending]
        game.step(chosen)
        where = f"after step {steps + 1}, at event {len(game.events)}"
        try:
            ref = reference.step(answers)
        except Exception as exc:  # a refused answer is a difference
            diff = f"{where}: python refused the answers {answers}: {exc}"
            break
        diff = check(ref, where)
        steps += 1
        if steps > max_steps:
            raise RuntimeError(f"seed {seed}: the game does not end")
    return LockstepResult(game, decisions, observations, diff)

