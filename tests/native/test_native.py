"""The one rule by which every C extension is taken into use or set aside (``tenpai.native``).

A fake extension module in ``sys.modules`` stands for a build, so each case (switched off,
not built, stale ABI, refused after loading) is checked whatever this checkout has built.
"""

from __future__ import annotations

import sys
import types

import pytest

from tenpai import native

_FAKE = "tenpai_test_fake_extension"


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    """A 'built' extension of ABI 3, with TENPAI_PURE_PYTHON unset."""
    module = types.ModuleType(_FAKE)
    module.ABI = 3  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, _FAKE, module)
    monkeypatch.delenv(native.PURE_PYTHON_ENV, raising=False)
    return module


def test_a_build_of_the_expected_abi_is_used(built: types.ModuleType) -> None:
    assert native.load(_FAKE, 3) is built
    # in use, yet set aside by its own side's check: the reason says so
    assert native.why_not(_FAKE, 3) == "is built but was refused by its load check"


def test_a_stale_build_is_not_used_and_says_its_abi(built: types.ModuleType) -> None:
    assert native.load(_FAKE, 4) is None
    assert native.why_not(_FAKE, 4) == "is a stale build (ABI 3; this code reads ABI 4)"


def test_a_build_without_an_abi_is_stale(built: types.ModuleType) -> None:
    del built.ABI
    assert native.load(_FAKE, 3) is None
    assert "stale build (ABI None" in native.why_not(_FAKE, 3)


def test_the_environment_switch_wins_over_a_good_build(
    built: types.ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(native.PURE_PYTHON_ENV, "1")
    assert native.pure_python()
    assert native.load(_FAKE, 3) is None
    assert native.why_not(_FAKE, 3) == "is switched off (TENPAI_PURE_PYTHON is set)"


def test_a_missing_build_is_not_built(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(native.PURE_PYTHON_ENV, raising=False)
    name = "tenpai.hand._no_such_extension"
    assert native.load(name, 1) is None
    assert native.why_not(name, 1) == "is not built"
    message = native.unavailable("the compiled thing", name, 1)
    assert message == ("the compiled thing (tenpai.hand._no_such_extension) is not built; "
                       "build it with: python -c 'import setuptools; setuptools.setup()' "
                       "build_ext --inplace")


def test_the_rollout_cores_say_why_they_are_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both compiled rollout cores raise their own error with the shared reason and command."""
    from tenpai.rules.riichi import rollout
    from tenpai.search.mcr import compiled

    monkeypatch.setenv(native.PURE_PYTHON_ENV, "1")
    monkeypatch.setattr(rollout._core, "module", None)
    monkeypatch.setattr(compiled._core, "module", None)
    with pytest.raises(rollout.RolloutUnavailable,
                       match=r"^the compiled rollout core \(tenpai\.rules\.riichi\._rollout\) is "
                             r"switched off \(TENPAI_PURE_PYTHON is set\); build it with: .*"
                             r"build_ext --inplace$"):
        rollout.run((), "tenhou", "greedy", [1])
    with pytest.raises(compiled.MCRRolloutUnavailable,
                       match=r"^the compiled MCR rollout core \(tenpai\.rules\.mcr\._mcr_rollout\)"
                             r" is switched off"):
        compiled.run(())


def test_need_hands_back_a_loaded_module_and_raises_the_callers_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(native.PURE_PYTHON_ENV, raising=False)
    loaded = types.ModuleType("loaded")
    assert native.need(loaded, LookupError, "x", "tenpai.hand._no_such_extension", 1) is loaded
    with pytest.raises(LookupError, match=r"^the core \(tenpai\.hand\._no_such_extension\) is "
                                          r"not built; build it with: "):
        native.need(None, LookupError, "the core", "tenpai.hand._no_such_extension", 1)


def test_a_core_answers_for_its_module(monkeypatch: pytest.MonkeyPatch) -> None:
    """`native.Core` is what the rollout cores' `available`, `unavailable_reason` and `_need`
    are: absent, it says so with the shared line and raises the side's own error."""
    monkeypatch.delenv(native.PURE_PYTHON_ENV, raising=False)
    loaded = types.ModuleType("loaded")
    core = native.Core("the core", "tenpai.hand._no_such_extension", 1, LookupError, loaded)
    assert core.available() and core.need() is loaded
    core.module = None
    assert not core.available()
    assert core.unavailable_reason() == native.unavailable(
        "the core", "tenpai.hand._no_such_extension", 1)
    with pytest.raises(LookupError, match=r"^the core \(tenpai\.hand\._no_such_extension\) is "
                                          r"not built; build it with: "):
        core.need()
