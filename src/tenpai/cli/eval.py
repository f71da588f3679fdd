"""``tenpai eval agreement``: how often a trained model makes the human's choice.

Which decisions count is defined in :mod:`tenpai.learn.decisions` (discards: every discard by a
player not yet in accepted riichi — the declaration tile counts, forced discards after it do
not); by default *no* quality filter is applied, so the figure covers every such discard of
the chosen split.  Use ``--split dev`` or ``--split test`` to stay off the training games.

``--rules mcr`` scores an MCR model on Botzone records instead (:mod:`tenpai.cli._mcr_learn`,
:mod:`tenpai.learn.mcr.evaluate`): one records file or folder, split by the MCR rule (mod 10),
and no Tenhou filters.  The model's encoder must belong to the chosen rules, so a Riichi model
on MCR records (or the reverse) is refused before anything is encoded.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

from tenpai.cli import _mcr_learn
from tenpai.cli._mcr_learn import Rules

#: Tenhou filters of the Riichi evaluation, refused with --rules mcr.
_RIICHI_ONLY = ("room", "max_loss", "limit", "suit_average")

app = typer.Typer(help="Evaluate models against real records.", no_args_is_help=True)


@app.command("agreement")
def agreement(
    ctx: typer.Context,
    records: list[Path] = typer.Argument(..., help="Record files or folders."),
    rules: Rules = typer.Option(
        Rules.riichi, "--rules", help="riichi: Tenhou records; mcr: one Botzone folder or file."
    ),
    model: str = typer.Option(
        "default", "--model", "-m", help="'default' (the shipped model of --rules) or a file."
    ),
    split: str = typer.Option("all", "--split", help="all, train, dev or test (hash of game id)."),
    room: str = typer.Option("houou", "--room", help="Tenhou lobbies, comma-separated; or 'any'."),
    max_loss: int = typer.Option(-1, "--max-loss", help="Gao's filter (-1: off)."),
    limit: int = typer.Option(0, "--limit", min=0, help="Stop after this many games (0: all)."),
    suit_average: bool = typer.Option(
        False,
        "--suit-average",
        help="Score each decision as the mean over its six suit relabellings (6x the work).",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Agreement of each head of the model with the recorded decisions.

    With --rules mcr, --room, --max-loss, --limit and --suit-average are refused.
    """
    if rules is Rules.mcr:
        _mcr_learn.reject_options(ctx, _RIICHI_ONLY)
        _mcr_learn.agreement_mcr(records, model, split, as_json)
        return
    try:
        from tenpai.learn.evaluate import evaluate_agreement
        from tenpai.models.bundle import ModelBundle, ModelError, resolve_model_path
    except ImportError as exc:
        typer.echo(f"error: {exc}; install the learn extra: pip install 'tenpai[learn]'", err=True)
        raise typer.Exit(2) from exc
    from tenpai.learn.dataset import SPLITS, BuildOptions

    if split != "all" and split not in SPLITS:
        raise typer.BadParameter(f"choose all or one of {', '.join(SPLITS)}", param_hint="--split")
    try:
        bundle = ModelBundle.load(resolve_model_path(model))
    except ModelError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    _mcr_learn.check_model_rules(bundle.encoder, rules, model)
    opts = BuildOptions(
        encoder=bundle.encoder,
        kinds=tuple(bundle.heads),
        splits=SPLITS if split == "all" else (split,),
        rooms=None if room == "any" else tuple(r.strip() for r in room.split(",")),
        max_loss=None if max_loss < 0 else max_loss,
        limit=limit or None,
    )
    report = evaluate_agreement(records, bundle, opts, suit_average=suit_average)
    report["model"] = model
    report["split"] = split
    report["rules"] = rules.value
    if as_json:
        typer.echo(json.dumps(report))
        return
    d = report["discards"]
    typer.echo(f"games {report['games']}; model {model} ({bundle.encoder})")
    if d["n"]:
        typer.echo(
            f"discards {d['n']:,}: top-1 {d['top1']:.2%}, top-2 {d['top2']:.2%}, "
            f"top-3 {d['top3']:.2%}"
        )
    for kind in ("pon", "chi", "riichi", "kan"):
        m = report.get(kind)
        if not m or not m.get("n"):
            continue
        typer.echo(
            f"{kind} {m['n']:,} (called {m['positives']:,}): accuracy {m['accuracy']:.2%}, "
            f"precision {m['precision']:.2%}, recall {m['recall']:.2%}, F1 {m['f1']:.3f}"
        )
        for row in m["confusion"]:
            typer.echo("    " + " ".join(f"{v:7d}" for v in row))


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="eval")
