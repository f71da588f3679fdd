"""Search settings read from ``$PREFIX_*``: every field by its variable, one-line errors naming
the variable, and the short description the arena records."""

from __future__ import annotations

from dataclasses import dataclass, fields

import pytest

from tenpai.mcts.pg_settings import MCTSPGSettings
from tenpai.search.env import describe_settings, settings_from_env
from tenpai.search.mcr.settings import MCRSearchSettings
from tenpai.search.settings import SearchSettings


@dataclass(frozen=True)
class _Knobs:
    rate: float = 0.5
    count: int = 3
    name: str = "x"
    on: bool = True
    top_k: int = 2


def test_each_field_is_read_as_its_type_and_the_rest_keep_their_defaults() -> None:
    env = {"K_RATE": "1e3", "K_COUNT": "7", "K_ON": "off", "K_TOPK": "5", "K_NAME": "",
           "OTHER_COUNT": "9"}
    knobs = settings_from_env(_Knobs, "K_", env, {"top_k": "TOPK"})
    assert knobs == _Knobs(rate=1000.0, count=7, name="x", on=False, top_k=5)
    assert isinstance(knobs.rate, float) and isinstance(knobs.count, int)
    assert settings_from_env(_Knobs, "K_", {"K_TOP_K": "5"}, {"top_k": "TOPK"}) == _Knobs()
    assert settings_from_env(_Knobs, "K_", {}) == _Knobs()


@pytest.mark.parametrize(("var", "raw", "message"), [
    ("K_COUNT", "many", "K_COUNT: cannot read 'many' as int"),
    ("K_RATE", "fast", "K_RATE: cannot read 'fast' as float"),
    ("K_ON", "maybe", "K_ON: cannot read 'maybe' as bool"),
])
def test_an_unreadable_value_is_one_line_naming_the_variable(var: str, raw: str,
                                                             message: str) -> None:
    with pytest.raises(ValueError) as err:
        settings_from_env(_Knobs, "K_", {var: raw})
    assert str(err.value) == message


def test_a_field_of_another_type_is_refused() -> None:
    @dataclass(frozen=True)
    class Listed:
        items: tuple[int, ...] = ()

    with pytest.raises(TypeError, match=r"Listed\.items"):
        settings_from_env(Listed, "L_", {})


def test_the_description_names_what_differs_from_the_defaults() -> None:
    assert describe_settings(_Knobs()) == "defaults"
    assert describe_settings(_Knobs(on=False, count=4)) == "count=4,on=False"


#: Every variable of each search, set to a value other than the default; then the variables
#: that cannot be set beside those values (CALL_Z_SCALE scales the paired rule, the first
#: dict sets RULE=puct; MCR's SIGHT draws no fair worlds to weigh), each read alone.
_SettingsClass = type[SearchSettings] | type[MCTSPGSettings] | type[MCRSearchSettings]
_EVERY: list[tuple[_SettingsClass, str, dict[str, str], dict[str, str]]] = [
    (SearchSettings, "TENPAI_SEARCH_", {
        "BUDGET_MS": "5", "CLOCK": "cpu", "WORLDS": "3", "TOPK": "4", "THRESHOLD": "0.5",
        "POLICY": "fast", "VALUE": "points", "UTILITY": "uma", "OPPONENTS": "read",
        "RIICHI_READY": "0", "RULE": "puct", "Z": "2", "C_PRIOR": "3",
        "PLACEMENT_MODEL": "p.json", "WORLDS_MODE": "weighted", "POOL": "2", "WEIGHT_T": "2",
        "WEIGHT_CALLS": "1", "WEIGHT_WIN_PASSES": "1", "CALL_OFFERS": "1", "LAST_THRESHOLD": "1",
        "PLAYOUT_YAKU": "ties", "LEAF": "auto", "READ_WAITS": "1"},
     {"CALL_Z_SCALE": "0.5", "SIGHT": "hands", "DEAL_IN": "quiet"}),
    (MCTSPGSettings, "TENPAI_MCTS_PG_", {
        "BUDGET_MS": "5", "CLOCK": "cpu", "WORLDS": "3", "SIMULATIONS": "5", "TOPK": "4",
        "THRESHOLD": "0.5", "C1": "2", "POLICY": "fast", "UTILITY": "uma",
        "OPPONENTS": "shaped", "PLACEMENT_MODEL": "p.json"}, {}),
    (MCRSearchSettings, "TENPAI_SEARCH_MCR_", {
        "BUDGET_MS": "5", "CLOCK": "cpu", "WORLDS": "3", "TOPK": "4", "CLOSE": "0.2",
        "POLICY": "greedy", "VALUE": "place", "Z": "2", "OWN": "planner",
        "WORLDS_MODE": "weighted", "POOL": "2", "MISS": "0.3"}, {"SIGHT": "hands"}),
]


@pytest.mark.parametrize(("cls", "prefix", "values", "apart"), _EVERY)
def test_every_setting_has_its_variable(cls: _SettingsClass, prefix: str, values: dict[str, str],
                                        apart: dict[str, str]) -> None:
    settings = cls.from_env({prefix + k: v for k, v in values.items()})
    assert len(values) + len(apart) == len(fields(cls))
    changed = [c.split("=")[0] for c in settings.describe().split(",")]
    for name, raw in apart.items():
        alone = cls.from_env({prefix + name: raw}).describe().split(",")
        assert len(alone) == 1
        changed.append(alone[0].split("=")[0])
    assert sorted(changed) == sorted(f.name for f in fields(cls))
    assert cls.from_env({}) == cls() and cls().describe() == "defaults"
