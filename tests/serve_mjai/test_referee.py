"""The referee's small decisions: matching a bot's answer, the safe default, seat specs."""

from __future__ import annotations

import pytest

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.serve.mjai.external import _match, resolve_spec, safe_default
from tenpai.serve.mjai.wire import parse_action

M5, M5R = T.from_mjai("5m"), T.from_mjai("5mr")
LEGAL = (
    Event("dahai", actor=1, pai=M5, tsumogiri=False),
    Event("dahai", actor=1, pai=M5, tsumogiri=True),
    Event("dahai", actor=1, pai=M5R, tsumogiri=False),
    Event("pon", actor=1, target=0, pai=M5, consumed=(M5, M5R)),
    Event("hora", actor=1, target=0, pai=M5),
    Event("none"),
)


@pytest.mark.parametrize(
    ("line", "index"),
    [
        ('{"type":"dahai","actor":1,"pai":"5m","tsumogiri":true}', 1),
        ('{"type":"dahai","actor":1,"pai":"5m","tsumogiri":false}', 0),
        ('{"type":"dahai","actor":1,"pai":"5mr","tsumogiri":true}', 2),  # flag only breaks ties
        ('{"type":"pon","actor":1,"target":0,"pai":"5m","consumed":["5mr","5m"]}', 3),
        ('{"type":"hora","actor":1,"target":0}', 4),  # a win's tile may be left out
        ('{"type":"none"}', 5),
    ],
)
def test_answers_match_the_legal_event_they_mean(line: str, index: int) -> None:
    assert _match(parse_action(line), LEGAL, 1) is LEGAL[index]


@pytest.mark.parametrize(
    "line",
    [
        '{"type":"dahai","actor":2,"pai":"5m","tsumogiri":true}',  # another seat's actor
        '{"type":"dahai","actor":1,"pai":"6m","tsumogiri":true}',  # a tile not offered
        '{"type":"pon","actor":1,"target":0,"pai":"5m","consumed":["5m","5m"]}',  # wrong fives
        '{"type":"hora","actor":1,"target":3}',  # wrong target
        '{"type":"reach","actor":1}',
    ],
)
def test_answers_that_mean_nothing_legal_do_not_match(line: str) -> None:
    assert _match(parse_action(line), LEGAL, 1) is None


def test_safe_default_passes_else_discards_the_draw() -> None:
    assert safe_default(LEGAL).type == "none"
    assert safe_default(LEGAL[:3]) is LEGAL[1]
    assert safe_default((LEGAL[0], LEGAL[2])) is LEGAL[0]


def test_resolve_spec_finds_programs_on_path_and_keeps_arguments() -> None:
    spec = resolve_spec("mjai:sh -c 'exit 0'")
    assert spec.startswith("mjai:/") and spec.endswith("-c 'exit 0'")
    with pytest.raises(ValueError, match="not an executable on PATH"):
        resolve_spec("mjai:no-such-program-here-xyz")
    with pytest.raises(ValueError, match="no program"):
        resolve_spec("mjai:")
