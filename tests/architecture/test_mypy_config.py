"""The mypy configuration means what it says: ``strict`` is set once, for every module, the
tests are checked with the module names pytest gives them, and no import of ours is let go
unresolved.

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


def test_mypy_checks_the_tests_with_the_module_names_pytest_gives_them() -> None:
    """pytest puts a test folder without ``__init__.py`` on ``sys.path``, so its tests import
    the folder's helpers by bare name (``from scenario import ...``); and it puts ``tests`` on
    ``sys.path`` for ``tests/conftest.py``, so a test package is top-level and another folder's
    tests import its helpers as ``from arena.processes import ...``.  mypy finds such a module
    only through ``mypy_path``: ``tests`` and every such helper folder must be bases, and no
    other.  No helper folder may hold a ``conftest.py``: it and ``tests/conftest.py`` would
    both be the module ``conftest``, and mypy stops at the duplicate."""
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
    assert "tests" in bases
    assert bases - {"src", "tests"} == helper_folders, (
        f"missing from mypy_path: {sorted(helper_folders - bases)}; "
        f"not helper folders: {sorted(bases - helper_folders - {'src', 'tests'})}")
    with_conftest = sorted(f for f in helper_folders
                           if (PYPROJECT.parent / f / "conftest.py").exists())
    assert not with_conftest, f"a second module `conftest` beside tests': {with_conftest}"


def test_only_third_party_imports_may_be_missing() -> None:
    """With ``ignore_missing_imports`` for every module, a mistyped or moved import of a test
    helper (or of tenpai) was silently ``Any``.  Only named third-party packages may be
    excused: none of ours, and never all."""
    mypy = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["mypy"]
    assert "ignore_missing_imports" not in mypy
    tests = PYPROJECT.parent / "tests"
    ours = {"tenpai", "conftest"} | {d.name for d in tests.iterdir() if d.is_dir()} | {
        p.stem for base in mypy["mypy_path"] for p in (PYPROJECT.parent / base).glob("*.py")}
    excused = [m for o in mypy.get("overrides", []) if o.get("ignore_missing_imports")
               for m in ([o["module"]] if isinstance(o["module"], str) else o["module"])]
    assert excused, "the optional dependencies must be excused by name"
    tops = {m.split(".")[0] for m in excused}
    assert "*" not in tops and not tops & ours, sorted(tops & ours)
