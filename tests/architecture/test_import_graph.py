"""The packages' imports form layers with no circle (the contracts are in pyproject.toml).

``lint-imports`` (in .ci/run) checks the contracts; these tests keep the contracts and the
picture honest: every package of tenpai stands in a layer (a new package left out would escape
them), no two packages import each other through any path — counting imports inside functions
and under TYPE_CHECKING, as grimp reads them — nor do two files (or subpackages) of one package,
nor any two modules at all (a package's ``__init__`` and its own files among them), and
docs/architecture.md draws today's graph.
"""

from __future__ import annotations

import pytest

pytest.importorskip("grimp")

import import_graph  # beside this file; imported after the grimp check


@pytest.fixture(scope="module")
def packages() -> dict[str, set[str]]:
    return import_graph.package_graph()


def test_circle_finder_finds_a_circle() -> None:
    assert import_graph.circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [
        ["a", "b", "c"]
    ]
    assert import_graph.circles({"a": {"b"}, "b": set()}) == []


def test_reduction_leaves_out_only_implied_arrows() -> None:
    deps = {"a": {"b", "c"}, "b": {"c"}, "c": set(), "d": {"c"}}
    assert import_graph.reduced(deps) == {"a": {"b"}, "b": {"c"}, "c": set(), "d": {"c"}}


def test_no_package_imports_itself_back(packages: dict[str, set[str]]) -> None:
    assert import_graph.circles(packages) == []


def test_no_files_of_a_package_import_each_other_back() -> None:
    # the observation <-> round pair of each rule set was such a circle under TYPE_CHECKING
    assert import_graph.circles_inside_packages() == {}


def test_no_module_imports_back_one_that_imports_it() -> None:
    # a package's __init__ and its own modules included: neither view above sees that pair
    assert import_graph.circles(import_graph.module_graph()) == []


def test_every_package_stands_in_a_layer(packages: dict[str, set[str]]) -> None:
    named = {p for layer in import_graph.layers() for p in layer}
    unplaced = sorted(p for p in packages if p not in named and p != "tenpai.__main__")
    assert unplaced == []


def test_architecture_doc_draws_todays_imports(packages: dict[str, set[str]]) -> None:
    text = import_graph.DOC.read_text(encoding="utf-8")
    assert import_graph.current_block(text) == import_graph.render(packages), (
        "docs/architecture.md's import graph is out of date: "
        "python tests/architecture/import_graph.py --write"
    )
