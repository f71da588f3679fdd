"""Checks the learning commands share: the ``--rules`` entry, options that do not apply, models.

Rule-set knowledge lives in the registry (:mod:`tenpai.learn.rulesets`); these helpers only
turn its answers into one-line errors with exit code 2.  Imported when the CLI starts, so only
typer and the standard library at the top.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, NoReturn

import typer

if TYPE_CHECKING:
    from tenpai.learn.learning_rules import LearningRules

__all__ = ["RULES_HELP", "fail", "given_options", "learning_rules", "refuse_filters"]

RULES_HELP = "Rule set: riichi (Tenhou records), mcr (Botzone records) or suits108."


def fail(message: str) -> NoReturn:
    """Print ``error: message`` on stderr and exit with code 2 (bad usage or input)."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def learning_rules(name: str) -> LearningRules:
    """The registry entry of ``--rules``; exit 2 naming the known rule sets otherwise."""
    from tenpai.learn.rulesets import UnknownRulesError, get_rules

    try:
        return get_rules(name)
    except UnknownRulesError as exc:
        fail(str(exc))


def given_options(ctx: typer.Context, names: Iterable[str]) -> list[str]:
    """The flags (``--room``) of the parameters ``names`` that the user set.

    Compared by where the value came from, not by value, so a flag given at its default value
    is still seen as given.
    """
    wanted = set(names)
    flags = []
    for param in ctx.command.params:
        if param.name not in wanted:
            continue
        source = ctx.get_parameter_source(param.name)
        if source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP"):
            flags.append(max(param.opts, key=len))
    return flags


def refuse_filters(ctx: typer.Context, rules: LearningRules, filters: Mapping[str, str]) -> None:
    """Exit 2 when an option was given whose record filter (``filters``: parameter → filter
    name) means nothing for ``rules``' records, instead of silently ignoring it."""
    unused = [p for p, f in filters.items() if f not in rules.filters]
    flags = given_options(ctx, unused)
    if flags:
        verb = "does" if len(flags) == 1 else "do"
        fail(f"{', '.join(flags)} {verb} not apply to --rules {rules.name} records")


def check_model_rules(rules: LearningRules, encoder: str, model: str) -> None:
    """Exit 2 unless a model reading ``encoder`` belongs to ``rules``."""
    from tenpai.learn.rulesets import rules_of_encoder

    owner = rules_of_encoder(encoder)
    if owner is not None and owner.name == rules.name:
        return
    if owner is None:
        fail(f"{model} reads encoder {encoder}, which no rule set knows")
    fail(
        f"{model} is a {owner.name} model (encoder {encoder}), not a {rules.name} one; "
        f"use --rules {owner.name}"
    )
