"""``tenpai explain --agent mdp RECORD --round R --seat S --turn T``: why the MDP player would
play what it plays at one decision of a recorded game."""

from __future__ import annotations

import json
import math
from pathlib import Path

import typer

__all__ = ["register"]


def explain(
    record: Path = typer.Argument(..., help="A game record (any supported format)."),
    agent: str = typer.Option("mdp", "--agent", help="Agent to explain (only 'mdp' so far)."),
    round_: str = typer.Option("1", "--round", help="Round: 1-based index, or a label like E2 "
                               "or S1-1 (honba)."),
    seat: int = typer.Option(0, "--seat", min=0, max=3, help="Seat whose decision to explain."),
    turn: int = typer.Option(1, "--turn", min=1, help="The seat's n-th draw in that round."),
    models: Path | None = typer.Option(None, "--models", help="Opponent-model file "
                                       "(default: the shipped one)."),
    game_index: int = typer.Option(0, "--game", min=0, help="Game in a multi-game file."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Each legal action's value (expected rank payoff) and the MDP terms behind it."""
    from tenpai.mdp.models import ModelFileError
    from tenpai.mdp.record_view import find_turn, round_label
    from tenpai.records import RecordError, read_any

    if agent != "mdp":
        typer.echo(f"error: --agent {agent}: only the 'mdp' agent can explain itself", err=True)
        raise typer.Exit(2)
    try:
        games = read_any(record)
    except (RecordError, OSError) as err:
        typer.echo(f"error: {record}: {err}", err=True)
        raise typer.Exit(2) from None
    if game_index >= len(games):
        typer.echo(f"error: {record} holds {len(games)} game(s); no --game {game_index}", err=True)
        raise typer.Exit(2)
    game = games[game_index]
    from tenpai.agents.rulesets import UnsupportedRulesError, check_agent_rules

    try:  # the same check as every other entry point: an MCR record is not Riichi
        check_agent_rules(agent, game.rules.variant)
    except UnsupportedRulesError as err:
        typer.echo(f"error: {record}: a {game.rules.variant} record: {err}", err=True)
        raise typer.Exit(2) from None
    if game.players != 4:
        typer.echo(f"error: {record}: a {game.players}-player game; {agent} explains "
                   "four-player Riichi", err=True)
        raise typer.Exit(2)
    rounds = game.rounds
    labels = [round_label(r[0]) for r in rounds]
    if round_.isdigit() and 1 <= int(round_) <= len(rounds):
        rnd = rounds[int(round_) - 1]
    elif round_ in labels:
        rnd = rounds[labels.index(round_)]
    else:
        typer.echo(f"error: no round {round_!r}; the record has {', '.join(labels)}", err=True)
        raise typer.Exit(2)
    try:
        view = find_turn(rnd, seat, turn)
    except ValueError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from None
    from tenpai.agents.mdp import MDPAgent

    try:
        player = MDPAgent(0, models=models)
    except ModelFileError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from None
    _print(player, view, as_json, round_label(rnd[0]))


def _print(player: object, view: object, as_json: bool, label: str) -> None:
    from tenpai import tiles as T
    from tenpai.agents.mdp import MDPAgent
    from tenpai.mdp.record_view import RecordTurn

    assert isinstance(player, MDPAgent) and isinstance(view, RecordTurn)
    decision = player.explain(view, view.legal)
    ordered = sorted(decision.values, key=lambda v: -v.value if math.isfinite(v.value) else 1e9)

    def name(e: object) -> str:
        from tenpai.events import Event

        assert isinstance(e, Event)
        return e.type + (f" {T.to_mjai(e.pai)}" if e.pai is not None and e.type != "hora" else "")

    actual = name(view.actual) if view.actual is not None else "?"
    if as_json:
        typer.echo(json.dumps({
            "round": label, "seat": view.seat, "hand": T.to_compact(view.hand),
            "shanten": decision.shanten, "states": decision.states, "played": actual,
            "actions": [{"action": name(v.action), "value": v.value if math.isfinite(v.value)
                         else None, "method": v.method, "terms": v.terms} for v in ordered],
        }, sort_keys=True))
        return
    typer.echo(f"{label}, seat {view.seat}: hand {T.to_compact(view.hand)} (drew "
               f"{T.to_mjai(view.hand[-1])}), shanten {decision.shanten}, "
               f"{decision.states} states searched; the player in the record chose {actual}")
    typer.echo("value = expected rank payoff (-E[final rank]); higher is better")
    for v in ordered:
        shown = f"{v.value:+.4f}" if math.isfinite(v.value) else "   n/a "
        terms = ", ".join(f"{k} {t:.3f}" for k, t in v.terms.items())
        extra = f"  [{terms}]" if terms else ""
        typer.echo(f"  {name(v.action):<12} {shown}  {v.method}{extra}")
    for note in decision.notes:
        typer.echo(f"  note: {note}")


def register(app: typer.Typer) -> None:
    app.command("explain")(explain)
