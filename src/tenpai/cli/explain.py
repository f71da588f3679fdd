"""``tenpai explain --agent mdp RECORD --round R --seat S --turn T``: why the MDP player would
play what it plays at one decision of a recorded game.  ``tenpai explain --agent planner
--hand ...``: the MCR planner's 8-fan targets behind a discard (:mod:`tenpai.cli.explain_mcr`)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import typer

from tenpai.cli._flags import old_spelling, renamed

__all__ = ["register"]


def explain(
    ctx: typer.Context,
    record: Path | None = typer.Argument(None, help="A game record (any supported format; "
                                        "the mdp agent)."),
    agent: str | None = typer.Option(None, "--agent", help="Agent to explain: mdp (Riichi, a "
                                     "record's decision) or planner (MCR, a hand given by "
                                     "--hand; settings in brackets, planner[FAN_WEIGHT=0]). "
                                     "Default: planner with --hand (MCR's default "
                                     "agent), mdp with a RECORD."),
    round_: str = typer.Option("1", "--round", help="Round: 1-based index, or a label like E2 "
                               "(its first hand) or S1-1 (with 1 honba)."),
    seat: int = typer.Option(0, "--seat", min=0, max=3, help="Seat whose decision to explain."),
    turn: int = typer.Option(1, "--turn", min=1, help="The seat's n-th draw in that round."),
    models: Path | None = typer.Option(None, "--opponent-models", help="Opponent-model file "
                                       "(default: the shipped one)."),
    models_old: Path | None = old_spelling("--models", "--opponent-models"),
    game_index: int = typer.Option(0, "--game", min=0, help="Game in a multi-game file."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    hand: str = typer.Option("", "--hand", help="planner: the concealed hand, e.g. "
                             "12345678m234s55p7z (14 - 3 per meld tiles to explain a discard)."),
    melds: str = typer.Option("", "--melds", help="planner: own melds, e.g. chi:234m,pon:9s."),
    seen: str = typer.Option("", "--seen", help="planner: tiles seen outside the hand "
                             "(discards, others' melds)."),
    draws: int = typer.Option(12, "--draws", min=0, help="planner: draws left."),
    seat_wind: str = typer.Option("E", "--seat-wind", help="planner: E, S, W or N."),
    prevalent_wind: str = typer.Option("E", "--prevalent-wind", help="planner: E, S, W or N."),
    top: int = typer.Option(10, "--top", min=1, help="planner: targets to list."),
) -> None:
    """Each legal action's value and the terms behind it: the MDP player's expected rank
    payoff, or the MCR planner's targets (tiles needed, probability, fans)."""
    models = renamed(ctx, "models", models, models_old, "--models")
    if agent is None:
        agent = "planner" if hand else "mdp"
    if agent.startswith("planner"):  # planner, or planner[FAN_WEIGHT=0]: its settings here
        if not hand:
            typer.echo("error: --agent planner explains the hand given by --hand", err=True)
            raise typer.Exit(2)
        from tenpai.cli.explain_mcr import explain_planner, planner_settings

        settings = planner_settings(agent)
        explain_planner(hand, melds, seen, draws, seat_wind, prevalent_wind, top, as_json,
                        settings)
        return
    from tenpai.mdp.record_view import find_turn, round_label
    from tenpai.reading.models import ModelFileError
    from tenpai.records import RecordError, read_any

    if agent != "mdp":
        typer.echo(f"error: --agent {agent}: only 'mdp' and 'planner' can explain themselves",
                   err=True)
        raise typer.Exit(2)
    if record is None:
        typer.echo("error: --agent mdp explains a decision of a RECORD", err=True)
        raise typer.Exit(2)
    try:
        games = read_any(record)
    except RecordError as err:
        typer.echo(f"error: {err}", err=True)  # the message names the file itself
        raise typer.Exit(2) from None
    except OSError as err:
        typer.echo(f"error: {record}: {err.strerror or err}", err=True)
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
    # "E2" names East 2 whatever its honba (its first hand); "E2-1" the one with 1 honba.
    first_of = [label.split("-")[0] for label in labels]
    if round_.isdigit() and 1 <= int(round_) <= len(rounds):
        rnd = rounds[int(round_) - 1]
    elif round_ in labels:
        rnd = rounds[labels.index(round_)]
    elif round_ in first_of:
        rnd = rounds[first_of.index(round_)]
    else:
        typer.echo(f"error: no round {round_!r}; the record has {', '.join(labels)}", err=True)
        raise typer.Exit(2)
    try:
        view = find_turn(rnd, seat, turn)
    except ValueError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from None
    from tenpai.mdp.agent import MDPAgent

    try:
        player = MDPAgent(0, models=models)
    except ModelFileError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from None
    _print(player, view, as_json, round_label(rnd[0]))


def _print(player: object, view: object, as_json: bool, label: str) -> None:
    from tenpai import tiles as T
    from tenpai.mdp.agent import MDPAgent
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
    shown_text = " ".join(v.method + " " + " ".join(v.terms) for v in ordered)
    legend = [line for key, line in _LEGEND if key in shown_text]
    if legend:
        typer.echo("terms (seed 001's paper, docs/mdp_search.md):")
        for line in legend:
            typer.echo(f"  {line}")


#: What the abbreviations in the methods and terms mean, printed below the actions that use
#: them so a reader need not know the paper's equation numbers.
_LEGEND: tuple[tuple[str, str], ...] = (
    ("IPS", "IPS: the hand played out alone, each draw kept or exchanged at best "
     "(Inclusive Policy Solitary mahjong, eq. 16)"),
    ("eq. 17", "eq. 17: a hand two or more tiles from ready, valued by its chances to win, "
     "deal in, see another win or reach the exhaustive draw"),
    ("FS", "FS: folding (discarding the safest tiles until the hand ends)"),
    ("deal_in", "deal_in: the chance this discard deals in"),
    ("p_win", "p_win / p_lose / p_other / p_washout: the chances the hand ends in our win, "
     "our deal-in, another player's win, an exhaustive draw"),
    ("p_W", "p_W / p_T: the chances of winning / of being ready at the exhaustive draw, "
     "playing alone"),
    ("P_FL", "P_FL: the chance of dealing in while folding"),
    ("V_win", "V_win / V_lose: the rank payoff of a typical win / of a deal-in"),
)


def register(app: typer.Typer) -> None:
    app.command("explain")(explain)
