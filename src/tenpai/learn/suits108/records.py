"""The 108-tile rules' entry in the learning registry, and the self-play records it learns from.

No public records exist for these rules, so the training records are games our engine plays
(:func:`write_selfplay_records`, ``tenpai dataset record --rules suits108``) and saves as mjai
JSONL.  While playing, every seat that lets a claimable discard go is written as a ``none``
event with the calls the engine offered (``choices``) — the same convention the Riichi and MCR
replays use — because the engine's own event log has no pass events and a learner must see
when not to call.  Reading back, the ``none`` events are set aside and the rest is re-driven
through the engine (:func:`tenpai.rules.suits108.replay.redrive`): a record that is not a legal
game is skipped as diverged.

Decisions are Riichi's extraction (:func:`tenpai.learn.decisions.iter_decisions`) with this
rule set's wall (56 drawable tiles, no dead wall) and its declaration rule; the ``riichi`` kind
here is the ready declaration (mjai ``reach``), which locks the hand, so the discards after it
are forced and never decisions.  Played under the ``paper`` preset.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final

from tenpai.events import Event
from tenpai.learn.decisions import DECISION_KINDS, NUM_CLASSES, iter_decisions
from tenpai.learn.learning_rules import Decision, LearningRules, RecordOptions, SplitRule
from tenpai.learn.riichi import plain_arch_config
from tenpai.learn.state import RoundTracker

if TYPE_CHECKING:
    from tenpai.engine.agent import Agent
    from tenpai.engine.flow import GameFlow
    from tenpai.records.game import Game

__all__ = ["LIVE_WALL", "RULES", "play_with_passes", "ready_allowed", "write_selfplay_records"]

#: Drawable tiles after the deal: 108 - 4 × 13, no dead wall.
LIVE_WALL: Final = 56
SPLIT: Final = SplitRule(10, 8, 9)


def ready_allowed(tracker: RoundTracker, seat: int) -> bool:
    """The engine's condition for the ready declaration, read from the tracker (14 tiles).

    The rule set's own shape test (:func:`tenpai.rules.suits108.shapes.can_become_ready`) with
    the ``paper`` preset's flags, so the learner and the engine cannot disagree.
    """
    from tenpai.rules.suits108.ruleset import PAPER
    from tenpai.rules.suits108.shapes import can_become_ready

    if not PAPER.ready_declaration or tracker.riichi[seat]:
        return False
    if PAPER.ready_requires_closed and tracker.open_hand[seat]:
        return False
    return can_become_ready(tracker.hand_counts(seat), quads_as_pairs=PAPER.seven_pairs_allow_quads)


def _decisions(
    events: Sequence[Event], kinds: tuple[str, ...], max_loss: int | None
) -> Iterator[Decision]:
    return iter_decisions(
        events,
        kinds=kinds,
        max_loss=max_loss,
        tracker=RoundTracker(live_wall=LIVE_WALL),
        may_declare=ready_allowed,
    )


def _keep(game: Game, opts: RecordOptions) -> str | None:
    if game.players != opts.players:
        return f"{game.players}-player game"
    if not game.rounds:
        return "no complete round"
    return None


def _game_id(game: Game, name: str, index: int, count: int) -> str:
    return name if count == 1 else f"{name}#{index}"


def _replay(game: Game, _opts: RecordOptions, _name: str) -> list[Event] | None:
    """The record's events (passes included) when its actions re-drive the engine exactly."""
    from tenpai.rules.suits108.replay import ReplayError, redrive

    events = game.events()
    try:
        redrive([e for e in events if e.type != "none"])
    except ReplayError:
        return None
    return events


def _accept_file(path: Path) -> bool:
    return path.suffix in (".jsonl", ".mjson", ".json")


def play_with_passes(game: GameFlow, agents: Sequence[Agent], events: list[Event]) -> list[Event]:
    """Play ``game`` to its end; return its events with a ``none`` event for every pass.

    ``events`` is the game's own (growing) event log.  A pass is a claim-window decision whose
    legal list holds ``none`` and something else, answered with ``none``; it is written right
    after the discard that opened the window, with the offered call types as ``choices``.
    """
    passes: list[tuple[int, Event]] = []
    while not game.done:
        at = len(events)
        answers: dict[int, Event] = {}
        for d in game.pending():
            answer = agents[d.seat].act(d.observation, d.legal)
            answers[d.seat] = answer
            offered = sorted({e.type for e in d.legal if e.type != "none"})
            if answer.type == "none" and offered and any(e.type == "none" for e in d.legal):
                passes.append((at, Event("none", actor=d.seat, choices=tuple(offered))))
        game.step(answers)
    out: list[Event] = []
    k = 0
    for i, e in enumerate(events):
        while k < len(passes) and passes[k][0] == i:
            out.append(passes[k][1])
            k += 1
        out.append(e)
    out.extend(p for _, p in passes[k:])
    return out


def write_selfplay_records(
    out: str | Path,
    games: int,
    agents: Sequence[str],
    seed: int,
    make_agent: Callable[[str, int], Agent],
) -> list[Path]:
    """Play ``games`` games of the ``paper`` preset with the named agents (one per seat, seeds
    ``seed``, ``seed + 1`` …) and write each as ``out/suits108-s{seed}.mjson``; returns the
    paths.  Existing files are never overwritten (a clear error instead).

    ``make_agent(name, seed)`` builds the players (the caller passes the agent registry's):
    learning sits below the agents, so it is handed its teachers rather than importing them.
    """
    from tenpai.records.game import Game
    from tenpai.records.mjai import write_mjai
    from tenpai.rules.suits108 import PAPER, Suits108Game

    if len(agents) != 4:
        raise ValueError(f"four agents are needed, one per seat; got {len(agents)}")
    if games < 1:
        raise ValueError(f"the number of games must be positive, got {games}")
    folder = Path(out)
    targets = [folder / f"suits108-s{seed + g}.mjson" for g in range(games)]
    clash = next((p for p in targets if p.exists()), None)
    if clash is not None:
        raise FileExistsError(f"{clash} already exists; choose another folder or seed")
    folder.mkdir(parents=True, exist_ok=True)
    for g, path in enumerate(targets):
        s = seed + g
        players = [make_agent(name, s * 4 + i) for i, name in enumerate(agents)]
        flow = Suits108Game(PAPER, seed=s, names=tuple(agents))
        events = play_with_passes(flow, players, flow.events)
        record = Game(source=str(path), format="mjai", names=tuple(agents))
        record.rounds = _rounds(events)
        record.final_scores = flow.final_scores
        write_mjai(record, path)
    return targets


def _rounds(events: Sequence[Event]) -> list[list[Event]]:
    rounds: list[list[Event]] = []
    for e in events:
        if e.type == "start_kyoku":
            rounds.append([])
        if rounds and e.type not in ("start_game", "end_game"):
            rounds[-1].append(e)
    return rounds


RULES: Final = LearningRules(
    name="suits108",
    kinds=DECISION_KINDS,
    classes=NUM_CLASSES,
    class_names={
        "riichi": "0 no, 1 ready declaration",
        "pon": "0 pass, 1 pong",
        "chi": "0 pass, 1-3 chow with the claimed tile lowest/middle/highest",
        "kan": "0 no, 1 kong",
    },
    encoders={"s108": "tenpai.learn.suits108.s108"},
    default_encoder="s108",
    split=SPLIT,
    filters=frozenset({"max_loss", "players"}),
    default_rooms=None,
    default_max_loss=None,
    accept_file=_accept_file,
    keep=_keep,
    game_id=_game_id,
    replay=_replay,
    decisions=_decisions,
    arch_config=plain_arch_config,
    train_defaults={
        "batch_size": 256,
        "weight_decay": 0.0,
        "max_epochs": 20,
        "max_minutes": 5.0,
        "eval_every": 0,
        "patience": 3,
        "dev_limit": 20_000,
    },
    default_model=None,
    write_records=write_selfplay_records,
)

