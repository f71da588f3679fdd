"""``tenpai replay``: verify the rules engine against real game records."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import typer

from tenpai.cli._flags import ENGINE_FLAG, LIMIT_ALIAS, games_flag

#: How the live progress names the last game's verdict.
_SHOWN = {"passed": "ok", "skipped": "skip", "failed": "FAIL"}


def register(app: typer.Typer) -> None:
    @app.command()
    def replay(
        paths: list[Path] = typer.Argument(
            ..., help="Record files or folders (searched recursively)."
        ),
        rules: str = typer.Option("riichi", "--rules", help="Rule family: riichi or mcr."),
        preset: str | None = typer.Option(
            None, "--preset",
            help="Rule preset (riichi: tenhou [default], mahjong_soul; "
            "mcr: botzone [default], mcr_official).",
        ),
        games: int | None = typer.Option(
            None, "--games", min=1, help="Stop after this many games."
        ),
        limit: int | None = LIMIT_ALIAS,
        as_json: bool = typer.Option(False, "--json", help="Print one JSON summary line on "
                                     "stdout (the text report goes to stderr)."),
        show: int = typer.Option(20, "--show", min=0, help="Failures to list in the text report."),
        engine: str = ENGINE_FLAG,
    ) -> None:
        """Replay records through the engine: every action must be legal and every score equal.

        Exit status 0 only when every game that was not skipped passed.  ``--engine compiled``
        replays Riichi games on the compiled table only and skips those whose rules it does
        not cover; the engine each game used is counted in the report.
        """
        from rich.console import Console

        from tenpai.progress import StepProgress
        from tenpai.replay.runner import (
            DEFAULT_PRESETS,
            RULE_FAMILIES,
            Verdict,
            check_engine,
            replay_files,
        )
        from tenpai.textout import stdout_console

        if rules not in RULE_FAMILIES:
            raise typer.BadParameter(
                f"unknown rule family {rules!r}; known: {', '.join(RULE_FAMILIES)}",
                param_hint="--rules",
            )
        if rules == "mcr":
            from tenpai.rules.mcr.flow.rules import PRESETS as MCR_PRESETS

            known = list(MCR_PRESETS)
        else:
            from tenpai.rules.riichi.ruleset import PRESETS as RIICHI_PRESETS

            known = list(RIICHI_PRESETS)
        preset = preset or DEFAULT_PRESETS[rules]
        if preset not in known:
            raise typer.BadParameter(
                f"unknown preset {preset!r}; known: {', '.join(known)}", param_hint="--preset"
            )
        for p in paths:
            if not p.exists():
                raise typer.BadParameter(f"{p} does not exist", param_hint="PATHS")
        try:
            check_engine(engine, rules)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--engine") from None
        limit = games_flag(games, limit) or None
        err = Console(stderr=True)
        seen: Counter[Verdict] = Counter()
        with StepProgress("replaying", limit, unit="games", console=err) as prog:

            def tick(name: str, verdict: Verdict) -> None:
                # the runner's verdict, so these counts end where the summary's do
                seen[verdict] += 1
                prog.advance(note=f"{seen['failed']} failed, {seen['skipped']} skipped, "
                             f"last {_SHOWN[verdict]} {Path(name).name}")

            summary = replay_files(
                paths, preset=preset, limit=limit, on_game=tick, rules=rules,
                engine=engine,  # type: ignore[arg-type]  # checked above
            )
        # with --json, stdout carries the JSON line alone (a pipe into jq must parse)
        out = err if as_json else stdout_console()
        out.print(
            f"games {summary.games}, passed {summary.passed}, skipped {summary.skipped}, "
            f"failed {len(summary.failures)}"
        )
        out.print("  engines: " + ", ".join(f"{k} {v}" for k, v in sorted(summary.engines.items()))
                  if summary.engines else "  engines: none")
        for reason, n in summary.skip_reasons.items():
            out.print(f"  skipped {n}: {reason}")
        for d in summary.skipped_details[:show]:
            out.print(f"    {d['where']}: {d['error']}", markup=False)
        for f in summary.failures[:show]:
            # a reader's message already starts with the file's name: do not say it twice
            where, error = f["where"], f["error"]
            text = error if error.startswith(where) else f"{where}: {error}"
            out.print(f"  FAIL {text}", markup=False)
        if len(summary.failures) > show:
            out.print(f"  … and {len(summary.failures) - show} more")
        if as_json:
            print(json.dumps(summary.as_dict(), ensure_ascii=False))
        if summary.games == 0:
            # An empty folder (or one holding only catalogue files) verifies nothing.
            err.print(f"error: no record files found in {', '.join(map(str, paths))}",
                      markup=False)
            raise typer.Exit(2)
        if summary.passed == 0 and not summary.failures:
            reasons = "; ".join(summary.skip_reasons) or "none"
            err.print(f"error: no game was verified: all {summary.skipped} skipped ({reasons})",
                      markup=False)
            raise typer.Exit(1)
        raise typer.Exit(0 if not summary.failures else 1)
