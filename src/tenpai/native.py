"""Loading the optional C extensions: one rule for all of them.

Every compiled core (``hand/_accel.c``, ``rules/riichi/_score.c``, ``_rollout.c``, ``_table.c``,
``rules/mcr/_fans.c``, ``_mcr_rollout.c``) is optional: the package must run on Python alone
when there is no compiler, when ``TENPAI_PURE_PYTHON`` asks for the specification, or when
the built file comes from an older source (an editable install not rebuilt, whose functions
read their arguments another way).  Each extension exports an ``ABI`` number that its Python
side checks, so a stale build is ignored rather than trusted.  The rule lives here once, at
the bottom of the layers, so every side that loads an extension decides the same way and
says the same thing when it cannot.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Final

__all__ = ["BUILD_COMMAND", "PURE_PYTHON_ENV", "Core", "load", "need", "pure_python",
           "unavailable", "why_not"]

#: The environment variable that turns every extension off.
PURE_PYTHON_ENV: Final = "TENPAI_PURE_PYTHON"
#: How to build the extensions in place in a source tree (``pip install -e .`` builds them too).
BUILD_COMMAND: Final = "python -c 'import setuptools; setuptools.setup()' build_ext --inplace"


def pure_python() -> bool:
    """True when ``TENPAI_PURE_PYTHON`` asks for the Python path everywhere."""
    return bool(os.environ.get(PURE_PYTHON_ENV))


def load(name: str, abi: int) -> ModuleType | None:
    """The extension module ``name`` when it may be used, else ``None``: switched off, not
    built, or built from a source whose ``ABI`` is not the one this code is written for."""
    if pure_python():
        return None
    try:
        module = importlib.import_module(name)
    except ImportError:
        return None
    return module if getattr(module, "ABI", None) == abi else None


def why_not(name: str, abi: int) -> str:
    """Why the extension ``name`` is not in use, as the end of a sentence that names it
    ("... is not built"); asked afresh, so it is right whoever set the module aside."""
    if pure_python():
        return f"is switched off ({PURE_PYTHON_ENV} is set)"
    try:
        module = importlib.import_module(name)
    except ImportError:
        return "is not built"
    found = getattr(module, "ABI", None)
    if found != abi:
        return f"is a stale build (ABI {found}; this code reads ABI {abi})"
    return "is built but was refused by its load check"


def unavailable(what: str, name: str, abi: int) -> str:
    """One line for the error raised when ``what`` (the extension ``name``) is needed and not
    in use: why, and the command that builds it."""
    return f"{what} ({name}) {why_not(name, abi)}; build it with: {BUILD_COMMAND}"


def need(module: Any, error: type[Exception], what: str, name: str, abi: int) -> Any:
    """``module`` (a loaded extension) when it is there; otherwise ``error`` with the line
    :func:`unavailable` writes, for a feature that has no Python path."""
    if module is None:
        raise error(unavailable(what, name, abi))
    return module


@dataclass
class Core:
    """A compiled core that some feature cannot do without (the rollout cores: no Python path
    plays a whole hand at their speed), with the questions its Python side answers for it.

    ``module`` is what the side's own load check kept (``None``: not in use); tests set it to
    ``None`` to see the refusal.
    """

    #: How the messages name it ("the compiled rollout core").
    what: str
    #: The extension's import name and the ``ABI`` its Python side reads.
    name: str
    abi: int
    #: The error raised when it is needed and not in use.
    error: type[Exception]
    module: Any | None

    def available(self) -> bool:
        """True when the core is built and in use."""
        return self.module is not None

    def unavailable_reason(self) -> str:
        """The one line a setting that needs the core prints when it is not in use: why
        (switched off, not built, stale build) and the build command."""
        return unavailable(self.what, self.name, self.abi)

    def need(self) -> Any:
        """The loaded extension, or :attr:`error` saying why it is not in use."""
        return need(self.module, self.error, self.what, self.name, self.abi)
