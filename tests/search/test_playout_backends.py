"""make_backend: a Python policy never imports the compiled backend (nor the rule-based
policies and arena agents it brings); a ``c:`` policy does, on demand."""

from __future__ import annotations

import json
import subprocess
import sys

#: Import the search agent, build a backend of the policy in argv[1], print what was loaded.
_PROBE = """
import json, sys
import tenpai.search.agent
loaded = {"import": sorted(sys.modules)}
from tenpai.search.playout_backends import make_backend
try:
    make_backend(sys.argv[1])
except Exception as e:  # the compiled core not built: the import has happened all the same
    loaded["error"] = type(e).__name__
loaded["backend"] = sorted(sys.modules)
print(json.dumps(loaded))
"""

#: Modules only the compiled backend needs.
COMPILED_ONLY = ("tenpai.search.compiled_playout", "tenpai.search.policies", "tenpai.agents")


def _loaded(policy: str) -> dict[str, list[str]]:
    done = subprocess.run([sys.executable, "-c", _PROBE, policy], capture_output=True, text=True,
                          check=False, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    out: dict[str, list[str]] = json.loads(done.stdout.splitlines()[-1])
    return out


def _compiled_only(names: list[str]) -> list[str]:
    return sorted(m for m in names for c in COMPILED_ONLY if m == c or m.startswith(c + "."))


def test_importing_the_search_agent_leaves_the_compiled_backend_unloaded() -> None:
    python = _loaded("greedy-fold")
    assert "tenpai.search.agent" in python["import"]
    assert _compiled_only(python["import"]) == []
    assert "tenpai.search.compiled_playout" not in python["backend"]


def test_a_compiled_policy_imports_its_backend_on_demand() -> None:
    compiled = _loaded("c:fast")
    assert "tenpai.search.compiled_playout" not in compiled["import"]
    assert "tenpai.search.compiled_playout" in compiled["backend"]
