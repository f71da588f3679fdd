"""Issue 20: the mjlog writer's ``<AGARI m=…>`` lists a player's calls as Tenhou does.

Tenhou lists the latest call first, and an added kan stands where its pon stood (the pon is
not listed beside it).  Measured on the real records: every one of the 256 wins with an added
kan in the corpus, and every win with calls but one bot-test fixture, follows that rule.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.records import Game, RuleFlags, read_games
from tenpai.records.mjlog_meld import decode_meld
from tenpai.records.mjlog_read import parse_mjlog
from tenpai.records.mjlog_write import game_to_mjlog

_HANDS = (
    "1m 1m 2p 3p 7s 8s 9s 5s 5s E S W N",
    "2m 2m 2m 3m 3m 3m 4m 4m 4m 6m 6m 6m 7m",
    "1p 1p 1p 5p 5p 5p 6p 6p 6p 8p 8p 8p 9p",
    "1s 1s 1s 2s 2s 2s 3s 3s 3s 4s 4s 4s 6s",
)


def _ev(typ: str, **kw: object) -> Event:
    return Event.from_mjai({"type": typ, **kw})


def _draw_discard(seat: int, tile: str) -> list[Event]:
    return [_ev("tsumo", actor=seat, pai=tile), _ev("dahai", actor=seat, pai=tile, tsumogiri=True)]


def _round_with_pon_chi_and_added_kan() -> list[Event]:
    """Seat 0 pons 1m, chis 4p, adds the fourth 1m to its pon, then wins by tsumo on 5s."""
    ev = [_ev("start_kyoku", bakaze="E", kyoku=1, honba=0, kyotaku=0, oya=0,
              scores=[25000] * 4, dora_marker="C", tehais=[h.split() for h in _HANDS])]
    ev += _draw_discard(0, "P")
    ev += _draw_discard(1, "1m")
    ev += [_ev("pon", actor=0, target=1, pai="1m", consumed=["1m", "1m"]),
           _ev("dahai", actor=0, pai="E", tsumogiri=False)]
    ev += _draw_discard(1, "7m") + _draw_discard(2, "7p") + _draw_discard(3, "4p")
    ev += [_ev("chi", actor=0, target=3, pai="4p", consumed=["2p", "3p"]),
           _ev("dahai", actor=0, pai="S", tsumogiri=False)]
    ev += _draw_discard(1, "8m") + _draw_discard(2, "7p") + _draw_discard(3, "9s")
    ev += [_ev("tsumo", actor=0, pai="1m"),
           _ev("kakan", actor=0, pai="1m", consumed=["1m", "1m", "1m"]),
           _ev("tsumo", actor=0, pai="N"),
           _ev("dahai", actor=0, pai="W", tsumogiri=False)]
    ev += _draw_discard(1, "8m") + _draw_discard(2, "7p") + _draw_discard(3, "9s")
    ev += [_ev("tsumo", actor=0, pai="5s"),
           _ev("hora", actor=0, target=0, pai="5s", han=1, fu=40,
               yaku=[["haitei", 1]], deltas=[3900, -1300, -1300, -1300]),
           _ev("end_kyoku")]
    return ev


def _agari_melds(xml: str) -> list[list[tuple[str, list[int]]]]:
    """Each AGARI's calls as (kind, tile kinds): ids differ between writers, kinds do not."""
    out: list[list[tuple[str, list[int]]]] = []
    for tag in re.findall(r"<AGARI [^>]*>", xml):
        m = re.search(r' m="([^"]*)"', tag)
        codes = [int(x) for x in m.group(1).split(",") if x] if m else []
        melds = [decode_meld(c) for c in codes]
        out.append([(str(m.kind), sorted(t // 4 for t in m.tiles)) for m in melds])
    return out


def test_added_kan_replaces_its_pon_and_the_latest_call_comes_first() -> None:
    game = Game(source="hand-made", format="mjai",
                rules=RuleFlags(variant="riichi", players=4, red_fives=True),
                rounds=[_round_with_pon_chi_and_added_kan()],
                final_scores=(28900, 23700, 23700, 23700))
    xml = game_to_mjlog(game)
    one_m, two_p = T.kind_of(T.from_mjai("1m")), T.kind_of(T.from_mjai("2p"))
    # before: [pon 1m, chi 2p3p4p, kakan 1m] (the pon listed beside its own kan)
    assert _agari_melds(xml) == [[("chi", [two_p, two_p + 1, two_p + 2]),
                                  ("kakan", [one_m] * 4)]]
    back = parse_mjlog(xml, "written")
    assert [e.type for e in back.rounds[0]] == [e.type for e in game.rounds[0]]


def _real_games_with_added_kan_wins(data_dir: Path) -> list[Path]:
    root = data_dir / "riichi" / "tenhou_mjlog" / "mjx-project_mjx" / "tests_py"
    names = ("2016052515gm-00a9-0000-c4d72066.mjlog", "2017031200gm-00a9-0000-ebc05bd5.mjlog")
    return [root / n for n in names if (root / n).is_file()]


@pytest.mark.corpus
def test_written_agari_calls_equal_tenhous_in_real_games(data_dir: Path) -> None:
    paths = _real_games_with_added_kan_wins(data_dir)
    if not paths:
        pytest.skip("the mjx test records are not in the data folder")
    for path in paths:
        original = path.read_text(encoding="utf-8")
        assert any(k == "kakan" for melds in _agari_melds(original) for k, _ in melds)
        (game,) = read_games(path)
        assert _agari_melds(game_to_mjlog(game)) == _agari_melds(original), path.name
