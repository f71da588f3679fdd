"""``tenpai dataset build`` / ``record``: records → encoded decision shards with a manifest.

The work is in :mod:`tenpai.learn.dataset`, the same for every rule set: ``--rules`` picks the
registry entry (:mod:`tenpai.learn.rulesets`) that says which records are read and how.  This
module only parses options and shows progress (on stderr, as plain lines when stderr is not a
terminal).  A filter that means nothing for the chosen records (``--room`` for MCR) is refused
rather than ignored.
"""

from __future__ import annotations

from pathlib import Path

import typer

from tenpai.cli import HELP_MARKUP
from tenpai.cli._flags import LIMIT_ALIAS, games_flag
from tenpai.cli._learn import RULES_HELP, fail, learning_rules, refuse_filters

#: Parameters that are record filters, and the filter each is (see LearningRules.filters).
_FILTERS = {"room": "rooms", "max_loss": "max_loss", "players": "players"}

app = typer.Typer(
    help="Build supervised-learning datasets from real records.", no_args_is_help=True,
    rich_markup_mode=HELP_MARKUP,
)


@app.command("build")
def build(
    ctx: typer.Context,
    records: list[Path] = typer.Argument(
        ..., help="Record files or folders (searched deeply), then the output directory."
    ),
    out: Path = typer.Argument(..., help="Empty output directory (created)."),
    rules_name: str = typer.Option("riichi", "--rules", help=RULES_HELP),
    encoder: str | None = typer.Option(
        None,
        "--encoder",
        "-e",
        help="Riichi: gao56, gao68 (default), gao86, gao86e, ffn352; issue 19: gao86e_sc, "
        "gao86e_ctx, gao86e_rc, gao86e_off, gao86e_la, gao86e_all, seq7. "
        "MCR: mcr_stack002 (default) or mcr_ffn352. suits108: s108.",
    ),
    kinds: str | None = typer.Option(
        None, "--kinds", help="Decision kinds to keep, comma-separated (default: all)."
    ),
    split: str = typer.Option(
        "train,dev,test", "--split", help="Splits to write (by a hash of the game id)."
    ),
    room: str | None = typer.Option(
        None,
        "--room",
        help="Tenhou lobbies to keep, comma-separated; 'any' keeps all (Riichi; default houou).",
    ),
    max_loss: int | None = typer.Option(
        None,
        "--max-loss",
        help="Gao's filter: drop a player's round when it lost more than this; -1 keeps all "
        "(Riichi default 1500).",
    ),
    players: int | None = typer.Option(
        None,
        "--players",
        min=3,
        max=4,
        help="Riichi: keep four-player games (default) or three-player ones (tenhou_sanma).",
    ),
    shard_size: int = typer.Option(20000, "--shard-size", min=100, help="Samples per shard."),
    games: int | None = typer.Option(
        None, "--games", min=0, help="Stop after this many games (0 or unset: all)."
    ),
    limit: int | None = LIMIT_ALIAS,
    workers: int = typer.Option(
        1, "--workers", min=1, help="Processes replaying records (same shards for any count)."
    ),
) -> None:
    """Replay each game, keep its decisions and write them as .npz shards."""
    rules = learning_rules(rules_name)
    refuse_filters(ctx, rules, _FILTERS)
    from rich.console import Console

    from tenpai.learn.dataset import BuildOptions, DatasetError, build_dataset, record_files
    from tenpai.progress import StepProgress

    count = games_flag(games, limit) or None
    changes: dict[str, object] = {"shard_size": shard_size, "limit": count}
    changes["splits"] = tuple(s.strip() for s in split.split(",") if s.strip())
    if encoder is not None:
        changes["encoder"] = encoder
    if kinds is not None:
        changes["kinds"] = tuple(k.strip() for k in kinds.split(",") if k.strip())
    if room is not None:
        changes["rooms"] = None if room == "any" else tuple(r.strip() for r in room.split(","))
    if max_loss is not None:
        changes["max_loss"] = None if max_loss < 0 else max_loss
    if players is not None:
        changes["players"] = players
    opts = BuildOptions.for_rules(rules.name, **changes)
    missing = [p for p in records if not p.exists()]
    if missing:
        fail(f"no such file or folder: {missing[0]}")
    if out.exists() and not out.is_dir():
        fail(f"{out} is a file; the output must be a folder (empty or new)")
    console = Console(stderr=True)
    total = sum(1 for _ in record_files(records, rules))
    try:
        with StepProgress("building", total, console=console) as progress:
            manifest = build_dataset(
                records, out, opts, on_file=lambda _f: progress.advance(), workers=workers
            )
    except (DatasetError, ValueError) as exc:
        fail(str(exc))
    except OSError as exc:  # the folder cannot be created or written
        fail(f"cannot write {out}: {exc.strerror or exc}")
    console.print(
        f"rules {manifest['rules']}, encoder {manifest['encoder']}, "
        f"games {manifest['games_per_split']}"
    )
    for s, counts in manifest["counts"].items():
        console.print(f"  {s}: " + ", ".join(f"{k} {n:,}" for k, n in counts.items()))
    if manifest["skipped"]:
        console.print("  skipped: " + ", ".join(f"{r} {n}" for r, n in manifest["skipped"].items()))
    console.print(f"wrote {out / 'manifest.json'}")


@app.command("record")
def record(
    out: Path = typer.Argument(..., help="Folder for the records (created)."),
    rules_name: str = typer.Option("suits108", "--rules", help=RULES_HELP),
    games: int = typer.Option(20, "--games", min=1, max=1_000_000,
                              help="Games to play and save."),
    agents: str = typer.Option(
        "expert,efficiency,expert,efficiency", "--agents", help="Four agents, one per seat."
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of the first game (then seed+1, ...)."),
) -> None:
    """Play games with built-in agents and save each as mjai JSONL, passes included.

    For rule sets without public records (suits108): the folder is then a records folder for
    ``tenpai dataset build --rules suits108``.
    """
    from tenpai.agents.registry import make_agent
    from tenpai.agents.spec import AgentSpecError, split_agents

    rules = learning_rules(rules_name)
    if rules.write_records is None:
        fail(f"--rules {rules.name} learns from real records; dataset record has nothing to play")
    try:
        names = split_agents(agents)
    except AgentSpecError as exc:
        fail(str(exc))
    _check_agents(names, rules.name)
    try:
        written = rules.write_records(out, games, names, seed, make_agent)
    except (ValueError, FileExistsError) as exc:
        fail(str(exc))
    typer.echo(f"wrote {len(written)} {rules.name} games to {out}")


@app.command("derive")
def derive(
    source: Path = typer.Argument(..., help="A built gao86 dataset."),
    out: Path = typer.Argument(..., help="Empty output directory (created)."),
    encoder: str = typer.Option("gao86e", "--encoder", "-e", help="Target encoder: gao86e."),
) -> None:
    """Re-encode a built gao86 dataset as gao86e without replaying the records.

    The efficiency channels need only the counts gao86 shards already hold, so this takes
    minutes where a fresh build replays every game; the shards are identical to a fresh build.
    """
    from rich.console import Console

    from tenpai.learn.dataset import DatasetError, load_manifest
    from tenpai.learn.derive import derive_dataset
    from tenpai.progress import StepProgress

    console = Console(stderr=True)
    try:
        total = len(load_manifest(source)["shards"])
        with StepProgress("re-encoding", total, unit="shards", console=console) as progress:
            manifest = derive_dataset(
                source, out, encoder, on_shard=lambda _p: progress.advance()
            )
    except DatasetError as exc:
        fail(str(exc))
    console.print(f"encoder {manifest['encoder']}, {total} shards from {source}")
    console.print(f"wrote {out / 'manifest.json'}")


def _check_agents(names: list[str], rules: str) -> None:
    """Each agent known and built for ``rules`` (its declaration, then its model), before any
    game is played or file written."""
    from tenpai.agents.registry import AGENTS, is_known_agent, make_agent
    from tenpai.agents.rulesets import check_agent_rules, check_built_agent

    for name in dict.fromkeys(names):
        if not is_known_agent(name):
            fail(f"unknown agent {name!r}; known: {', '.join(sorted(AGENTS))}")
        try:
            check_agent_rules(name, rules)
            check_built_agent(name, make_agent(name, 0), rules)
        except (ValueError, OSError, ImportError) as exc:
            fail(str(exc))


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="dataset")
