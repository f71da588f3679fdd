"""The mypy configuration means what it says: ``strict`` is set once, for every module, and
the tests are checked with the module names pytest gives them.

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


def test_mypy_checks_the_tests_with_each_helper_folder_as_a_base() -> None:
    """pytest puts a test folder without ``__init__.py`` on ``sys.path``, so its tests import
    the folder's helpers by bare name (``from scenario import ...``).  mypy finds such a module
    only through ``mypy_path``, and with ``ignore_missing_imports`` a name it cannot find is
    silently ``Any``: every such folder that holds a helper must be a base, and no other.
    ``tests`` itself must not be one: its ``conftest.py`` and a helper folder's would then both
    be the module ``conftest``, and mypy stops at the duplicate."""
    mypy = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["mypy"]
    assert mypy["files"] == ["src/tenpai", "tests"]
    assert mypy.get("explicit_package_bases") is True
    tests = PYPROJECT.parent / "tests"
    helper_folders = {
        f"tests/{d.name}" for d in tests.iterdir()
        if d.is_dir() and not (d / "__init__.py").exists()
        and any(not p.name.startswith("test_") and p.name != "conftest.py" for p in d.glob("*.py"))
    }
    assert "tests/engine" in helper_folders  # scenario.py: the check sees what it should
    bases = set(mypy["mypy_path"])
    assert bases - {"src"} == helper_folders, (
        f"missing from mypy_path: {sorted(helper_folders - bases)}; "
        f"not helper folders: {sorted(bases - helper_folders - {'src'})}")
