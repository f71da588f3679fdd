"""The mypy configuration means what it says: ``strict`` is set once, for every module.

mypy reads ``strict = true`` in a ``[[tool.mypy.overrides]]`` section as the global option
(python/mypy#16387, still so in mypy 2.4.1): an override that made ``tenpai.tiles`` and
``tenpai.hand`` strict made every checked module strict, while the config and ``.ci/run``
said two.  ``strict`` therefore belongs in ``[tool.mypy]`` alone; a module wanting more than
the rest must spell out its flags.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def test_strict_is_set_globally_and_in_no_override() -> None:
    mypy = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["mypy"]
    assert mypy.get("strict") is True
    in_overrides = [o["module"] for o in mypy.get("overrides", []) if "strict" in o]
    assert not in_overrides, f"`strict` in an override applies to every module: {in_overrides}"
