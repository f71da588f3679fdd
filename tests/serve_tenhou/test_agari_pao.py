"""What the client's view records of an ``AGARI``: the win as a ``hora`` event with the liable
seat (``paoWho``), in the view's seats, as the mjlog reader reads it.

The view does not score the win (the points are the message's ``sc``); the event goes into its
tracker, whose round events an agent's observation reads.  The messages here are synthetic: a
deal, one discard and the win on it, at a four-player table (wire positions are the tracker's
seats) and at a three-player one (they are not: the empty position is skipped).
"""

from __future__ import annotations

import pytest

from tenpai.events import Event
from tenpai.serve.tenhou.view import TenhouView, ViewError
from tenpai.serve.tenhou.wire import parse_tag

#: Thirteen tile ids of pins, sou and honours (no red five), valid at both table sizes.
_HAND = "36,40,44,48,56,60,64,68,72,76,80,96,100"


def _win(players: int, agari: str) -> list[Event]:
    """The view's round events after: the game opens, we are dealt a hand, the wire position
    2 draws and discards, and ``agari`` ends the hand."""
    view = TenhouView()
    sanma = players == 3
    messages = [
        f'<GO type="{0x19 if sanma else 0x09}" lobby="0"/>',
        '<UN n0="a" n1="{}" n2="c" n3="d" dan="0,0,0,0" rate="1500,1500,1500,1500"/>'.format(
            "" if sanma else "b"),
        # dealer at wire position 2; three players: we sit at absolute seat 2, the empty
        # absolute seat 3 is wire position 1
        f'<INIT seed="0,1,1,0,0,108" ten="{"350,0,350,350" if sanma else "250,250,250,250"}" '
        f'oya="2" hai="{_HAND}"/>',
        "<V/>",
        "<F120/>",
        agari,
    ]
    for text in messages:
        view.apply(parse_tag(text))
    return view.tracker.round_events


def _agari(**attrs: object) -> str:
    base = {"ba": "1,1", "hai": _HAND + ",120", "machi": "120", "ten": "30,32000,5",
            "yaku": "", "yakuman": "49", "doraHai": "108", "fromWho": "2"}
    return "<AGARI " + " ".join(f'{k}="{v}"' for k, v in {**base, **attrs}.items()) + "/>"


def test_a_four_player_agari_with_pao_who_names_the_liable_seat() -> None:
    sc = "250,-160,250,331,250,-163,250,0"
    events = _win(4, _agari(who=0, paoWho=1, sc=sc))
    (hora,) = [e for e in events if e.type == "hora"]
    assert (hora.actor, hora.target, hora.pao) == (0, 2, 1)
    assert hora.deltas == (-16_000, 33_100, -16_300, 0)


def test_a_three_player_agari_names_the_liable_seat_in_the_views_seats() -> None:
    # we are absolute seat 2: wire positions 2 and 3 are absolute 0 and 1, tracker seats 1, 2
    sc = "350,331,0,0,350,-163,350,-160"
    events = _win(3, _agari(who=0, paoWho=3, sc=sc))
    (hora,) = [e for e in events if e.type == "hora"]
    assert (hora.actor, hora.target, hora.pao) == (0, 1, 2)
    assert hora.deltas == (33_100, -16_300, -16_000)


def test_an_agari_without_pao_who_names_no_liable_seat() -> None:
    events = _win(4, _agari(who=0, sc="250,0,250,80,250,-80,250,0"))
    (hora,) = [e for e in events if e.type == "hora"]
    assert hora.pao is None


def test_a_pao_who_on_the_empty_seat_is_refused() -> None:
    with pytest.raises(ViewError, match="empty seat"):
        _win(3, _agari(who=0, paoWho=1, sc="350,80,0,0,350,-80,350,0"))
