"""``tenpai eval agreement``: how often a trained model makes the players' choice;
``tenpai eval curve``: the learning curves policy-gradient runs keep in their model cards, and
those ``pg_planner`` runs keep in their JSON weights (or checkpoints);
``tenpai eval dropout``: the ratings dropout-learning runs keep in theirs (seed 000's Fig. 8);
``tenpai eval search``: the 108-tile search's strength over simulations (seed 000's Fig. 7);
``tenpai eval efficiency-gap``: where an agent's discards part from the tile-efficiency rule.

One evaluation for every rule set (:mod:`tenpai.learn.evaluate`): ``--rules`` picks the registry
entry that replays the records and extracts the decisions (see :mod:`tenpai.learn.decisions`
for which Riichi discards count: every discard by a player not yet in accepted riichi).  By
default *no* quality filter is applied; ``--split dev`` or ``--split test`` stays off the
training games.  A model whose encoder belongs to another rule set is refused before anything
is encoded.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from tenpai.cli import HELP_MARKUP
from tenpai.cli._flags import LIMIT_ALIAS, games_flag
from tenpai.cli._learn import (
    RULES_HELP,
    check_model_rules,
    fail,
    learning_rules,
    refuse_filters,
)

_FILTERS = {"room": "rooms", "max_loss": "max_loss"}

app = typer.Typer(help="Evaluate models against real records.", no_args_is_help=True,
                  rich_markup_mode=HELP_MARKUP)


@app.command("agreement")
def agreement(
    ctx: typer.Context,
    records: list[Path] = typer.Argument(..., help="Record files or folders."),
    rules_name: str = typer.Option("riichi", "--rules", help=RULES_HELP),
    model: str = typer.Option(
        "default", "--model", "-m", help="'default' (the shipped model of --rules) or a file."
    ),
    split: str = typer.Option("all", "--split", help="all, train, dev or test (hash of game id)."),
    room: str = typer.Option(
        "houou", "--room",
        help="Tenhou lobbies to keep, comma-separated; 'any' keeps all (Riichi only)."
    ),
    max_loss: int = typer.Option(-1, "--max-loss", help="Gao's filter (-1: off)."),
    games: int | None = typer.Option(
        None, "--games", min=0, help="Stop after this many games (0 or unset: all)."
    ),
    limit: int | None = LIMIT_ALIAS,
    suit_average: bool = typer.Option(
        False,
        "--suit-average",
        help="Score each decision as the mean over its six suit relabellings (6x the work).",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Agreement of each head of the model with the recorded decisions."""
    rules = learning_rules(rules_name)
    refuse_filters(ctx, rules, _FILTERS)
    try:
        from tenpai.learn.evaluate import evaluate_agreement
        from tenpai.models.bundle import ModelBundle, ModelError, resolve_model_path
    except ImportError as exc:
        fail(f"{exc}; install the learn extra: pip install 'tenpai[learn]'")
    from rich.console import Console

    from tenpai.learn.dataset import SPLITS, BuildOptions, record_files
    from tenpai.progress import StepProgress

    if split != "all" and split not in SPLITS:
        raise typer.BadParameter(f"choose all or one of {', '.join(SPLITS)}", param_hint="--split")
    missing = [p for p in records if not p.exists()]
    if missing:
        fail(f"no such file or folder: {missing[0]}")
    if model == "default" and rules.default_model is None:
        fail(f"no model is shipped for --rules {rules.name}; pass one with --model")
    try:
        bundle = ModelBundle.load(resolve_model_path(model, rules.default_model or ""))
    except ModelError as exc:
        fail(str(exc))
    check_model_rules(rules, bundle.encoder, model)
    opts = BuildOptions.for_rules(
        rules.name,
        encoder=bundle.encoder,
        kinds=tuple(k for k in rules.kinds if k in bundle.heads),
        splits=SPLITS if split == "all" else (split,),
        rooms=None if room == "any" else tuple(r.strip() for r in room.split(",")),
        max_loss=None if max_loss < 0 else max_loss,
        limit=games_flag(games, limit) or None,
    )
    total = sum(1 for _ in record_files(records, rules))
    try:
        with StepProgress("evaluating", total, console=Console(stderr=True)) as progress:
            report = evaluate_agreement(records, bundle, opts, suit_average=suit_average,
                                        on_file=lambda _f: progress.advance())
    except (ModelError, ValueError) as exc:
        fail(str(exc))
    if not report["games"]:
        # Agreement over zero games is not a result; an empty folder must not look like one.
        fail(f"no game to evaluate in {', '.join(map(str, records))} "
             f"({report['skipped']} skipped)")
    report["model"] = model
    report["split"] = split
    if as_json:
        typer.echo(json.dumps(report))
        return
    _print(report, rules.class_names)


def _print(report: dict[str, Any], class_names: dict[str, str] | Any) -> None:
    typer.echo(
        f"games {report['games']} (split {report['split']}); model {report['model']} "
        f"({report['encoder']})"
    )
    d = report["discards"]
    if d["n"]:
        typer.echo(
            f"discards {d['n']:,}: top-1 {d['top1']:.2%}, top-2 {d['top2']:.2%}, "
            f"top-3 {d['top3']:.2%}"
        )
    for kind, legend in class_names.items():
        m = report.get(kind)
        if not m or not m.get("n"):
            continue
        typer.echo(
            f"{kind} {m['n']:,} (called {m['positives']:,}): accuracy {m['accuracy']:.2%} "
            f"(always pass {m['pass_baseline']:.2%}), precision {m['precision']:.2%}, "
            f"recall {m['recall']:.2%}, F1 {m['f1']:.3f}"
        )
        typer.echo(f"    rows: player, columns: model ({legend})")
        for row in m["confusion"]:
            typer.echo("    " + " ".join(f"{v:7d}" for v in row))


def _curves(models: list[Path], read: Any, errors: Any) -> list[Any]:
    """Every model file's curve; one clear line for a missing or unreadable file."""
    missing = [p for p in models if not p.is_file()]
    if missing:
        fail(f"no such model file: {missing[0]}")
    try:
        return [read(p) for p in models]
    except errors as exc:
        fail(str(exc))


def _draw(plot: Any, data: Any, out: Path | None, title: str) -> None:
    """Draw ``data`` to ``out`` when asked; a plot that cannot be written fails in one line."""
    from tenpai.plots import PlotError

    if out is None:
        return
    try:
        plot(data, out, title=title)
    except PlotError as exc:
        fail(str(exc))


def _curve_output(files: list[Path], read: Any, errors: Any, plot: Any, out: Path | None,
                  title: str, as_json: bool) -> list[Any] | None:
    """Both kinds of ``eval curve``: read every file, draw when asked, print the JSON when
    asked; the curves returned are for the text table (None: the JSON was the output)."""
    curves = _curves(files, read, errors)
    _draw(plot, curves, out, title)
    if as_json:
        typer.echo(json.dumps({"curves": [c.as_dict() for c in curves],
                               "plot": str(out) if out else None}))
        return None
    return curves


def _out(what: str) -> Any:
    """The ``--out`` option of a command that can draw ``what``."""
    return typer.Option(None, "--out", "-o", help=f"Write {what} here (PNG; extra 'plot').")


#: Options of the figure commands (typer reads them as metadata; sharing one is safe).
_OUT_CURVE: Any = _out("the plot")
_OUT_FIG8: Any = _out("seed 000's Fig. 8 analogue")
_OUT_FIG6: Any = _out("seed 000's Fig. 6 analogue")
_TITLE: Any = typer.Option("", "--title", help="Plot title.")
_JSON: Any = typer.Option(False, "--json", help="Print one JSON object.")


def _figures() -> Any:
    """:mod:`tenpai.mcts.figures` and the model error, or one line naming the missing extra."""
    try:
        from tenpai.mcts import figures
        from tenpai.mcts.model import MCTSModelError
    except ImportError as exc:  # pragma: no cover - the learn extra is missing
        fail(f"{exc}; install the learn extra: pip install 'tenpai[learn]'")
    return figures, (MCTSModelError, ValueError)


@app.command("curve")
def curve(
    models: list[Path] = typer.Argument(
        ..., help="Model files written by 'tenpai train pg', or JSON weights (or their .ckpt) "
                  "written by 'tenpai train pg-planner'; one kind per call."),
    out: Path | None = _OUT_CURVE,
    title: str = _TITLE,
    as_json: bool = _JSON,
) -> None:
    """The learning curve of policy-gradient runs: the learner's pair win rate against its
    start (or the run's --eval-opponent) at each evaluation (train pg --eval-every), as a
    table and, with --out, a plot.  For pg_planner runs: places and points per seat-game of
    the greedy head against planner (and efficiency) pairs, and its departures from the
    planner's choice."""
    from tenpai.rl.planner_curve import is_json_file

    kinds = {p: is_json_file(p) for p in models if p.is_file()}
    if len(set(kinds.values())) > 1:
        json_file = next(p for p, is_json in kinds.items() if is_json)
        model = next(p for p, is_json in kinds.items() if not is_json)
        fail(f"eval curve: {json_file} is pg_planner JSON and {model} a model file; give the "
             f"two kinds in separate calls (a pair win rate and place/point differences "
             f"share no axis)")
    if kinds and all(kinds.values()):
        _planner_curves(models, out, title, as_json)
        return
    try:
        from tenpai.rl.curve import CurveError, plot_curves, read_curve
    except ImportError as exc:  # pragma: no cover - the learn extra is missing
        fail(f"{exc}; install the learn extra: pip install 'tenpai[learn]'")
    curves = _curve_output(models, read_curve, CurveError, plot_curves, out, title, as_json)
    if curves is None:
        return
    for c in curves:
        typer.echo(f"{c.label}: {c.games:,} self-play games, {c.cpu_minutes:.1f} CPU min")
        if not c.points:
            typer.echo("    no evaluation point (train with --eval-every N)")
        for p in c.points:
            typer.echo(
                f"    games {p.games:>7,}: pair win rate {p.win_rate:.3f} "
                f"[{p.low:.3f}, {p.high:.3f}] over {p.deals} deals; rank {p.learner_rank:.3f} "
                f"vs {c.opponent} {p.start_rank:.3f}"
            )
    if out is not None:
        typer.echo(f"plot: {out}")


def _planner_curves(files: list[Path], out: Path | None, title: str, as_json: bool) -> None:
    """``eval curve`` of pg_planner runs (:mod:`tenpai.rl.planner_curve`)."""
    from tenpai.rl.planner_curve import (
        PlannerCurveError,
        plot_planner_curves,
        read_planner_curve,
        versus,
    )

    curves = _curve_output(files, read_planner_curve, PlannerCurveError, plot_planner_curves,
                           out, title, as_json)
    if curves is None:
        return
    for c in curves:
        still = " (a checkpoint: the run is going or was stopped)" if c.source == "checkpoint" \
            else ""
        typer.echo(f"{c.label}: pg_planner, {c.games:,} training games ({c.updates:,} updates) "
                   f"against {c.trained_against}, {c.cpu_minutes:.1f} CPU min{still}")
        typer.echo("    learner − opponent on the development deals, ± 95 % half-width; "
                   "departures: greedy decisions off the planner's")
        width = max(len(versus(o)) for o in c.opponents())
        for opponent in c.opponents():
            for p in c.series(opponent):
                typer.echo(
                    f"    games {p.games:>7,} vs {versus(opponent):<{width}}: places "
                    f"{p.place_diff:+.3f} ± {p.place_half:.3f}, points per seat-game "
                    f"{p.score_diff:+.2f} ± {p.score_half:.2f}; departures "
                    f"{p.departures:,}/{p.decisions:,}; deals changed "
                    f"{p.changed_games}/{p.deals}")
    if out is not None:
        typer.echo(f"plot: {out}")


@app.command("dropout")
def dropout_ratings(
    models: list[Path] = typer.Argument(..., help="Model files written by 'tenpai train "
                                        "dropout --eval-every N' (several seeds of each kind)."),
    out: Path | None = _OUT_FIG8,
    title: str = _TITLE,
    as_json: bool = _JSON,
) -> None:
    """The normal agent's stable dan during dropout learning, runs with and without the
    Bernoulli matrix grouped: median and quartiles over runs at each rating (seed 000's
    Fig. 8)."""
    figures, errors = _figures()
    curves = _curves(models, figures.read_rating_curve, errors)
    _draw(figures.plot_fig8, curves, out, title)
    groups = figures.group_curves(curves)
    if as_json:
        typer.echo(json.dumps({"groups": groups, "plot": str(out) if out else None}))
        return
    for name, g in groups.items():
        typer.echo(f"{name}: {g['runs']} runs")
        for i, step in enumerate(g["steps"]):
            typer.echo(f"    step {step:>7,}: stable dan median {g['median'][i]:.2f} "
                       f"[{g['q25'][i]:.2f}, {g['q75'][i]:.2f}]")
    if out is not None:
        typer.echo(f"plot: {out}")


@app.command("fig6")
def fig6(
    models: list[Path] = typer.Argument(..., help="Model files written by 'tenpai train mcts "
                                        "--gate-deals N' (one per simulation count)."),
    out: Path | None = _OUT_FIG6,
    title: str = _TITLE,
    as_json: bool = _JSON,
) -> None:
    """Strength of the search model against training steps, one run per simulation count
    (seed 000's Fig. 6): each gate's pair win rate of the new weights against the best version
    so far (the start until one is accepted)."""
    figures, errors = _figures()
    curves = _curves(models, figures.read_gate_curve, errors)
    _draw(figures.plot_fig6, curves, out, title)
    if as_json:
        typer.echo(json.dumps({"runs": [c.as_dict() for c in curves],
                               "plot": str(out) if out else None}))
        return
    for c in curves:
        typer.echo(f"{c.label}: {c.legend}")
        for s, w, lo, hi, a in zip(c.steps, c.win_rate, c.low, c.high, c.accepted):
            typer.echo(f"    step {s:>6,}: pair win rate {w:.2f} [{lo:.2f}, {hi:.2f}]"
                       f"{'  accepted' if a else ''}")
    if out is not None:
        typer.echo(f"plot: {out}")


def _int_list(text: str, option: str) -> list[int]:
    try:
        values = [int(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise typer.BadParameter(f"a comma-separated list of whole numbers, not {text!r}",
                                 param_hint=option) from None
    if not values or min(values) < 1:
        raise typer.BadParameter("give at least one value, each at least 1", param_hint=option)
    return values


@app.command("search")
def search_strength(
    models: list[str] = typer.Option(["default"], "--model", "-m", help="Search model: "
                                     "'default' (shipped) or a file; repeat to compare models "
                                     "(Fig. 7a: trained with different feature access)."),
    simulations: str = typer.Option("1,8,32,100", "--simulations", help="Comma-separated "
                                    "simulations per move (1 = the prior's choice)."),
    transitions: str = typer.Option("model", "--transitions", help="model (the learned "
                                    "dynamics), simulator (true transitions) or both, "
                                    "comma-separated (Fig. 7b)."),
    opponent: str = typer.Option("defensive", "--opponent", help="Registry agent in the other "
                                 "three seats."),
    deals: int = typer.Option(16, "--deals", min=1, help="Deals per point; each is played four "
                              "times, the agent in every seat once."),
    seed: int = typer.Option(70_000_000, "--seed", help="First deal seed."),
    out: Path | None = typer.Option(None, "--out", "-o", help="Write the plot here (PNG)."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Strength of the 108-tile search over evaluation simulations (seed 000's Fig. 7): mean
    place and stable dan against three --opponent seats, the same deals for every point."""
    sims = _int_list(simulations, "--simulations")
    kinds = [t.strip() for t in transitions.split(",") if t.strip()]
    bad = [t for t in kinds if t not in ("model", "simulator")]
    if bad or not kinds:
        raise typer.BadParameter("model, simulator or both", param_hint="--transitions")
    try:
        from tenpai.agents.registry import AGENTS, is_known_agent
        from tenpai.mcts.figures import plot_fig7, sweep_simulations
        from tenpai.mcts.model import MCTSModelError
    except ImportError as exc:  # pragma: no cover - the learn extra is missing
        fail(f"{exc}; install the learn extra: pip install 'tenpai[learn]'")
    from rich.console import Console

    from tenpai.progress import StepProgress

    if not is_known_agent(opponent):
        fail(f"unknown agent {opponent!r}; known: {', '.join(sorted(AGENTS))}")
    total = len(models) * len(kinds) * len(sims)
    try:
        with StepProgress("rating searches", total, unit="points",
                          console=Console(stderr=True)) as bar:
            points = sweep_simulations(models, kinds, sims, opponent=opponent,
                                       seeds=range(seed, seed + deals),
                                       on_point=lambda _p: bar.advance())
    except (MCTSModelError, ValueError) as exc:
        fail(str(exc))
    _draw(plot_fig7, points, out, "")
    if as_json:
        typer.echo(json.dumps({"points": [p.as_dict() for p in points],
                               "plot": str(out) if out else None}))
        return
    for p in points:
        r = p.rating
        typer.echo(f"{p.model} {p.transitions:>9} {p.simulations:>4} sims: mean place "
                   f"{r.rank.mean:.2f} [{r.rank.low:.2f}, {r.rank.high:.2f}], stable dan "
                   f"{r.stable_dan:.2f}, places {list(r.rank_counts)} ({p.cpu_seconds:.0f} CPU s)")
    if out is not None:
        typer.echo(f"plot: {out}")


@app.command("mdp-agreement")
def mdp_agreement(
    records: Path = typer.Argument(..., help="Record file or folder (Tenhou mjlog)."),
    split: str = typer.Option("test", "--split", help="all, train, dev or test (hash of game id)."),
    games: int = typer.Option(8, "--games", min=1, help="Four-player Houou games to read."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Discard agreement of the MDP player (seed 001) with the Houou players of the records:
    its choice among each own turn's discards against the recorded one."""
    import time

    from tenpai.learn.dataset import SPLITS
    from tenpai.mdp.agreement import count_agreement, houou_games
    from tenpai.reading.models import ModelFileError

    if split != "all" and split not in SPLITS:
        raise typer.BadParameter(f"choose all or one of {', '.join(SPLITS)}", param_hint="--split")
    if not records.exists():
        fail(f"no such file or folder: {records}")
    from tenpai.mdp.agent import MDPAgent

    try:
        player = MDPAgent(0)
    except ModelFileError as exc:
        fail(str(exc))
    cpu0 = time.process_time()
    count = count_agreement(houou_games(records, split, games), player.act)
    _print_agreement("mdp", count, records, split, time.process_time() - cpu0, as_json, {})


@app.command("agent-agreement")
def agent_agreement_cmd(
    records: Path = typer.Argument(..., help="Record file or folder (Tenhou mjlog)."),
    agent: str = typer.Option(..., "--agent", help="Registry agent that plays Riichi (e.g. "
                              "dropout, sl, defensive); models through its environment "
                              "variable, e.g. $TENPAI_DROPOUT_MODEL."),
    split: str = typer.Option("test", "--split", help="all, train, dev or test (hash of game id)."),
    games: int = typer.Option(8, "--games", min=1, help="Four-player Houou games to replay."),
    seed: int = typer.Option(0, "--seed", help="Seed the agent is made with."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Discard agreement of any agent with the Houou players: each record is replayed through
    the engine and the agent chooses among the discards of every recorded own-turn discard
    (riichi declarations and one-kind turns left out; red fives count as fives)."""
    import time

    from tenpai.agents.registry import AGENTS, is_known_agent, make_agent
    from tenpai.learn.agent_agreement import agent_agreement, houou_records
    from tenpai.learn.dataset import SPLITS

    if split != "all" and split not in SPLITS:
        raise typer.BadParameter(f"choose all or one of {', '.join(SPLITS)}", param_hint="--split")
    if not is_known_agent(agent):
        raise typer.BadParameter(f"unknown agent {agent!r}; known: {', '.join(sorted(AGENTS))}",
                                 param_hint="--agent")
    if not records.exists():
        fail(f"no such file or folder: {records}")
    try:
        player = make_agent(agent, seed)
    except (ValueError, OSError) as exc:
        fail(f"agent {agent!r}: {exc}")
    cpu0 = time.process_time()
    try:
        count = agent_agreement(houou_records(records, split, games), player)
    except ValueError as exc:  # an agent of another rule set says so at its first decision
        fail(f"agent {agent!r}: {exc}")
    _print_agreement(agent, count, records, split, time.process_time() - cpu0, as_json,
                     {"agent": agent, "diverged": count.diverged})


@app.command("efficiency-gap")
def efficiency_gap_cmd(
    agent: str = typer.Option(..., "--agent", help="Registry agent in all four seats; models "
                              "through its environment variable, e.g. $TENPAI_SL_MCR_MODEL "
                              "for sl_mcr_model."),
    rules: str = typer.Option("mcr", "--rules", help="Rule set: riichi, mcr or suits108."),
    preset: str | None = typer.Option(None, "--preset", help="Rule preset (default: tenhou, "
                                      "botzone, paper)."),
    length: str = typer.Option("tonpuu", "--length", help="Riichi game length."),
    deals: int = typer.Option(100, "--deals", min=1,
                              help="Deals of self-play to judge, one game each."),
    seed: int = typer.Option(7000, "--seed", help="First deal seed."),
    tables: int = typer.Option(16, "--tables", min=1, help="Tables played at once."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Compare each discard an agent chooses (two or more kinds to choose from) with the one
    the efficiency rule agent would play: the same kind, a higher shanten, the same shanten
    with fewer live improving tiles, or as good by both; shares with 95 % intervals over
    games.  Riichi discards under another seat's riichi are counted apart."""
    import time

    from tenpai.agents.registry import AGENTS, is_known_agent, make_agent
    from tenpai.agents.rulesets import check_agent_rules
    from tenpai.cli.train_pg import DEFAULT_PRESET, game_options
    from tenpai.rl.efficiency_gap import KINDS, efficiency_gap

    if rules not in DEFAULT_PRESET:
        raise typer.BadParameter(f"choose {', '.join(DEFAULT_PRESET)}", param_hint="--rules")
    if not is_known_agent(agent):
        raise typer.BadParameter(f"unknown agent {agent!r}; known: {', '.join(sorted(AGENTS))}",
                                 param_hint="--agent")
    options = game_options(rules, preset, length)
    try:
        check_agent_rules(agent, rules)
    except ValueError as exc:
        fail(str(exc))
    try:
        player = make_agent(agent, 0)
    except (ValueError, OSError) as exc:
        fail(f"agent {agent!r}: {exc}")
    cpu0 = time.process_time()
    try:
        count = efficiency_gap(player, rules, options, range(seed, seed + deals), tables)
    except ValueError as exc:
        fail(f"agent {agent!r}: {exc}")
    report = {"agent": agent, "rules": rules, "options": options, "seed": seed,
              **count.report(), "cpu_seconds": round(time.process_time() - cpu0, 1)}
    if as_json:
        typer.echo(json.dumps(report))
        return
    typer.echo(f"{agent}: {report['compared']:,} discards with a choice over {count.games} "
               f"games ({report['threatened']:,} more under another seat's riichi, not "
               f"compared); {report['cpu_seconds']} CPU s")
    labels = {"same": "efficiency's kind", "higher_shanten": "higher shanten",
              "fewer_tiles": "same shanten, fewer live tiles", "other": "as good by both"}
    for kind in KINDS:
        r = report[kind]
        typer.echo(f"  {labels[kind]:<32} {r['share']:6.1%}  [{r['low']:.1%}, {r['high']:.1%}]"
                   f"  ({r['count']:,})")
    typer.echo(f"  live tiles given up where fewer: {report['mean_tiles_lost']:.1f} on average")


def _print_agreement(who: str, count: Any, records: Path, split: str, cpu: float,
                     as_json: bool, extra: dict[str, Any]) -> None:
    """One JSON object or one line for a discard-agreement count (mdp- / agent-agreement)."""
    if not count.games:
        fail(f"no four-player Houou game of split {split} in {records}")
    low, high = count.interval()
    report = {**extra, "games": count.games, "discards": count.discards,
              "agree": count.agree, "rate": count.rate, "low": low, "high": high,
              "split": split, "cpu_seconds": round(cpu, 1)}
    if as_json:
        typer.echo(json.dumps(report))
        return
    typer.echo(f"{who}: {count.agree:,} of {count.discards:,} discards agree "
               f"({count.rate:.2%}, 95% CI {low:.2%}-{high:.2%} by game) over {count.games} "
               f"games of split {split}; {report['cpu_seconds']} CPU s")


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="eval")
