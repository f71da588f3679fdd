"""docs/tenhou.md's message table names what the server's ``AGARI`` and ``RYUUKYOKU`` carry.

The table left out ``paoWho`` (and ``yakuman``) although the server sends them, and did not
mark which attributes are optional.  The messages are built here the way the table server
builds them (``serve/tenhou/messages.py``), once as full and once as bare as they come, and
every attribute must be listed: required ones plain, the others in ``[brackets]``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tenpai.events import Event
from tenpai.serve.tenhou import messages as M
from tenpai.serve.tenhou.wire import parse_tag

DOC = Path(__file__).resolve().parents[2] / "docs" / "tenhou.md"
START = Event("start_kyoku", bakaze=0, kyoku=0, honba=1, oya=0)
BEFORE = [25_000] * 4
HAND = list(range(0, 56, 4))
OWARI = M.owari(BEFORE, [0.0] * 4, 0)


def _agari(*, yaku: tuple[tuple[str, int], ...], pao: int | None, melds: list[int],
           ura: list[int], owari: str | None) -> str:
    win = Event("hora", actor=1, target=2, pao=pao, han=13, fu=30, yaku=yaku,
                deltas=(0, 33_300, -16_300, -16_000))
    return M.agari(win, START, HAND, melds, 52, [8], ura, BEFORE, 1, 0, owari)


#: as full as an AGARI comes (a called yakuman with a liable seat, ending the game), as bare
#: (a closed win, no ura), and a yakuman alone (no ``yaku``)
AGARIS = [
    _agari(yaku=(("riichi", 1), ("daisangen", 13)), pao=3, melds=[12345], ura=[9], owari=OWARI),
    _agari(yaku=(("riichi", 1),), pao=None, melds=[], ura=[], owari=None),
    _agari(yaku=(("daisangen", 13),), pao=None, melds=[], ura=[], owari=None),
]
RYUUKYOKUS = [
    M.ryuukyoku(Event("ryukyoku", kind="nine_terminals", deltas=(0,) * 4), START,
                {0: HAND[:13]}, BEFORE, 0, 0, OWARI),
    M.ryuukyoku(Event("ryukyoku", deltas=(0,) * 4), START, {}, BEFORE, 0, 0, None),
]


def _documented(tag: str) -> tuple[set[str], set[str]]:
    """The attributes the table's ``<TAG …/>`` lists: (plain, in brackets)."""
    row = next(x for x in DOC.read_text(encoding="utf-8").splitlines()
               if x.startswith("| result |"))
    m = re.search(rf"`<{tag} ([^`]*)/>`", row)
    assert m is not None, f"no <{tag}> in the result row of {DOC.name}"
    words = m.group(1).split()
    return ({w for w in words if not w.startswith("[")},
            {w.strip("[]") for w in words if w.startswith("[")})


def _sent(messages: list[str]) -> tuple[set[str], set[str]]:
    """(attributes in every message, attributes in some); ``haiN`` as the table writes it."""
    names = [{"hai0…hai3" if re.fullmatch(r"hai\d", k) else k for k in parse_tag(t).attrs}
             for t in messages]
    return set.intersection(*names), set.union(*names)


@pytest.mark.parametrize(("tag", "messages"), [("AGARI", AGARIS), ("RYUUKYOKU", RYUUKYOKUS)])
def test_the_table_lists_every_attribute_the_server_sends(tag: str, messages: list[str]) -> None:
    always, ever = _sent(messages)
    plain, optional = _documented(tag)
    if tag == "AGARI":
        assert "paoWho" in ever  # the attribute the table once left out
    assert plain == always, (plain, always)
    assert optional == ever - always, (optional, ever - always)
