"""One human against three built-in agents, run on the server one decision at a time.

The engine's :class:`~tenpai.engine.flow.GameFlow` stays on the server.  :meth:`PlayGame.advance`
lets the agents answer until the human (player 0) must decide or the game ends, and returns the
events the human may see — masked for the human's table position — each with a snapshot of the
table as the human knows it.  The human answers with the *index* of one of the legal actions
offered and the id of the decision it answers, so a stale or forged click is refused here
whatever the browser did.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from tenpai.agents.registry import AGENTS, default_agent, make_agent
from tenpai.agents.rulesets import UnsupportedRulesError, check_agent_rules, check_built_agent
from tenpai.agents.spec import AgentSpec, AgentSpecError, parse_agent_spec
from tenpai.arena.games import ArenaConfigError, make_game, rules_entry
from tenpai.engine.agent import Agent
from tenpai.engine.flow import Decision, GameFlow
from tenpai.engine.observation import mask_event
from tenpai.events import Event
from tenpai.serve.web.labels import WIND_NAMES, seat_labels
from tenpai.serve.web.opponents import (
    DEFAULT_THINK_MS,
    INSTRUMENT_SETTINGS,
    apply_think_time,
    timeout_action,
)
from tenpai.serve.web.tableview import TableView, live_wall_for

__all__ = [
    "HUMAN",
    "MAX_EVENTS",
    "MAX_THINK_MS",
    "GameSettings",
    "PlayError",
    "PlayGame",
    "action_json",
]

#: The human is always player 0 (the first dealer in Riichi; MCR reseats players by wind).
HUMAN = 0
#: A guard on memory per game: no real game comes near this many events.
MAX_EVENTS = 20_000
#: The longest think time a player may give the searching opponents (ms per decision).
MAX_THINK_MS = 10_000


_COUNT_WORDS: Final = {1: "one", 2: "two", 3: "three"}


class PlayError(ValueError):
    """A request the game cannot accept (bad settings, a stale decision, an unknown action)."""


@dataclass(frozen=True, slots=True)
class GameSettings:
    """What a player chooses before a game: rule set, its options, opponents, seed, and the
    think time of opponents that search (milliseconds per decision)."""

    rules: str
    options: Mapping[str, str]
    opponents: tuple[str, ...]
    seed: int
    #: Think time per searched decision (ms) for opponents that search (``search``).
    think_ms: float = DEFAULT_THINK_MS

    @classmethod
    def parse(cls, body: Mapping[str, Any]) -> GameSettings:
        """Check a request body; every problem becomes a :class:`PlayError` naming the field."""
        rules = body.get("rules", "riichi")
        if not isinstance(rules, str):
            raise PlayError("rules must be a name")
        try:
            entry = rules_entry(rules)
        except ArenaConfigError as exc:
            raise PlayError(str(exc)) from None
        raw = body.get("options") or {}
        if not isinstance(raw, dict):
            raise PlayError("options must be an object")
        if not all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in raw.values()):
            raise PlayError("options values must be strings or whole numbers")
        options = {str(k): str(v) for k, v in raw.items()}
        try:
            options = entry.options(options)
        except ArenaConfigError as exc:
            raise PlayError(str(exc)) from None
        # A three-player preset (tenhou_sanma) seats two opponents, not three.
        wanted = entry.seat_count(options) - 1
        opponents = body.get("opponents", [default_agent(rules)] * wanted)
        if not isinstance(opponents, list) or len(opponents) != wanted:
            raise PlayError(
                f"choose exactly {_COUNT_WORDS.get(wanted, str(wanted))} opponents for these rules"
            )
        specs = [_opponent_spec(name, rules) for name in opponents]
        seed = body.get("seed", 0)
        if isinstance(seed, str) and seed.strip().isdigit():
            seed = int(seed)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise PlayError("seed must be a whole number")
        if not 0 <= seed < 2**63:
            raise PlayError("seed must be between 0 and 2**63 - 1")
        # the menu offers THINK_CHOICES_MS; a program may ask for any time up to the maximum
        think = body.get("think_ms", DEFAULT_THINK_MS)
        if isinstance(think, bool) or not isinstance(think, (int, float)):
            raise PlayError("think_ms must be a number of milliseconds")
        if not 0 < think <= MAX_THINK_MS:
            raise PlayError(f"think_ms must be in (0, {MAX_THINK_MS}], got {think}")
        return cls(rules, options, tuple(str(spec) for spec in specs), seed, float(think))


def _opponent_spec(name: object, rules: str) -> AgentSpec:
    """One opponent as the player named it: a registry name, or one with settings for that seat
    in brackets (``search[WORLDS=32]``, as on the command line).  The name, the rule set and the
    setting keys are checked here, before any game starts; a bad value is found when the agent
    is built (:class:`PlayGame`), still before the first deal."""
    if not isinstance(name, str):
        raise PlayError(f"an opponent must be an agent's name, got {name!r}")
    try:
        spec = parse_agent_spec(name)
    except AgentSpecError as exc:
        raise PlayError(str(exc)) from None
    entry = AGENTS.get(spec.name)
    if entry is None:  # also every external seat (mjai:, botzone:): not offered at this table
        raise PlayError(f"unknown agent {spec.name!r}; known: {', '.join(sorted(AGENTS))}")
    try:  # before any game: an agent of another rule set breaks it mid-way
        check_agent_rules(spec.name, rules)
    except UnsupportedRulesError as exc:
        raise PlayError(str(exc)) from None
    if spec.settings:
        known = getattr(entry, "setting_names", lambda: ())()
        if not known:
            raise PlayError(f"agent {spec.name!r} takes no settings in brackets")
        unknown = [k for k, _v in spec.settings if k not in known]
        if unknown:
            offered = [k for k in known if k not in INSTRUMENT_SETTINGS]
            raise PlayError(f"agent {spec.name!r} has no setting {', '.join(unknown)}; its "
                            f"settings: {', '.join(offered)}")
        seeing = [k for k, _v in spec.settings if k in INSTRUMENT_SETTINGS]
        if seeing:
            raise PlayError(f"agent {spec.name!r}: {', '.join(seeing)} lets it see hidden tiles "
                            "(an instrument for measurements), not offered at this table")
    return spec


def action_json(index: int, e: Event) -> dict[str, Any]:
    """A legal action as the browser needs it: its index and what to draw on the button."""
    out: dict[str, Any] = {"index": index, "type": e.type}
    if e.pai is not None:
        out["pai"] = e.pai
    if e.consumed:
        out["consumed"] = list(e.consumed)
    if e.tsumogiri is not None:
        out["tsumogiri"] = e.tsumogiri
    if e.kind is not None:
        out["kind"] = e.kind
    return out


class PlayGame:
    """A game in progress: the flow, the three agents and what the human has been shown."""

    def __init__(self, settings: GameSettings, human_name: str = "you") -> None:
        self.settings = settings
        names = [human_name, *settings.opponents]
        self.names = names
        self.flow: GameFlow = make_game(settings.rules, settings.seed, names, settings.options)
        self.agents: list[Agent | None] = [None]
        for i, name in enumerate(settings.opponents):
            spec = parse_agent_spec(name)  # checked by GameSettings.parse
            try:
                agent = make_agent(name, settings.seed * 4 + i + 1)
                check_built_agent(spec.name, agent, settings.rules,  # its model's rules, seats
                                  rules_entry(settings.rules).seat_count(settings.options))
                # a think time written in the seat's brackets wins over the menu's, as a
                # bracket setting wins over the environment everywhere else
                if "BUDGET_MS" not in dict(spec.settings):
                    apply_think_time(spec.name, agent, settings.think_ms)
            except (ValueError, OSError, ImportError) as exc:  # a model file, a missing extra
                raise PlayError(f"agent {name!r} cannot play here: {exc}") from None
            self.agents.append(agent)
        self.lock = threading.Lock()
        self.sent = 0  # events of flow.events already turned into frames
        self.view = TableView(names, live_wall_for(settings.rules, len(names)))
        self.decision_id = 0
        self._human: Decision | None = None
        self._bot_answers: dict[int, Event] = {}
        self.last_active = time.monotonic()
        self.error: str | None = None
        self._viewer = HUMAN

    # ------------------------------------------------------------------ state
    @property
    def done(self) -> bool:
        return self.flow.done or self.error is not None

    def _position(self) -> int:
        """The human's table position in the current hand (MCR moves players between hands)."""
        position_of = getattr(self.flow, "position_of", None)
        return int(position_of(HUMAN)) if callable(position_of) else HUMAN

    def _hide_kans(self) -> bool:
        return self.settings.rules == "mcr"

    # ------------------------------------------------------------------ driving
    def advance(self) -> dict[str, Any]:
        """Let the agents play until the human must decide; the frames and the offer."""
        while not self.done and self._human is None:
            pending = self.flow.pending()
            human = next((d for d in pending if d.seat == HUMAN), None)
            for d in pending:
                if d.seat != HUMAN and d.seat not in self._bot_answers:
                    agent = self.agents[d.seat]
                    assert agent is not None
                    self._bot_answers[d.seat] = agent.act(d.observation, d.legal)
            if human is not None:
                self._human = human
                self.decision_id += 1
                break
            self._step({})
        return self.update()

    def act(self, decision_id: int, index: int) -> dict[str, Any]:
        """The human's answer; refused unless it names the current decision and a legal action."""
        self.last_active = time.monotonic()
        if self._human is None or decision_id != self.decision_id:
            raise PlayError("that decision is no longer open")
        legal = self._human.legal
        if not 0 <= index < len(legal):
            raise PlayError(f"action {index} is not one of the {len(legal)} legal actions")
        answer = legal[index]
        self._human = None
        self._step({HUMAN: answer})
        return self.advance()

    def _step(self, human: dict[int, Event]) -> None:
        answers = {**self._bot_answers, **human}
        self._bot_answers = {}
        self.flow.step(answers)
        if len(self.flow.events) > MAX_EVENTS:
            self.error = f"the game passed {MAX_EVENTS} events and was stopped"

    # ------------------------------------------------------------------ output
    def _frames(self) -> list[dict[str, Any]]:
        frames = []
        events = self.flow.events
        while self.sent < len(events):
            e = events[self.sent]
            self.sent += 1
            if e.type == "start_kyoku":
                seating = (e.meta or {}).get("seating")
                self._viewer = list(seating).index(HUMAN) if seating else HUMAN
            viewer = self._viewer
            masked = mask_event(e, viewer, hide_closed_kans=self._hide_kans())
            self.view.apply(masked)
            frames.append({"event": masked.to_mjai(), "table": self.view.snapshot(viewer)})
        return frames

    def update(self) -> dict[str, Any]:
        """Everything new for the browser: frames since the last update and the open decision."""
        frames = self._frames()
        offer = None
        if self._human is not None:
            offer = {
                "id": self.decision_id,
                "actions": [action_json(i, e) for i, e in enumerate(self._human.legal)],
                # what the move timer plays at zero (the browser runs the clock)
                "timeout": timeout_action(self._human.legal),
            }
        return {
            "frames": frames,
            "decision": offer,
            "done": self.done,
            "error": self.error,
            "final": list(self.flow.final_scores) if self.flow.done else None,
            "names": self.names,
            "labels": seat_labels(self.names),
            "start_winds": self._start_winds(),
        }

    def _start_winds(self) -> list[str] | None:
        """Each player's seat wind in the first hand, so the ranking can say who sat where."""
        first = next((e for e in self.flow.events if e.type == "start_kyoku"), None)
        if first is None:
            return None
        seating = (first.meta or {}).get("seating")
        positions = [int(p) for p in seating] if seating else list(range(len(self.names)))
        oya = first.oya if first.oya is not None else 0
        winds = [""] * len(self.names)
        for position, player in enumerate(positions):
            if player < len(winds):
                winds[player] = WIND_NAMES[(position - oya) % len(positions)]
        return winds

    def resync_or_start(self) -> dict[str, Any]:
        """The first call starts the game (agents play up to the human); later calls resync."""
        self.last_active = time.monotonic()
        return self.advance() if self.sent == 0 else self.resync()

    def resync(self) -> dict[str, Any]:
        """The whole picture again (a reconnecting browser): the current table, no animation."""
        update = self.update()
        viewer = self._viewer
        update["frames"] = [{"event": None, "table": self.view.snapshot(viewer)}]
        return update

    def record_lines(self) -> list[str]:
        """The finished game as mjai JSON lines (the whole, unmasked stream)."""
        return [json.dumps(e.to_mjai(), ensure_ascii=False) for e in self.flow.events]

    def human_legal(self) -> Sequence[Event]:
        return () if self._human is None else self._human.legal
