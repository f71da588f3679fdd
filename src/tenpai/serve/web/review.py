"""Review: put an agent in a player's seat at every decision of a game and compare.

The game is re-driven through the engine so that each decision comes with the real observation
and the engine's own legal actions — the same things the agent would get in play.  Answers are
read from the game's event stream (a record's replayed stream, or the stream of a game played
in the browser), so the engine walks exactly the same path.  At each of the reviewed player's
decisions the agent is asked what it would do; agents that expose scores (the ``sl`` networks)
also give a probability for every legal action, rule agents only their choice.

Each decision gets an expected loss (:func:`expected_loss`: the probability gap, or 0/1 for a
rule agent's choice), the game a rating from their mean, and the stream a hand-by-hand
timeline (:mod:`tenpai.serve.web.timeline`) so a reader starts from the hands that mattered.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tenpai import tiles as T
from tenpai.engine.agent import Agent
from tenpai.engine.flow import Decision, GameFlow
from tenpai.engine.observation import mask_event
from tenpai.events import Event
from tenpai.serve.web.labels import round_label, tile_label
from tenpai.serve.web.play import action_json
from tenpai.serve.web.tableview import TableView
from tenpai.serve.web.timeline import HandKey, hand_of_events, hand_timeline

__all__ = [
    "ReviewError", "action_probabilities", "expected_loss", "follow_stream", "review_record",
    "summarize",
]

#: Decisions reviewed per game at most (a bound on work and on the answer's size).
MAX_DECISIONS = 400
_CALL_TYPES = frozenset({"chi", "pon", "daiminkan"})
_PASSIVE = frozenset({"dora", "reach_accepted"})


class StreamEnded(Exception):
    """Raised by a wall source when a partial record has no more hands: the review stops."""


class ReviewError(ValueError):
    """The game cannot be reviewed (unsupported rules, or the engine and the stream disagree)."""


@dataclass(frozen=True, slots=True)
class Judged:
    """What the agent thinks of one decision: its choice and, when it has them, probabilities."""

    choice: int
    probs: list[float] | None


def _same(e: Event, rec: Event) -> bool:
    """Whether a legal action is the one the stream shows (fields a record may omit ignored)."""
    if e.type != rec.type:
        return False
    if e.type == "ryukyoku":
        return True
    if e.actor != rec.actor:
        return False
    if e.type in ("reach", "none"):
        return True
    if e.type == "hora":
        return e.target == rec.target
    if e.pai != rec.pai:
        return False
    if e.type in _CALL_TYPES or e.type in ("ankan", "kakan"):
        same_tiles = sorted(e.consumed) == sorted(rec.consumed)
        return same_tiles and (e.type in ("ankan", "kakan") or e.target == rec.target)
    if e.type == "dahai":
        return e.tsumogiri is None or rec.tsumogiri is None or e.tsumogiri == rec.tsumogiri
    return True


def _answer(d: Decision, actions: Sequence[Event], n: int) -> Event:
    """The action the stream shows for decision ``d`` when the flow has emitted ``n`` events."""
    while n < len(actions) and actions[n].type in _PASSIVE:
        n += 1  # emitted by the engine itself once the decision is made (riichi accepted, dora)
    if n >= len(actions):
        raise ReviewError("the game's stream ends before the engine's game does")
    nxt = actions[n]
    seat_pos = d.observation.seat
    in_window = any(e.type == "none" for e in d.legal)
    if not in_window:
        found = next((e for e in d.legal if _same(e, nxt)), None)
        if found is None:
            raise ReviewError(f"the stream's {nxt.to_mjai()} is not legal for seat {seat_pos}")
        return found
    window: list[Event] = []
    j = n
    while j < len(actions) and actions[j].type == "hora":
        window.append(actions[j])
        j += 1
    if not window and nxt.type in _CALL_TYPES:
        window.append(nxt)
    if nxt.type == "ryukyoku" and nxt.kind == "triple_ron":
        ron = next((e for e in d.legal if e.type == "hora"), None)
        if ron is not None:
            return ron
    for rec in window:
        if rec.actor == seat_pos:
            found = next((e for e in d.legal if _same(e, rec)), None)
            if found is not None:
                return found
    return next(e for e in d.legal if e.type == "none")


def follow_stream(
    flow: GameFlow,
    stream: Sequence[Event],
    player: int,
    on_decision: Callable[[Decision, Event, TableView, int], None],
) -> None:
    """Drive ``flow`` along ``stream``, calling ``on_decision`` at each of ``player``'s choices.

    ``on_decision`` gets the decision, the action the stream took, the table as the player saw
    it, and the number of events emitted so far.  A difference between what the engine emits
    and the stream is a :class:`ReviewError` naming the event.
    """
    actions = [e for e in stream if e.type != "none"]
    view = TableView()
    shown = 0
    position = 0
    hide = getattr(flow, "hide_closed_kans", False)
    while not flow.done:
        events = flow.events
        for e in events[shown:]:
            if e.type == "start_kyoku":
                seating = (e.meta or {}).get("seating")
                position = list(seating).index(player) if seating else player
            view.apply(mask_event(e, position, hide_closed_kans=hide))
        shown = len(events)
        n = len(events)
        if n >= len(actions):
            break  # a record that stops before the end of the game
        pending = flow.pending()
        answers: dict[int, Event] = {}
        for d in pending:
            answers[d.seat] = _answer(d, actions, n)
            if d.seat == player:
                on_decision(d, answers[d.seat], view, n)
        try:
            flow.step(answers)
        except StreamEnded:
            break
        for k in range(n, min(len(flow.events), len(actions))):
            got, want = flow.events[k], actions[k]
            if got.type != want.type or got.actor != want.actor:
                raise ReviewError(
                    f"event {k}: the engine emitted {got.to_mjai()}, the game has {want.to_mjai()}"
                )


# ---------------------------------------------------------------------- agent scores
def _softmax(x: np.ndarray) -> np.ndarray:
    z = np.exp(x - x.max())
    out: np.ndarray = z / z.sum()
    return out


def action_probabilities(agent: Agent, obs: Any, legal: Sequence[Event]) -> list[float] | None:
    """A probability per legal action for agents whose networks give scores, else ``None``.

    The ``sl`` agent has one head per kind of choice (discard kind, riichi yes/no, pon yes/no,
    chi shape, kan yes/no).  The heads' softmax outputs are combined into one distribution over
    the legal actions: a "take" head's probability goes to its actions (split evenly between
    actions of the same kind), the remainder to the alternative (discarding, passing).  Wins are
    always taken, as the agent itself does.
    """
    bundle = getattr(agent, "bundle", None)
    encoder = getattr(agent, "encoder", None)
    if bundle is None or encoder is None or not hasattr(obs, "riichi"):
        return None
    from tenpai.learn.decisions import chi_class
    from tenpai.learn.state import RoundTracker

    probs = [0.0] * len(legal)
    types = {e.type for e in legal}
    if "hora" in types:
        probs[next(i for i, e in enumerate(legal) if e.type == "hora")] = 1.0
        return probs
    tracker = RoundTracker(watch=(obs.seat,))
    for e in obs.events:
        tracker.apply(e)
    heads = set(bundle.heads)

    def two_way(head: str, x: np.ndarray) -> float:
        return float(_softmax(bundle.logits(head, x)[0])[1]) if head in heads else 0.0

    def spread(indexes: list[int], mass: float) -> None:
        for i in indexes:
            probs[i] += mass / len(indexes)

    if types & {"dahai", "reach"}:
        x = encoder.encode_batch([tracker.view(obs.seat)])
        kans = [i for i, e in enumerate(legal) if e.type in ("ankan", "kakan")]
        p_kan = two_way("kan", x) if kans else 0.0
        reach = [i for i, e in enumerate(legal) if e.type == "reach"]
        p_reach = two_way("riichi", x) if reach else 0.0
        spread(kans, p_kan)
        spread(reach, (1 - p_kan) * p_reach)
        discards = [i for i, e in enumerate(legal) if e.type == "dahai"]
        rest = (1 - p_kan) * (1 - p_reach)
        if discards:
            kinds = sorted({T.kind_of(legal[i].pai or 0) for i in discards})
            logits = bundle.logits("discard", x)[0]
            dist = _softmax(np.array([logits[k] for k in kinds]))
            for k, p in zip(kinds, dist):
                spread([i for i in discards if T.kind_of(legal[i].pai or 0) == k], rest * float(p))
        others = [i for i, e in enumerate(legal) if e.type not in ("dahai", "reach", "ankan",
                                                                   "kakan")]
        if not discards:
            spread(others or list(range(len(legal))), rest)
        return _normalised(probs)
    offered = next((e.pai for e in legal if e.type in _CALL_TYPES), None)
    if offered is None:
        return None
    x = encoder.encode_batch([tracker.view(obs.seat, offered=T.kind_of(offered))])
    keep = 1.0
    pons = [i for i, e in enumerate(legal) if e.type == "pon"]
    if pons:
        p = two_way("pon", x)
        spread(pons, p)
        keep *= 1 - p
    kans = [i for i, e in enumerate(legal) if e.type == "daiminkan"]
    if kans:
        p = two_way("kan", x)
        spread(kans, keep * p)
        keep *= 1 - p
    chis = [i for i, e in enumerate(legal) if e.type == "chi"]
    if chis and "chi" in heads:
        shapes: dict[int, list[int]] = {}
        for i in chis:
            e = legal[i]
            c = chi_class(T.kind_of(e.pai or 0), [T.kind_of(t) for t in e.consumed])
            shapes.setdefault(c, []).append(i)
        classes = [0, *sorted(shapes)]
        logits = bundle.logits("chi", x)[0]
        dist = _softmax(np.array([logits[c] for c in classes]))
        for c, p in zip(classes[1:], dist[1:]):
            spread(shapes[c], keep * float(p))
        keep *= float(dist[0])
    spread([i for i, e in enumerate(legal) if e.type == "none"], keep)
    return _normalised(probs)


def _normalised(probs: list[float]) -> list[float]:
    total = sum(probs)
    return [p / total for p in probs] if total > 0 else probs


def judge(agent: Agent, d: Decision) -> Judged:
    """The agent's choice at a decision (an index into its legal actions) and probabilities."""
    probs = action_probabilities(agent, d.observation, d.legal)
    chosen = agent.act(d.observation, d.legal)
    index = next((i for i, e in enumerate(d.legal) if e == chosen), 0)
    return Judged(index, probs)


# ---------------------------------------------------------------------- the review
def _label(e: Event) -> str:
    """A move as a player reads it: "discard 5p", "pon White dragon", "chi 3s with 4s + 5s"."""
    name = tile_label(e.pai) if e.pai is not None else ""
    if e.type == "dahai":
        return f"discard {name}" + (" (the drawn tile)" if e.tsumogiri else "")
    if e.type == "none":
        return "pass"
    if e.type == "ankan":
        return f"closed kan of {tile_label(e.consumed[0])}" if e.consumed else "closed kan"
    if e.type == "kakan":
        return f"add {name} to the pon (kan)"
    if e.type in _CALL_TYPES:
        tiles = " + ".join(tile_label(t) for t in e.consumed)
        what = "kan" if e.type == "daiminkan" else e.type
        return f"{what} {name} with {tiles}" if tiles else f"{what} {name}"
    if e.type == "hora":
        return "win (tsumo)" if e.actor == e.target else "win (ron)"
    if e.type == "reach":
        return "declare riichi"
    if e.type == "ryukyoku":
        return "call a draw (nine terminals)"
    return e.type


def expected_loss(judged: Judged, played: int) -> float:
    """How much the reviewing agent thinks the played move gave away, between 0 and 1.

    With probabilities (the ``sl`` and ``pg`` networks) it is the *probability gap*: the
    agent's highest probability minus the probability it gave the move played, so 0 when the
    move played is the agent's favourite and near 1 when the agent was sure of another move.
    Rule agents give only a choice: the loss is 1 where their choice differs, else 0.
    """
    if judged.probs is not None:
        return max(judged.probs) - judged.probs[played]
    return 0.0 if judged.choice == played else 1.0


def review_stream(
    flow: GameFlow, stream: Sequence[Event], player: int, agent: Agent,
    names: Sequence[str] | None = None, links: Mapping[HandKey, str] | None = None,
) -> dict[str, Any]:
    """Review ``player`` in ``stream`` with ``agent``; decisions with one legal action (a forced
    pass) are skipped because there is nothing to compare.  ``names`` and ``links`` (each
    hand's tenhou.net/6 link) go into the hand-by-hand timeline."""
    decisions: list[dict[str, Any]] = []
    # the flow's event count indexes the stream without its "none" answers (follow_stream)
    hand_of = hand_of_events([e for e in stream if e.type != "none"])

    def on_decision(d: Decision, taken: Event, view: TableView, n: int) -> None:
        if len(d.legal) < 2 or len(decisions) >= MAX_DECISIONS:
            return
        j = judge(agent, d)
        mine = next(i for i, e in enumerate(d.legal) if e == taken)
        decisions.append(
            {
                "n": len(decisions),
                "event": n,
                "hand": hand_of[min(n, len(hand_of) - 1)] if hand_of else 0,
                "round": _round_label(view),
                "actions": [
                    {**action_json(i, e), "label": _label(e),
                     "prob": None if j.probs is None else round(j.probs[i], 4)}
                    for i, e in enumerate(d.legal)
                ],
                "player": mine,
                "agent": j.choice,
                "agree": mine == j.choice,
                "loss": round(expected_loss(j, mine), 4),
                "table": view.snapshot(d.observation.seat),
            }
        )

    follow_stream(flow, stream, player, on_decision)
    scored = any(a["prob"] is not None for d in decisions for a in d["actions"])
    hands = hand_timeline(stream, names or getattr(flow, "names", None) or [], links)
    for h in hands:
        mine_here = [d for d in decisions if d["hand"] == h["hand"]]
        h["decisions"] = len(mine_here)
        h["agreements"] = sum(1 for d in mine_here if d["agree"])
        h["loss"] = round(sum(d["loss"] for d in mine_here), 4)
        h["first_decision"] = mine_here[0]["n"] if mine_here else None
    return {"decisions": decisions, "summary": summarize(decisions, scored=scored),
            "hands": hands, "scored": scored}


def _round_label(view: TableView) -> str:
    return round_label(view.bakaze, view.kyoku, view.honba)


def summarize(
    decisions: Sequence[dict[str, Any]], top: int = 10, scored: bool = True
) -> dict[str, Any]:
    """The game's rating and the decisions with the largest expected loss.

    ``agreement`` is the share of decisions where the move played was the agent's choice;
    ``mean_loss`` the mean :func:`expected_loss`; ``rating`` is ``100 × (1 − mean_loss)``: 100
    when every move played was the agent's favourite, lower as the agent's confidence in other
    moves grows.  ``loss_kind`` says which loss was used (the page explains it).
    """
    n = len(decisions)
    agree = sum(1 for d in decisions if d["agree"])
    mean_loss = sum(d["loss"] for d in decisions) / n if n else None
    ranked = sorted(
        (d for d in decisions if d["loss"] > 0),
        key=lambda d: (-d["loss"], d["n"]),
    )[:top]
    return {
        "decisions": n,
        "agreements": agree,
        "agreement": agree / n if n else None,
        "mean_loss": None if mean_loss is None else round(mean_loss, 4),
        "rating": None if mean_loss is None else round(100 * (1 - mean_loss), 1),
        "loss_kind": "probability gap" if scored else "choice differs",
        "worst": [
            {"n": d["n"], "hand": d["hand"], "round": d["round"], "loss": d["loss"],
             "player": d["actions"][d["player"]]["label"],
             "agent": d["actions"][d["agent"]]["label"]}
            for d in ranked
        ],
    }


def review_record(
    game: Any, player: int, agent: Agent, links: Mapping[HandKey, str] | None = None
) -> dict[str, Any]:
    """Review one player of a Riichi record: replay it, then follow the replayed stream."""
    from tenpai.replay.riichi import _round_wall, replay_riichi, split_rounds
    from tenpai.replay.runner import riichi_rules_for
    from tenpai.rules.riichi.game import RiichiGame

    if game.rules.variant != "riichi" or game.players != 4:
        raise ReviewError("review of records is available for four-player Riichi games")
    if not 0 <= player < 4:
        raise ReviewError("player must be 0-3")
    base = riichi_rules_for(game, "tenhou")
    final = None if game.truncated else game.final_scores
    # mjai records do not say how long the game was meant to be: try East-only, then half.
    lengths = [base.length] if game.rules.hanchan is not None else ["tonpuu", "hanchan"]
    for length in lengths:
        rules = base.with_(length=length)
        result = replay_riichi(game.events(), rules=rules, final_scores=final, name=game.source)
        if result.ok:
            break
    if not result.ok:
        raise ReviewError(f"the record does not replay through the engine: {result.divergence}")
    stream = result.events
    rounds = split_rounds(stream)
    tileset = RiichiGame.tileset_for(rules)
    walls = [_round_wall(tileset, r) for r in rounds]
    first = rounds[0][0]
    opening = (first.bakaze or 0, first.kyoku or 0, first.honba or 0, first.kyotaku or 0)
    flow = RiichiGame(
        rules,
        names=game.names or ("A", "B", "C", "D"),
        wall_source=lambda index, key: _wall(walls, index),
        scores=first.scores or None,
        start=opening,
    )
    return review_stream(flow, stream, player, agent, list(game.names or ()), links)


def _wall(walls: Sequence[Any], index: int) -> Any:
    if index >= len(walls):
        raise StreamEnded
    return walls[index]
