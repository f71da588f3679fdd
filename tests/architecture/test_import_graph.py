"""The packages' imports form layers with no circle (the contracts are in pyproject.toml).

``lint-imports`` (in .ci/run) checks the contracts; these tests keep the contracts honest: every
package of tenpai stands in a layer (a new package left out would escape them), and no two
packages import each other through any path — counting imports inside functions and under
TYPE_CHECKING, as grimp reads them.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

grimp = pytest.importorskip("grimp")

ROOT = Path(__file__).resolve().parents[2]


def _packages(graph: object) -> dict[str, set[str]]:
    """tenpai's top-level packages and modules -> those each imports (directly)."""
    out: dict[str, set[str]] = {}
    for module in graph.modules:  # type: ignore[attr-defined]
        parts = module.split(".")
        if len(parts) < 2:
            continue
        top = ".".join(parts[:2])
        deps = out.setdefault(top, set())
        for imported in graph.find_modules_directly_imported_by(module):  # type: ignore[attr-defined]
            other = ".".join(imported.split(".")[:2])
            if other != top and imported != "tenpai":
                deps.add(other)
    return out


@pytest.fixture(scope="module")
def packages() -> dict[str, set[str]]:
    graph = grimp.build_graph("tenpai", exclude_type_checking_imports=False)
    return _packages(graph)


def _circles(deps: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one package (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(deps.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(deps):
        if v not in index:
            visit(v)
    return found


def test_circle_finder_finds_a_circle() -> None:
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


def test_no_package_imports_itself_back(packages: dict[str, set[str]]) -> None:
    assert _circles(packages) == []


def test_every_package_stands_in_a_layer(packages: dict[str, set[str]]) -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    layers = next(c for c in contracts if c["type"] == "layers")["layers"]
    named = {name.strip() for layer in layers for name in layer.split("|")}
    unplaced = sorted(p for p in packages if p not in named and p != "tenpai.__main__")
    assert unplaced == []
