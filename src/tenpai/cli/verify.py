"""``tenpai verify engines``: seeded games on the compiled core and on the Python reference,
compared event by event (:mod:`tenpai.arena.engine_check`)."""

from __future__ import annotations

import json
import sys

import typer

from tenpai.cli import HELP_MARKUP

app = typer.Typer(
    help="Checks that the compiled code and the Python reference play the same games.",
    no_args_is_help=True,
    rich_markup_mode=HELP_MARKUP,
)


@app.command("engines")
def engines(
    games: int = typer.Option(10_000, "--games", min=1,
                              help="Games in all, cycling through the rule sets."),
    seed: int = typer.Option(0, "--seed", help="Seed of the first game (game i: seed + i)."),
    rules: str = typer.Option(
        "tenhou,mahjong_soul,tenhou_sanma,mcr", "--rules",
        help="Rule sets, comma-separated: tenhou, mahjong_soul, tenhou_sanma, mcr."),
    length: str | None = typer.Option(
        None, "--length", help="Riichi game length (tonpuu, hanchan); default the preset's."),
    cpu_minutes: float | None = typer.Option(
        None, "--cpu-minutes", min=0.0,
        help="Stop starting games once this much CPU is used (this process and its children)."),
    every: int = typer.Option(50, "--every", min=1, help="Progress line every N games."),
) -> None:
    """Play seeded games of mixed rule agents on both paths in lock-step: the agents decide
    once, on the compiled side, and both paths take the answers; at every decision the seats,
    legal actions and observation fields must agree, after every step the new events, at
    the end the final scores.  Riichi: the compiled table against the Python round; MCR: the
    compiled fan evaluator against a child process with every extension off.  The searching
    agents (expert, planner) take one seat in 2 % of the games.

    Progress goes to stderr, one JSON summary to stdout (also after Ctrl-C or SIGTERM, with
    the games compared so far).  Exit 1 at the first difference (its rule set, seed and first
    differing event are printed) or when no rule set could be compared; 2 for bad options.
    """
    import signal

    from tenpai.arena.engine_check import RULE_SETS, CheckSummary, run_check

    names = [r.strip() for r in rules.split(",") if r.strip()]
    unknown = [n for n in names if n not in RULE_SETS]
    if unknown or not names:
        raise typer.BadParameter(
            f"unknown rule set {unknown[0] if unknown else rules!r}; known: "
            f"{', '.join(RULE_SETS)}", param_hint="--rules")
    if length not in (None, "tonpuu", "hanchan"):
        raise typer.BadParameter(f"unknown length {length!r}; choose tonpuu or hanchan",
                                 param_hint="--length")

    def progress(summary: CheckSummary, name: str, i: int) -> None:
        if (i + 1) % every == 0:
            done = ", ".join(f"{k} {v}" for k, v in summary.games.items())
            print(f"verify engines: {i + 1} games ({done}), identical so far", file=sys.stderr,
                  flush=True)

    def stop(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        summary = run_check(games, seed, names, length=length, cpu_minutes=cpu_minutes,
                            progress=progress)
    finally:
        signal.signal(signal.SIGTERM, previous)
    for name, why in summary.skipped.items():
        print(f"verify engines: {name} skipped: {why}", file=sys.stderr)
    print(json.dumps(summary.as_dict()))
    if summary.divergence is not None:
        d = summary.divergence
        print(f"error: {d['rule_set']} seed {d['seed']} differs: {d['first']}", file=sys.stderr)
        raise typer.Exit(1)
    if not summary.games:
        print("error: no rule set could be compared in this build", file=sys.stderr)
        raise typer.Exit(1)
    done = ", ".join(f"{k} {v}" for k, v in summary.games.items())
    cut = " (interrupted)" if summary.interrupted else ""
    print(f"verify engines: {summary.total} games identical on both paths ({done}); "
          f"{summary.cpu_seconds:.0f} CPU seconds{cut}", file=sys.stderr)
