"""``tenpai train pg-planner``: policy gradient over the planner's candidates (``pg_planner``),
estimated by REINFORCE or by the vine (``--estimator``).

Plain numpy: no torch needed.  The run writes a small JSON weights file (``--out``) and a JSON
checkpoint beside it (``<out>.ckpt``); the same command continues from the checkpoint after a
kill.  Progress goes to stderr, one line per update and per learning-curve point.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import typer

from tenpai.cli._flags import old_spelling, renamed
from tenpai.cli._learn import fail


def pg_planner(
    ctx: typer.Context,
    out: Path = typer.Option(..., "--out", "-o", help="Weights file to write (JSON)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the training deals and the samples."),
    deals_per_update: int = typer.Option(
        8, "--deals-per-update", help="Training deals per update, each played --samples times."
    ),
    samples: int = typer.Option(
        4, "--samples",
        help="Sampled games per deal; each one's baseline is the others' mean (reinforce only).",
    ),
    temperature: float = typer.Option(
        1.0, "--temperature",
        help="Softmax temperature of the learner's sampled choices (vine: of the alternatives "
             "drawn at a branch point).",
    ),
    lr: float = typer.Option(0.03, "--lr", help="Adam learning rate."),
    max_games: int = typer.Option(
        2048, "--games",
        help="Stop after this many training games in all (resumed runs included).",
    ),
    max_games_old: int | None = old_spelling("--max-games", "--games"),
    minutes: float = typer.Option(0.0, "--minutes", help="Wall-clock budget; 0: none."),
    eval_every: int = typer.Option(512, "--eval-every", help="Games between curve points."),
    eval_deals: int = typer.Option(
        25, "--eval-deals", help="Development deals per curve point (two games each)."
    ),
    checkpoint_minutes: float = typer.Option(
        3.0, "--checkpoint-minutes", help="Wall-clock minutes between checkpoints."
    ),
    freeze_planner: bool = typer.Option(
        True, "--freeze-planner/--train-planner",
        help="Keep the weight of the planner's own choice fixed (the prior) or train it too.",
    ),
    planner_prior: float = typer.Option(
        4.0, "--planner-prior",
        help="Start weight of the planner's own choice (what the other features must outweigh "
             "before a greedy choice leaves it); sampling departs as often at prior/temperature.",
    ),
    cpu_minutes: float = typer.Option(
        0.0, "--cpu-minutes", help="CPU budget of the run (across resumes); 0: none."
    ),
    eval_efficiency: bool = typer.Option(
        False, "--eval-efficiency",
        help="Also play each curve point's deals against an efficiency pair.",
    ),
    opponents: str = typer.Option(
        "planner", "--opponents",
        help="planner: two learner seats against two planner seats; greedy-bots: one learner "
             "seat (deal % 4) against three shanten-greedy Botzone bots, and the curve is the "
             "learner minus the planner in that seat among the bots.",
    ),
    estimator: str = typer.Option(
        "reinforce", "--estimator",
        help="Gradient estimator: 'reinforce' (sampled games, each scored against the deal's "
             "other samples) or 'vine' (greedy games; at --vine-states of their decisions the "
             "greedy answer and --vine-alternatives others are each played on from a copy of "
             "the table; planner opponents only, and a game is then a greedy trunk).",
    ),
    states: int = typer.Option(
        4, "--vine-states",
        help="Vine: branch points per game (the head's decisions with a choice, kept "
             "uniformly); each costs --vine-alternatives playouts to the end of the hand.",
    ),
    states_old: int | None = old_spelling("--states", "--vine-states"),
    alternatives: int = typer.Option(
        3, "--vine-alternatives",
        help="Vine: answers compared with the greedy one at each branch point, drawn from the "
             "head's softmax at --temperature (at least 1).",
    ),
    alternatives_old: int | None = old_spelling("--alternatives", "--vine-alternatives"),
    as_json: bool = typer.Option(False, "--json", help="Print the run's summary as JSON."),
) -> None:
    """Train ``pg_planner`` against two ``planner`` seats or three greedy Botzone bots (MCR,
    Botzone preset)."""
    from tenpai.agents.pg_planner import PlannerHeadError
    from tenpai.rl.planner_pg import PlannerPGConfig, PlannerPGError, train_planner_pg

    max_games = renamed(ctx, "max_games", max_games, max_games_old, "--max-games")
    states = renamed(ctx, "states", states, states_old, "--states")
    alternatives = renamed(ctx, "alternatives", alternatives, alternatives_old, "--alternatives")

    cfg = PlannerPGConfig(out=str(out), seed=seed, deals_per_update=deals_per_update,
                          samples=samples, temperature=temperature, lr=lr,
                          max_games=max_games, minutes=minutes, eval_every=eval_every,
                          eval_deals=eval_deals, checkpoint_minutes=checkpoint_minutes,
                          freeze_planner=freeze_planner, planner_prior=planner_prior,
                          cpu_minutes=cpu_minutes, eval_efficiency=eval_efficiency,
                          opponents=opponents, estimator=estimator, states=states,
                          alternatives=alternatives)
    try:
        head = train_planner_pg(cfg, progress=lambda line: typer.echo(line, err=True))
    except (PlannerPGError, PlannerHeadError) as exc:
        fail(str(exc))
    if as_json:
        typer.echo(json.dumps({"settings": asdict(cfg), "weights": head.to_json()}, indent=1))


def register(train_app: typer.Typer) -> None:
    train_app.command("pg-planner")(pg_planner)
