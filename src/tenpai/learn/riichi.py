"""Riichi's entry in the learning registry: Tenhou records, Gao's encoders, five decision kinds.

The hooks the shared pipeline calls for Riichi records: which games to keep (four-player games
of the chosen Tenhou lobbies), how a game is named (Tenhou's id when the record carries one),
how it is replayed (:func:`tenpai.replay.riichi.replay_riichi`, which adds the implicit
passes), and the network config of a head.  See docs/learning.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from tenpai.learn.decisions import DECISION_KINDS, NUM_CLASSES, iter_decisions
from tenpai.learn.encoders import ISSUE19_ENCODERS
from tenpai.learn.learning_rules import Decision, LearningRules, RecordOptions, SplitRule

if TYPE_CHECKING:
    from tenpai.events import Event
    from tenpai.records.game import Game

__all__ = ["RULES", "SPLIT", "game_id_of", "plain_arch_config"]

#: 90 / 5 / 5 by the first 8 hex digits of sha256(game id) modulo 100.
SPLIT: Final = SplitRule(100, 90, 95)
_TENHOU_ID: Final = re.compile(r"\d{10}gm-[0-9a-f]{4}-\d{4,5}-[0-9a-f]{8}")


def game_id_of(game: Game) -> str:
    """Tenhou's game id when the source name or the record carries one, else the file stem."""
    for text in (str(game.extra.get("id", "")), Path(game.source).name):
        m = _TENHOU_ID.search(text)
        if m:
            return m.group(0)
    return Path(game.source).stem


def iter_riichi_games(
    paths: Iterable[str | Path],
    rooms: tuple[str, ...] | None = None,
    *,
    complete: bool = False,
    on_skip: Callable[[str], None] | None = None,
    players: int = 4,
) -> Iterator[tuple[str, Game]]:
    """(game id, Game) of each Riichi game of ``players`` seats (four unless asked; three is
    Tenhou's sanma) in ``paths``, de-duplicated by game id, in file order; ``rooms`` keeps those
    lobbies only, ``complete`` only games that ran to their final scores.  The game sources that
    fitting models read (001's opponent models, the search's placement models) share it, so they
    agree on what counts as one game."""
    from tenpai.records import RecordError
    from tenpai.replay.runner import iter_record_files, load_record

    seen: set[str] = set()
    for f in iter_record_files([Path(p) for p in paths]):
        try:
            games = load_record(f)
        except (RecordError, ValueError, OSError) as err:
            if on_skip is not None:
                on_skip(f"{f}: {type(err).__name__}")
            continue
        for g in games:
            if g.rules.variant != "riichi" or g.players != players or not g.rounds:
                continue
            if complete and (g.truncated or not g.final_scores
                             or len(g.final_scores) != players):
                continue
            if rooms is not None and g.rules.room not in rooms:
                continue
            gid = game_id_of(g)
            if gid in seen:
                continue
            seen.add(gid)
            yield gid, g


def final_ranks(final: Sequence[int]) -> list[int]:
    """0-based rank of each seat from final scores, ties to the earlier seat (Tenhou's rule)."""
    order = sorted(range(len(final)), key=lambda s: (-final[s], s))
    out = [0] * len(final)
    for r, s in enumerate(order):
        out[s] = r
    return out


def _game_id(game: Game, _name: str, _index: int, _count: int) -> str:
    return game_id_of(game)


def _keep(game: Game, opts: RecordOptions) -> str | None:
    """Why the game is left out (``None``: keep it)."""
    if game.rules.variant != "riichi":
        return f"variant {game.rules.variant}"
    if game.players != opts.players:
        return f"{game.players}-player game"
    if opts.rooms is not None and game.rules.room not in opts.rooms:
        return f"room {game.rules.room or 'unknown'}"
    if not game.rounds:
        return "no complete round"
    return None


def _replay(game: Game, opts: RecordOptions, name: str) -> list[Event] | None:
    from tenpai.replay.riichi import replay_riichi
    from tenpai.replay.runner import riichi_rules_for

    result = replay_riichi(
        game.events(),
        rules=riichi_rules_for(game, opts.preset),
        final_scores=None if game.truncated else game.final_scores,
        name=name,
    )
    return list(result.events) if result.ok else None


def _decisions(
    events: Sequence[Event], kinds: tuple[str, ...], max_loss: int | None
) -> Iterator[Decision]:
    return iter_decisions(events, kinds=kinds, max_loss=max_loss)


def plain_arch_config(
    arch: str, shape: Sequence[int], classes: int, _kind: str
) -> dict[str, Any]:
    """The architecture at its own defaults, sized to the input (``--arch-options`` add to it)."""
    size_key = "in_features" if arch == "ffn" else "in_channels"
    return {"arch": arch, size_key: int(shape[0]), "classes": classes}


def _accept_any(_path: Path) -> bool:
    return True


RULES: Final = LearningRules(
    name="riichi",
    kinds=DECISION_KINDS,
    classes=NUM_CLASSES,
    class_names={
        "riichi": "0 no, 1 riichi",
        "pon": "0 pass, 1 pon",
        "chi": "0 pass, 1-3 chi with the called tile lowest/middle/highest",
        "kan": "0 no, 1 kan",
    },
    encoders={
        n: f"tenpai.learn.encoders.{n}"
        for n in ("gao56", "gao68", "gao86", "gao86e", "ffn352", *ISSUE19_ENCODERS)
    },
    default_encoder="gao68",
    split=SPLIT,
    filters=frozenset({"rooms", "max_loss", "players"}),
    default_rooms=("houou",),
    default_max_loss=1500,
    accept_file=_accept_any,
    keep=_keep,
    game_id=_game_id,
    replay=_replay,
    decisions=_decisions,
    arch_config=plain_arch_config,
    train_defaults={
        "batch_size": 256,
        "weight_decay": 0.0,
        "max_epochs": 20,
        "max_minutes": 10.0,
        "eval_every": 50_000,
        "patience": 3,
        "dev_limit": 20_000,
    },
    default_model="sl_default.pt",
)
