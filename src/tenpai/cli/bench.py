"""``tenpai bench …``: speed against peer libraries, measured in one run on the same inputs."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from tenpai.cli import HELP_MARKUP
from tenpai.cli._flags import old_spelling, renamed

app = typer.Typer(
    help="Benchmarks against peer libraries (run in one process, same inputs).",
    no_args_is_help=True,
    rich_markup_mode=HELP_MARKUP,
)


def _counts(text: str, option: str, what: str, most: int) -> list[int]:
    """The whole numbers of a comma-separated ``option``, each from 1 to ``most``; anything
    else is a bad setting (one line naming the option, exit 2)."""
    try:
        counts = [int(t) for t in text.split(",") if t.strip()]
    except ValueError:
        raise typer.BadParameter("whole numbers separated by commas", param_hint=option) from None
    if not counts or min(counts) < 1 or max(counts) > most:
        raise typer.BadParameter(f"{what} counts must be from 1 to {most}", param_hint=option)
    return counts


@app.command("hand")
def hand(
    ctx: typer.Context,
    n: int = typer.Option(20_000, "--hands", min=10, max=1_000_000,
                          help="Number of random hands (13/14 tiles)."),
    n_old: int | None = old_spelling("--n", "--hands", min=10, max=1_000_000),
    seed: int = typer.Option(0, "--seed", help="Seed of the hand generator."),
    repeat: int = typer.Option(3, "--repeat", min=1,
                               help="Timed passes of the other rows; the best counts."),
    shanten_n: int = typer.Option(100_000, "--shanten-hands", min=10,
                                  help="13-tile hands of the interleaved shanten row."),
    shanten_n_old: int | None = old_spelling("--shanten-n", "--shanten-hands", min=10),
    rounds: int = typer.Option(9, "--rounds", min=1,
                               help="Interleaved rounds of the shanten row (medians, ranges)."),
    as_json: bool = typer.Option(False, "--json", help="Also print one JSON object last."),
) -> None:
    """Shanten, is_complete, ukeire and MCR shanten against mahjong, riichienv, PyMahjongGB."""
    n = renamed(ctx, "n", n, n_old, "--n")
    shanten_n = renamed(ctx, "shanten_n", shanten_n, shanten_n_old, "--shanten-n")
    from tenpai.bench.hand import render, run_hand_bench

    result = run_hand_bench(n=n, seed=seed, repeat=repeat, shanten_n=shanten_n, rounds=rounds)
    render(result)
    if as_json:
        typer.echo(json.dumps(result.summary(), sort_keys=True))


@app.command("engine")
def engine(
    games: int = typer.Option(20, "--games", min=1, max=100_000,
                              help="Games (random hanchan) per engine."),
    seed: int = typer.Option(0, "--seed", help="First game seed."),
    vs: str = typer.Option("riichienv", "--vs", help="Peer engine: riichienv or none."),
    players: int = typer.Option(4, "--players", min=3, max=4,
                                help="4 (tenhou) or 3 (tenhou_sanma; riichienv 3p-red-half)."),
    as_json: bool = typer.Option(False, "--json", help="Also print one JSON object last."),
) -> None:
    """Full random hanchan per second, ours against riichienv (Rust) in the same run."""

    from rich.table import Table

    from tenpai.bench.engine import run_engine_bench
    from tenpai.textout import stdout_console

    if vs not in ("riichienv", "none"):
        raise typer.BadParameter("choose riichienv or none", param_hint="--vs")
    result = run_engine_bench(games=games, seed=seed, vs=None if vs == "none" else vs,
                              players=players)
    s = result.summary()
    table = Table(title=f"Riichi engine: {games} random {players}-player hanchan each")
    table.add_column("engine")
    table.add_column("hanchan/s", justify="right")
    table.add_row(f"tenpai ({s['engine']} round)", f"{s['hanchan_per_s']:.2f}")
    if "python_hanchan_per_s" in s:
        table.add_row("tenpai (python round)", f"{s['python_hanchan_per_s']:.2f}")
    if s["peer"]:
        table.add_row(s["peer"], f"{s['peer_hanchan_per_s']:.2f}")
        if s["ratio"] is not None:
            lo, hi = s.get("ratio_range", (s["ratio"], s["ratio"]))
            table.add_row("ratio (ours / theirs), median of blocks",
                          f"{s['ratio']:.3f} ({lo:.3f}-{hi:.3f})")
    else:
        table.add_row("peer", "not installed (pip install tenpai[bench])")
    stdout_console().print(table)
    if as_json:
        typer.echo(json.dumps(s, sort_keys=True))


@app.command("fan")
def fan(
    ctx: typer.Context,
    n: int = typer.Option(5000, "--hands", min=10, max=1_000_000,
                          help="Random winning MCR hands."),
    n_old: int | None = old_spelling("--n", "--hands", min=10, max=1_000_000),
    seed: int = typer.Option(0, "--seed", help="Seed of the hand generator."),
    repeat: int = typer.Option(9, "--repeat", min=1,
                               help="Interleaved rounds; medians and ranges are reported."),
    as_json: bool = typer.Option(False, "--json", help="Also print one JSON object last."),
) -> None:
    """MCR fan calculation against PyMahjongGB (C++) on the same hands, interleaved, cold."""
    n = renamed(ctx, "n", n, n_old, "--n")
    from rich.table import Table

    from tenpai.bench.fan import bench_fan
    from tenpai.textout import stdout_console

    try:
        result = bench_fan(n=n, seed=seed, repeats=repeat)
    except ImportError:
        raise typer.BadParameter(
            "PyMahjongGB is not installed (pip install 'tenpai[bench]')", param_hint="fan"
        ) from None
    table = Table(title=f"MCR fans: {n} random winning hands, medians of {repeat} interleaved "
                        "rounds (CPU time, caches cold)")
    table.add_column("measure")
    table.add_column("value", justify="right")
    for key, value in result.items():
        table.add_row(key, f"{value:.3f}" if isinstance(value, float) else str(value))
    stdout_console().print(table)
    if as_json:
        typer.echo(json.dumps(result, sort_keys=True))


@app.command("scoring")
def scoring(
    ctx: typer.Context,
    n: int = typer.Option(30_000, "--hands", min=10, max=1_000_000,
                          help="Random winning Riichi hands per pass."),
    n_old: int | None = old_spelling("--n", "--hands", min=10, max=1_000_000),
    n_slow: int = typer.Option(6_000, "--slow-hands", min=10, max=1_000_000,
                               help="Of which the slow sides (our Python path, mahjong) score."),
    n_slow_old: int | None = old_spelling("--n-slow", "--slow-hands", min=10, max=1_000_000),
    seed: int = typer.Option(0, "--seed", help="Seed of the hand generator."),
    repeat: int = typer.Option(9, "--repeat", min=1,
                               help="Interleaved passes, each on fresh wins; medians count."),
    as_json: bool = typer.Option(False, "--json", help="Also print one JSON object last."),
) -> None:
    """Whole Riichi win scoring (yaku, han, fu, points) against mahjong and riichienv."""
    n = renamed(ctx, "n", n, n_old, "--n")
    n_slow = renamed(ctx, "n_slow", n_slow, n_slow_old, "--n-slow")
    from tenpai.bench.scoring import render, run_scoring_bench

    result = run_scoring_bench(n=n, seed=seed, repeat=repeat, n_slow=n_slow)
    render(result)
    if as_json:
        typer.echo(json.dumps(result.summary(), sort_keys=True))


@app.command("process")
def process(
    ctx: typer.Context,
    games: str = typer.Option("1,10,100", "--games", help="Demo game counts, commas."),
    seed: int = typer.Option(1, "--seed", help="Seed of the games."),
    arena_games: int = typer.Option(16, "--arena-games", min=0, max=100_000,
                                    help="Arena games timed with 1 and 2 workers (0: skip)."),
    startup: bool = typer.Option(True, "--startup/--no-startup",
                                 help="Also time start-up: --help, import, replay, view."),
    startup_only: bool = typer.Option(False, "--startup-only",
                                      help="Time start-up alone (no demo, no arena)."),
    repeat: int = typer.Option(10, "--repeat", min=1,
                               help="Interleaved runs of each start-up command."),
    repeats: int | None = old_spelling("--repeats", "--repeat", min=1),
    record: Path | None = typer.Option(None, "--record", exists=True, dir_okay=False,
                                       help="Record for replay/view (default: one played)."),
    as_json: bool = typer.Option(False, "--json", help="Also print one JSON object last."),
) -> None:
    """Whole-process wall time: start-up of the commonest commands (medians of interleaved
    runs), and `tenpai demo` / `tenpai arena` beside the same games played in-process."""
    repeat = renamed(ctx, "repeat", repeat, repeats, "--repeats")
    summary: dict[str, object] = {}
    if startup or startup_only:
        from tenpai.bench.startup import render as render_startup
        from tenpai.bench.startup import run_startup_bench

        timed = run_startup_bench(repeats=repeat, record=record)
        render_startup(timed)
        summary.update(timed.summary())
    if not startup_only:
        from tenpai.bench.process import render, run_process_bench

        counts = _counts(games, "--games", "game", 10_000)
        result = run_process_bench(counts, seed=seed, arena_games=arena_games)
        render(result)
        summary.update(result.summary())
    if as_json:
        typer.echo(json.dumps(summary, sort_keys=True))


@app.command("agent")
def agent(
    name: str = typer.Option("sl", "--agent", help="Agent to time (registry name)."),
    games: int = typer.Option(2, "--games", min=1, max=100_000,
                              help="Tonpuu games; the agent plays seat 0."),
    seed: int = typer.Option(1, "--seed", help="First game seed."),
    tables: int = typer.Option(16, "--tables", min=1, max=4096,
                               help="Tables played at once (one act_batch call per step)."),
    as_json: bool = typer.Option(False, "--json", help="Also print one JSON object last."),
) -> None:
    """Per-decision latency of an agent (issue 8's budget: 10 ms), efficiency timed alongside."""

    from rich.table import Table

    from tenpai.agents.registry import AGENTS, is_known_agent
    from tenpai.bench.agent import run_agent_bench
    from tenpai.textout import stdout_console

    if not is_known_agent(name):
        raise typer.BadParameter(f"choose one of {', '.join(AGENTS)}", param_hint="--agent")
    try:
        s = run_agent_bench(name, games=games, seed=seed, batch=tables).summary()
    except (ValueError, OSError, ImportError) as exc:  # a model, a setting, another rule set
        typer.echo(f"error: agent {name!r}: {exc}", err=True)
        raise typer.Exit(2) from None
    table = Table(title=f"{name}: {s['decisions']} decisions in {games} tonpuu games")
    table.add_column("measure")
    table.add_column("ms", justify="right")
    keys = ("median_ms", "mean_ms", "p95_ms", "cpu_ms_per_decision", "efficiency_median_ms")
    for key in (*keys, "batched_ms_per_decision"):
        table.add_row(key.replace("_ms", "").replace("_", " "), f"{s[key]:.2f}")
    table.add_row("median / efficiency median", f"{s['ratio_median']:.2f}")
    stdout_console().print(table)
    if as_json:
        typer.echo(json.dumps(s, sort_keys=True))


@app.command("selfplay")
def selfplay(
    name: str = typer.Option("sl", "--agent", help="Agent in all four seats (registry name)."),
    tables: str = typer.Option("16,64,256", "--tables", help="Batched table counts, commas."),
    games: int = typer.Option(3, "--games", min=1, max=100_000,
                              help="Whole games played one table at a time."),
    window: int = typer.Option(3000, "--window", min=1, max=10_000_000,
                               help="Decisions timed per table count."),
    seed: int = typer.Option(0, "--seed", help="First game seed."),
    profile: int = typer.Option(0, "--profile", min=0, help="cProfile lines, extra run."),
    as_json: bool = typer.Option(False, "--json", help="Also print one JSON object last."),
) -> None:
    """Self-play decisions/s and tonpuu games/hour per core: one table vs batched tables."""
    from rich.console import Console
    from rich.table import Table

    from tenpai.agents.registry import AGENTS, is_known_agent
    from tenpai.bench.selfplay import run_selfplay_bench

    if not is_known_agent(name):
        raise typer.BadParameter(f"choose one of {', '.join(AGENTS)}", param_hint="--agent")
    counts = _counts(tables, "--tables", "table", 4096)
    result = run_selfplay_bench(
        name, tables=counts, unbatched_games=games, window=window, seed=seed, profile=profile
    )
    s = result.summary()
    table = Table(
        title=f"self-play, {name} in four seats, {s['decisions_per_game']} decisions/game"
    )
    for col in ("tables", "decisions", "decisions/CPU s", "decisions/wall s", "games/h/core"):
        table.add_column(col, justify="right")
    for p in s["phases"]:
        table.add_row(
            str(p["tables"]),
            str(p["decisions"]),
            f"{p['decisions_per_cpu_s']:.1f}",
            f"{p['decisions_per_wall_s']:.1f}",
            f"{p['games_per_hour_per_core']:.0f}",
        )
    console = Console(stderr=True)
    console.print(table)
    console.print(f"batched speedup {s['batched_speedup']:.2f}x at {s['best_tables']} tables")
    if result.profile:
        typer.echo(result.profile, err=True)
    if as_json:
        typer.echo(json.dumps(s, sort_keys=True))


@app.command("arena")
def arena(
    agents: str = typer.Option(
        "sl,efficiency,sl,efficiency", "--agents", help="Line-up, one agent per seat, commas."
    ),
    games: int = typer.Option(16, "--games", min=1, max=100_000,
                              help="Games, rounded up to deal sets."),
    tables: int = typer.Option(32, "--tables", min=1, max=4096,
                               help="Tables of the batched phase."),
    rules: str = typer.Option("riichi", "--rules", help="Rule set (registry name)."),
    preset: str | None = typer.Option(None, "--preset", help="Rules preset (as tenpai arena)."),
    seed: int = typer.Option(0, "--seed", help="Run seed."),
    as_json: bool = typer.Option(False, "--json", help="Also print one JSON object last."),
) -> None:
    """Arena CPU seconds per game, one game at a time vs --tables at once (same games)."""
    from tenpai.agents.spec import AgentSpecError, split_agents
    from tenpai.arena.games import ArenaConfigError
    from tenpai.bench.arena import run_arena_bench

    try:
        lineup = split_agents(agents)
    except AgentSpecError as exc:
        raise typer.BadParameter(str(exc), param_hint="--agents") from None
    try:
        options = {} if preset is None else {"preset": preset}
        s = run_arena_bench(rules, lineup, games, tables, seed, options).summary()
    except ArenaConfigError as exc:
        raise typer.BadParameter(str(exc), param_hint="--agents/--rules/--preset") from None
    typer.echo(
        f"{s['games']} games of {','.join(s['agents'])}: "
        f"{s['single_cpu_s_per_game']:.3f} CPU s/game one at a time, "
        f"{s['batched_cpu_s_per_game']:.3f} on {tables} tables "
        f"({s['tables_speedup']:.2f}x); {s['differing_games']} games differ",
        err=True,
    )
    if as_json:
        typer.echo(json.dumps(s, sort_keys=True))


@app.command("rollout")
def rollout(
    ctx: typer.Context,
    rules: str = typer.Option("riichi", "--rules",
                              help="Rule set of the hands: riichi (the Riichi rollout core) or "
                              "mcr (the compiled MCR playouts of search_mcr, botzone preset)."),
    worlds: int = typer.Option(200, "--worlds", min=1, max=100_000,
                               help="Hand starts (first draws of seeded games: efficiency "
                               "games for riichi, one-hand botzone games for mcr)."),
    playouts: int = typer.Option(10, "--playouts", min=1, max=10_000,
                                 help="Seeded playouts of each world per pass in the compiled "
                                 "core (mcr: replays, its policies draw no random numbers)."),
    seeds: int | None = old_spelling("--seeds", "--playouts", min=1, max=10_000),
    python_worlds: int | None = typer.Option(
        None, "--python-worlds", min=1, max=100_000,
        help="Worlds the Python reference plays per pass (default 10 for riichi; 40 for mcr, "
        "whose ratio is taken on these worlds and moves with fewer)."),
    repeat: int = typer.Option(5, "--repeat", min=1,
                               help="Interleaved passes; medians and ranges are reported."),
    preset: str | None = typer.Option(
        None, "--preset",
        help="Preset of the games: a Riichi preset (default tenhou); with --rules mcr only "
        "botzone, the one preset the compiled MCR playouts play (the default)."),
    seed: int = typer.Option(0, "--seed", help="First game seed."),
    as_json: bool = typer.Option(False, "--json", help="Also print one JSON object last."),
) -> None:
    """Complete hands per CPU second in the compiled rollout cores vs the Python engines."""
    playouts = renamed(ctx, "playouts", playouts, seeds, "--seeds")
    if rules == "mcr":
        _mcr_rollout(worlds, playouts, 40 if python_worlds is None else python_worlds, repeat,
                     preset, seed, as_json)
        return
    if rules != "riichi":
        typer.echo(f"error: --rules {rules!r}: the rollout bench plays riichi or mcr", err=True)
        raise typer.Exit(2)
    from tenpai.bench.rollout import render, run_rollout_bench
    from tenpai.rules.riichi.rollout import RolloutUnavailable
    from tenpai.rules.riichi.ruleset import PRESETS

    preset = "tenhou" if preset is None else preset
    python_worlds = 10 if python_worlds is None else python_worlds
    if preset not in PRESETS:
        raise typer.BadParameter(f"unknown preset {preset!r}; known: {', '.join(sorted(PRESETS))}",
                                 param_hint="--preset")
    try:
        result = run_rollout_bench(worlds=worlds, seeds=playouts, python_worlds=python_worlds,
                                   repeat=repeat, preset=preset, seed=seed)
    except RolloutUnavailable as exc:
        raise typer.BadParameter(str(exc), param_hint="rollout") from None
    render(result)
    if as_json:
        typer.echo(json.dumps(result.summary(), sort_keys=True))


def _mcr_rollout(worlds: int, playouts: int, python_worlds: int, repeat: int,
                 preset: str | None, seed: int, as_json: bool) -> None:
    """``bench rollout --rules mcr`` (tenpai.bench.mcr_rollout): a preset other than botzone
    and a missing core are refused in one line (exit 2)."""
    from tenpai.bench.mcr_rollout import PRESET, render, run_mcr_rollout_bench
    from tenpai.search.mcr.compiled import MCRRolloutUnavailable

    if preset is not None and preset != PRESET:
        typer.echo(f"error: --preset {preset!r}: with --rules mcr the compiled MCR playouts "
                   f"play {PRESET} only", err=True)
        raise typer.Exit(2)
    try:
        result = run_mcr_rollout_bench(worlds=worlds, seeds=playouts,
                                       python_worlds=python_worlds, repeat=repeat, seed=seed)
    except MCRRolloutUnavailable as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    render(result)
    if as_json:
        typer.echo(json.dumps(result.summary(), sort_keys=True))


@app.command("all")
def all_benches(
    out: Path | None = typer.Option(None, "--out", dir_okay=False,
                                    help="Also write the JSON of every bench to this file."),
    quick: bool = typer.Option(False, "--quick",
                               help="Smaller inputs: a smoke run, not figures to quote."),
) -> None:
    """Every benchmark against its peer library in turn, then the tracked ratios in one table."""
    from tenpai.bench.suite import run_suite

    if out is not None and not out.parent.is_dir():
        typer.echo(f"error: --out {out}: folder {out.parent} does not exist", err=True)
        raise typer.Exit(2)
    run_suite(quick=quick, out=out, echo=typer.echo)


@app.command("efficiency")
def efficiency(
    views: int = typer.Option(2000, "--views", min=1, max=1_000_000,
                              help="Seeded hands (views) timed per pass."),
    seed: int = typer.Option(13, "--seed", help="Seed of the views."),
    top: int = typer.Option(8, "--top", min=1, help="Functions listed by the profile."),
    profile: bool = typer.Option(True, "--profile/--no-profile",
                                 help="Also profile one pass (cProfile)."),
) -> None:
    """The gao86e efficiency channels (self-play's hot spot): best of 3 passes, then a profile."""
    from tenpai.bench.efficiency import profile_efficiency

    typer.echo(profile_efficiency(views=views, seed=seed, top=top, profile=profile))


@app.command("botzone-turn")
def botzone_turn(
    agent: str = typer.Option(..., "--agent", help="Agent the bot plays (registry name)."),
    match: Path = typer.Option(..., "--match", exists=True, dir_okay=False,
                               help="A Botzone *_lite.json match export."),
    seat: int = typer.Option(0, "--seat", min=0, max=3, help="Seat whose requests are replayed."),
    turns: int = typer.Option(12, "--turns", min=1, help="Per-turn runs, spread evenly."),
    modes: str = typer.Option("per-turn,keep-running", "--modes",
                              help="per-turn, keep-running or both (commas)."),
) -> None:
    """Answer time of `tenpai botzone-bot` on a real match: started per turn and kept running."""
    from tenpai.bench.botzone_turn import keep_running, per_turn, seat_log

    chosen = {m.strip() for m in modes.split(",") if m.strip()}
    if not chosen or not chosen <= {"per-turn", "keep-running"}:
        raise typer.BadParameter("per-turn, keep-running or both", param_hint="--modes")
    try:
        reqs, resps = seat_log(match, seat)
        lines = per_turn(agent, reqs, resps, turns) if "per-turn" in chosen else []
        if "keep-running" in chosen:
            lines += keep_running(agent, reqs)
    except (ValueError, RuntimeError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    for line in lines:
        typer.echo(line)


@app.command("web-load")
def web_load(
    games: int = typer.Option(50, "--games", min=1, max=1000,
                              help="Concurrent clients, one game each."),
    seconds: float = typer.Option(60.0, "--seconds", min=1.0, max=60.0,
                                  help="Stop after this long."),
) -> None:
    """Load test of the web app (the 'web' extra): concurrent games through its websocket API."""
    try:
        from tenpai.bench.web_load import run_web_load

        report = run_web_load(games=games, seconds=seconds)
    except ImportError as exc:
        typer.echo(f"error: the web load test needs the 'web' extra "
                   f"(pip install 'tenpai[web]'): {exc}", err=True)
        raise typer.Exit(2) from None
    typer.echo(json.dumps(report, indent=1))
