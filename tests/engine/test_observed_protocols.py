"""The protocols through which observations read a hand name only public members.

A view reads its hand through :class:`~tenpai.engine.observation.ObservedTable` and its rule
set's ``Observed*Round``, which the Python rounds and the compiled Riichi table satisfy by their
shape; a private name there would make every table that satisfies it mimic another class's
internals (``ObservedMCRRound`` once named the round's ``_wall_remaining`` hook).
"""

from __future__ import annotations

import inspect
from types import FunctionType
from typing import Protocol

import pytest

from tenpai.engine import observation as engine_observation
from tenpai.rules.mcr.flow import observation as mcr_observation
from tenpai.rules.riichi.flow import observation as riichi_observation
from tenpai.rules.suits108 import observation as suits108_observation

MODULES = [engine_observation, riichi_observation, mcr_observation, suits108_observation]


def _protocols() -> list[type]:
    return [
        cls
        for module in MODULES
        for _, cls in inspect.getmembers(module, inspect.isclass)
        if cls.__module__ == module.__name__ and Protocol in cls.__bases__
    ]


def test_each_view_module_declares_what_it_reads() -> None:
    names = {cls.__name__ for cls in _protocols()}
    assert {"ObservedTable", "ObservedRiichiRound", "ObservedMCRRound",
            "ObservedSuits108Round"} <= names


@pytest.mark.parametrize("protocol", _protocols(), ids=lambda cls: cls.__name__)
def test_a_protocol_names_only_public_members(protocol: type) -> None:
    private = sorted(
        name
        for name, member in vars(protocol).items()
        if name.startswith("_") and not name.endswith("__")
        and isinstance(member, (FunctionType, property))
    )
    assert private == []
