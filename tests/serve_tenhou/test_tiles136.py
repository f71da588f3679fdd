"""Physical ids follow every tile of seeded engine games: never two copies of one id, each id
shows its tile, every call's meld code decodes to the tiles the event names."""

from __future__ import annotations

import pytest

from tenpai.agents import make_agent
from tenpai.engine.runner import play
from tenpai.events import Event
from tenpai.records.mjlog_meld import decode_meld
from tenpai.rules.riichi.game import RiichiGame
from tenpai.rules.riichi.ruleset import TENHOU, TENHOU_SANMA
from tenpai.serve.tenhou.tiles136 import PhysicalRound, TileIdError, code_of


@pytest.mark.parametrize("players", [4, 3])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_ids_follow_the_tiles_of_random_games(seed: int, players: int) -> None:
    rules = (TENHOU if players == 4 else TENHOU_SANMA).with_(length="tonpuu")
    game = RiichiGame(rules, seed=seed)
    play(game, [make_agent("random", seed * 4 + s) for s in range(players)])
    phys: PhysicalRound | None = None
    calls = 0
    kinds: set[str] = set()
    for e in game.events:
        if e.type == "start_kyoku":
            phys = PhysicalRound(red=True)
        if phys is None or e.type in ("start_game", "end_game"):
            continue
        applied = phys.apply(e)
        held = [i for hand in phys.hands for i in hand]
        assert len(held) == len(set(held)), f"a copy twice after {e.to_mjai()}"
        if e.type in ("tsumo", "dahai") and applied.tile_id is not None:
            assert code_of(applied.tile_id, True) == e.pai
        if applied.meld is not None:
            calls += 1
            m = decode_meld(applied.meld)
            assert m.kind == e.type
            kinds.add(m.kind)
            codes = sorted(code_of(i, True) for i in m.tiles)
            named = list(e.consumed) + ([e.pai] if e.pai is not None and e.type != "ankan"
                                        else [])
            want = sorted(named)
            assert codes == want, e.to_mjai()
    assert calls > 0
    if players == 3:  # Norths set aside travel as nukidora meld codes
        assert "nukidora" in kinds and "chi" not in kinds


def test_a_tile_the_seat_lacks_is_refused() -> None:
    game = RiichiGame(TENHOU, seed=5)
    phys = PhysicalRound(red=True)
    start = game.events[1]
    phys.apply(start)
    missing = next(k for k in range(34) if k not in (start.tehais[0] or ()))
    with pytest.raises(TileIdError, match="holds no"):
        phys.apply(Event("dahai", actor=0, pai=missing, tsumogiri=False))
