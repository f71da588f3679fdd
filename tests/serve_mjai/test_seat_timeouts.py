"""The time per answer of ``mjai:`` and ``botzone:`` seats, each from its own variable:
the default when unset, the value when a positive number, else one line naming the variable."""

from __future__ import annotations

from types import ModuleType

import pytest

from tenpai.serve.botzone import external as botzone_external
from tenpai.serve.mjai import external as mjai_external

_SEATS = [(mjai_external, "TENPAI_MJAI_TIMEOUT", 60.0),
          (botzone_external, "TENPAI_BOTZONE_TIMEOUT", 30.0)]


@pytest.mark.parametrize(("module", "var", "default"), _SEATS)
def test_the_default_unless_the_variable_says_otherwise(
        module: ModuleType, var: str, default: float, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(var, raising=False)
    assert module.default_timeout() == default
    monkeypatch.setenv(var, "")
    assert module.default_timeout() == default
    monkeypatch.setenv(var, "2.5")
    assert module.default_timeout() == 2.5


@pytest.mark.parametrize(("module", "var", "default"), _SEATS)
@pytest.mark.parametrize(("raw", "message"), [("soon", "is not a number of seconds"),
                                              ("0", "must be positive"),
                                              ("-3", "must be positive")])
def test_a_bad_value_is_one_line_naming_the_variable(
        module: ModuleType, var: str, default: float, raw: str, message: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(var, raw)
    with pytest.raises(ValueError) as err:
        module.default_timeout()
    assert str(err.value) == f"{var}={raw!r} {message}"
