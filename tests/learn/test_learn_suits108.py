"""The 108-tile rules through the shared layer: self-play records, decisions, a dataset build."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from tenpai.agents import make_agent
from tenpai.cli.main import app
from tenpai.events import Event
from tenpai.learn.dataset import BuildOptions, build_dataset, iter_replayed_games
from tenpai.learn.rulesets import get_rules
from tenpai.learn.suits108.records import play_with_passes
from tenpai.rules.suits108 import PAPER, Suits108Game

runner = CliRunner()


class _Spy:
    """An agent that plays like ``inner`` and notes, per own turn, whether ``reach`` was legal."""

    def __init__(self, inner: Any, log: list[tuple[int, bool, str]], seat: int) -> None:
        self.inner, self.log, self.seat = inner, log, seat
        self.name = f"spy-{inner.name}"

    def act_batch(self, requests: Sequence[tuple[Any, Sequence[Event]]]) -> list[Event]:
        return [self.act(obs, legal) for obs, legal in requests]

    def act(self, observation: Any, legal: Sequence[Event]) -> Event:
        answer: Event = self.inner.act(observation, legal)
        if any(e.type == "dahai" for e in legal):
            self.log.append((self.seat, any(e.type == "reach" for e in legal), answer.type))
        return answer


def test_declaration_and_call_decisions_match_what_the_engine_offered() -> None:
    log: list[tuple[int, bool, str]] = []
    names = ["expert", "efficiency"] * 2
    agents = [_Spy(make_agent(n, seed=i), log, i) for i, n in enumerate(names)]
    game = Suits108Game(PAPER, seed=11)
    events = play_with_passes(game, agents, game.events)
    points = list(get_rules("suits108").decisions(events, ("riichi", "pon", "chi", "kan"), None))
    # A declaration decision exactly where the engine offered ``reach`` and the turn ended in a
    # discard or the declaration (not a win or a kong).
    offered = [(s, a) for s, legal, a in log if legal and a in ("dahai", "reach")]
    ready = [(d.seat, d.label) for d in points if d.kind == "riichi"]
    assert ready == [(s, int(a == "reach")) for s, a in offered]
    calls = {t: sum(e.type == t for e in events) for t in ("chi", "pon")}
    assert sum(d.label != 0 for d in points if d.kind == "chi") == calls["chi"]
    assert sum(d.label for d in points if d.kind == "pon") == calls["pon"]
    passes = [e for e in events if e.type == "none"]
    assert sum(d.label == 0 for d in points if d.kind in ("pon", "chi")) >= len(passes) > 0


def test_record_build_and_a_tampered_record(tmp_path: Path) -> None:
    rec, ds = tmp_path / "rec", tmp_path / "ds"
    r = runner.invoke(app, ["dataset", "record", str(rec), "--games", "3", "--seed", "7"])
    assert r.exit_code == 0, r.output
    files = sorted(rec.iterdir())
    assert [f.name for f in files] == [f"suits108-s{s}.mjson" for s in (7, 8, 9)]
    again = runner.invoke(app, ["dataset", "record", str(rec), "--games", "1", "--seed", "8"])
    assert again.exit_code == 2 and "already exists" in again.stderr
    opts = BuildOptions.for_rules("suits108")
    assert [gid for gid, _ in iter_replayed_games([rec], opts)] == [f.name for f in files]
    # One record altered: with a discard left out it no longer re-drives the engine.
    lines = files[0].read_text().splitlines()
    k = next(i for i, ln in enumerate(lines) if '"dahai"' in ln)
    files[0].write_text("\n".join(lines[:k] + lines[k + 1 :]) + "\n")
    manifest = build_dataset([rec], ds, opts)
    assert manifest["skipped"] == {"replay diverged": 1}
    assert manifest["rules"] == "suits108" and manifest["encoder"] == "s108@1"
    assert set(manifest["classes"]) == {"discard", "riichi", "pon", "chi", "kan"}
    assert sum(manifest["games_per_split"].values()) == 2
    r = runner.invoke(app, ["dataset", "record", str(rec), "--rules", "mcr"])
    assert r.exit_code == 2 and "learns from real records" in r.stderr
