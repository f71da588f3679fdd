"""``tenpai explain --agent planner --hand ...``: the MCR planner's targets behind a discard.

The position is given on the command line (a hand, optional melds, the tiles seen elsewhere,
the draws left), so any situation from a record, a game log or a book can be asked about.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import typer

from tenpai import tiles as T

if TYPE_CHECKING:
    from tenpai.agents.planner_settings import PlannerSettings

__all__ = ["explain_planner", "planner_settings"]

_WINDS = "ESWN"


class _BadInput(ValueError):
    """An option that does not describe a position (the message names it)."""


def _melds(text: str) -> tuple[Any, ...]:
    """``chi:234m,pon:999s,kan:5z,ankan:1p`` as scorer melds."""
    from tenpai.rules.mcr import MCRInputError, Meld

    out = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        kind, _, tiles = part.partition(":")
        try:
            kinds = tuple(T.kind_of(t) for t in T.parse(tiles))
        except T.TileParseError as err:
            raise _BadInput(f"--melds {part!r}: {err}") from None
        how = {"chi": "chow", "pon": "pung", "kan": "exposed_kong", "ankan": "concealed_kong"}
        if kind not in how:
            raise _BadInput(f"--melds {part!r}: say chi:, pon:, kan: or ankan: before the tiles")
        if how[kind] == "chow":
            kinds = tuple(sorted(kinds))
        elif len(kinds) == 1:
            kinds = kinds * (4 if kind in ("kan", "ankan") else 3)
        try:
            out.append(Meld(how[kind], kinds, 0 if kind == "ankan" else 1))  # type: ignore[arg-type]
        except MCRInputError as err:
            raise _BadInput(f"--melds {part!r}: {err}") from None
    return tuple(out)


def _wind(text: str, option: str) -> int:
    if len(text) != 1 or text.upper() not in _WINDS:
        raise _BadInput(f"{option} {text!r}: one of E, S, W, N")
    return _WINDS.index(text.upper())


def planner_settings(agent: str) -> PlannerSettings:
    """The settings ``--agent`` gives the planner: ``planner`` reads ``$TENPAI_PLANNER_*``,
    ``planner[FAN_WEIGHT=0]`` those with its bracket's settings over them, as a seat of that
    name plays them in the arena.  Anything wrong is one line and exit code 2."""
    from tenpai.agents.planner_settings import PlannerSettings
    from tenpai.agents.registry import AGENTS, AgentEntry
    from tenpai.agents.spec import AgentSpecError, parse_agent_spec

    try:
        spec = parse_agent_spec(agent)
    except AgentSpecError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from None
    entry = AGENTS["planner"]
    if spec.name != "planner" or not isinstance(entry, AgentEntry):
        typer.echo(f"error: --agent {agent}: only 'mdp' and 'planner' can explain themselves",
                   err=True)
        raise typer.Exit(2)
    try:
        env = entry.settings_env(spec.settings) if spec.settings else None
        try:
            settings = PlannerSettings.from_env(env)
        except ValueError as err:
            raise entry.as_written(err, spec.settings) from None
    except ValueError as err:
        typer.echo(f"error: --agent {spec}: {err}", err=True)
        raise typer.Exit(2) from None
    # what this page cannot show is refused rather than shown as if it played: the defense
    # and the safety tie-break read the opponents, the union value samples draws, a sight
    # sees hidden tiles
    written = dict(spec.settings)
    for key, field, shown in (("DEFENSE", "defense", (False,)), ("VALUE", "value", ("best",)),
                              ("SIGHT", "sight", ("fair",)),
                              ("TIE_BREAK", "tie_break", ("efficiency", "runner_up"))):
        if getattr(settings, field) not in shown:
            where = "in brackets" if key in written else f"from $TENPAI_PLANNER_{key}"
            typer.echo(f"error: --agent {spec}: {key}={getattr(settings, field)} ({where}) is "
                       "not shown by explain, which shows FAN_WEIGHT, CLAIMS, RACE and "
                       f"TIE_BREAK (efficiency or runner_up); leave {key} at its default",
                       err=True)
            raise typer.Exit(2)
    return settings


def explain_planner(
    hand: str, melds: str, seen: str, draws: int, seat_wind: str, prevalent_wind: str,
    top: int, as_json: bool, settings: PlannerSettings | None = None,
) -> None:
    """Print the planner's targets for a hand about to discard (14 - 3·melds tiles) or
    waiting for a tile (13 - 3·melds), and for a discard decision the tile it would play
    (with ``settings``, default ``$TENPAI_PLANNER_*``)."""
    from tenpai.agents.planner import planned_discard
    from tenpai.events import Event
    from tenpai.rules.mcr.plan import (
        PlanError,
        PlanState,
        Valuation,
        best_and_runner_up,
        best_by_discard,
        plan,
    )

    if settings is None:
        settings = planner_settings("planner")
    valuation = Valuation(fan_weight=settings.fan_weight)
    try:
        tiles = T.parse(hand)
        counts = T.counts34(tiles)
        scored = _melds(melds)
        try:
            seen_counts = T.counts34(T.parse(seen)) if seen else [0] * 34
        except T.TileParseError as err:
            raise _BadInput(f"--seen: {err}") from None
        for m in scored:
            for k in m.tiles:
                seen_counts[k] += 1
        live = [4 - c - s for c, s in zip(counts, seen_counts)]
        bad = [T.to_compact([k]) for k, n in enumerate(live) if n < 0]
        if bad:
            raise _BadInput(f"more than four copies of {', '.join(bad)} in --hand, --melds "
                            "and --seen together")
        state = PlanState(tuple(counts), scored, tuple(live), draws,
                          _wind(seat_wind, "--seat-wind"), _wind(prevalent_wind,
                                                                  "--prevalent-wind"),
                          claim_rate=settings.claims, race=settings.race_table)
        targets = plan(state, valuation=valuation)
    except T.TileParseError as err:
        typer.echo(f"error: --hand: {err}", err=True)
        raise typer.Exit(2) from None
    except (_BadInput, PlanError) as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from None
    deciding = sum(counts) == 14 - 3 * len(scored)
    choice: str | None = None
    per_discard: dict[int, Any] = {}
    runner_up: dict[int, float] | None = None
    if deciding:
        # the agent's tie-break: the runner-up target orders the tied discards when asked
        if settings.tie_break == "runner_up":
            per_discard, runner_up = best_and_runner_up(state, valuation)
        else:
            per_discard = best_by_discard(state, valuation)
        discards = [Event("dahai", actor=0, pai=k) for k in range(34) if counts[k]]
        picked = planned_discard(list(counts), discards, seen_counts, per_discard,
                                 runner_up=runner_up)
        assert picked.pai is not None
        choice = T.to_compact([picked.pai])

    def row(t: Any) -> dict[str, Any]:
        return {
            "family": t.family,
            "needed": T.to_compact([k for k, n in t.needed for _ in range(n)]),
            "discard": T.to_compact([k for k, n in t.excess for _ in range(n)]),
            "probability": t.probability,
            "points": t.points,
            "fans": [[name, p] for name, p in t.fans],
            "self_draw_only": t.self_draw_only,
            "value": t.value,
            "race_probability": t.race_probability,
        }

    if as_json:
        typer.echo(json.dumps({
            "hand": T.to_compact(tiles), "draws": draws, "unseen": state.unseen,
            "discard": choice,
            "by_discard": {T.to_compact([k]): row(t) for k, t in sorted(per_discard.items())},
            "targets": [row(t) for t in targets[:top]],
        }, sort_keys=True))
        return
    typer.echo(f"hand {T.to_compact(tiles)}"
               + (f" + melds {melds}" if melds else "")
               + f"; {state.unseen} tiles unseen, {draws} draws left")
    fans = "fans" if settings.fan_weight == 1.0 else f"{settings.fan_weight:g} × fans"
    odds = ("P assumes draws only (claims would add to it)" if not settings.claims else
            f"P counts the opponents' discards too, {settings.claims:g} a discard (CLAIMS)")
    typer.echo(f"value = P(drawing what is needed within the draws left) × "
               f"({valuation.win_points:g} + {fans}); {odds}")
    if settings.race_table:
        typer.echo(f"race on ($TENPAI_PLANNER_RACE): P weighted by the hand's survival to each "
                   f"draw it may complete at, from own draw {state.drawn} (the 'in the race' "
                   "figure)")
    if runner_up is not None:
        typer.echo("tie-break runner_up ($TENPAI_PLANNER_TIE_BREAK): among discards keeping "
                   "equally valuable targets, the one keeping the best second target")
    if deciding:
        typer.echo(f"discard: {choice}"
                   + ("" if per_discard else " (no 8-fan target in reach: efficiency's choice)"))
        for k, t in sorted(per_discard.items(), key=lambda kt: -kt[1].value):
            typer.echo(f"  discard {T.to_compact([k]):<3} keeps {t.value:6.2f}  {t.describe()}")
    typer.echo(f"top {min(top, len(targets))} of {len(targets)} targets:")
    for t in targets[:top]:
        discard = T.to_compact([k for k, n in t.excess for _ in range(n)]) or "-"
        typer.echo(f"  {t.value:6.2f}  {t.describe()}; lets go {discard}")
