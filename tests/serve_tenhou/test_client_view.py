"""Our client's view, rebuilt from Tenhou messages alone, offers exactly the engine's choices.

Four of our clients (three at a ``tenhou_sanma`` table, where Norths are set aside) play at our
table; at every decision the table records the engine's legal actions for the seat and the client
records the actions its view derived.  Seat numbers differ
(the client counts from itself), so actions are compared by type and tiles; the two sequences
must agree decision by decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from tenpai.agents import make_agent
from tenpai.engine.flow import Decision
from tenpai.events import Event
from tenpai.rules.riichi.ruleset import TENHOU_SANMA
from tenpai.serve.tenhou.client import TenhouClient
from tenpai.serve.tenhou.server import ServerConfig
from tenpai.serve.tenhou.table import TableConfig, TenhouTable
from tenpai.serve.tenhou.view import TenhouView

from .helpers import run_table, table_config

Key = tuple[Any, ...]


def _keys(legal: Sequence[Event]) -> list[Key]:
    return sorted(
        (e.type, e.pai, tuple(sorted(e.consumed)), bool(e.tsumogiri), e.kind or "")
        for e in legal
    )


@pytest.mark.parametrize("players", [4, 3])
def test_every_decision_offers_the_engines_actions(
    monkeypatch: pytest.MonkeyPatch, players: int,
) -> None:
    table_side: dict[str, list[list[Key]]] = {}
    client_side: dict[str, list[list[Key]]] = {}
    original = TenhouTable._remote_answer

    async def recording(self: TenhouTable, d: Decision) -> Any:
        table_side.setdefault(self.names[d.seat], []).append(_keys(d.legal))
        return await original(self, d)

    monkeypatch.setattr(TenhouTable, "_remote_answer", recording)

    class Recording(TenhouClient):
        def _ask(self, view: TenhouView, legal: list[Event]) -> Event:
            client_side.setdefault(self.name, []).append(_keys(legal))
            return super()._ask(view, legal)

    def client(agent: str, name: str, seed: int) -> Any:
        player = make_agent(agent, seed)

        def play(port: int) -> Any:
            return [Recording(player, "127.0.0.1", port, name=name, timeout=60.0).play_game()
                    for _ in range(3)]

        return play

    agents = ["random", "random", "efficiency", "defensive"][:players]
    table = (table_config() if players == 4
             else TableConfig(rules=TENHOU_SANMA.with_(length="tonpuu")))
    config = ServerConfig(games=3, seed=77, table=table)
    run = run_table(config, {f"v{i}": client(a, f"v{i}", i) for i, a in enumerate(agents)},
                    limit=300)
    assert run.failures == [] and len(run.results) == 3
    total = 0
    kinds: set[str] = set()
    for name in (f"v{i}" for i in range(players)):
        engine, ours = table_side[name], client_side[name]
        # A riichi discard is chosen ahead on a copy of the view, but it is still one
        # decision on each side, in the same order.
        assert len(ours) == len(engine), name
        for i, (a, b) in enumerate(zip(engine, ours, strict=True)):
            assert a == b, f"{name}, decision {i}: engine {a} vs client {b}"
            kinds |= {k[0] for k in a}
        total += len(engine)
    assert total > 200
    if players == 3:
        assert "nukidora" in kinds and "chi" not in kinds
