"""A seat's rebuilt state on hand-made request sequences: the moves the real matches do not
show, and requests that cannot follow."""

from __future__ import annotations

import pytest

from tenpai import tiles as T
from tenpai.serve.botzone.protocol import parse_request
from tenpai.serve.botzone.seat_state import SeatState, StateError

DEAL = "1 0 0 0 0 W1 W2 W3 W5 W6 B2 B3 B4 T7 T8 T9 F1 F1"


def _feed(lines: list[str], my_last: tuple[int, ...] = ()) -> SeatState:
    st = SeatState()
    for line in lines:
        st.apply(parse_request(line), my_last)
    return st


def _hidden_kong_then(*more: str) -> list[str]:
    """Seat 1 lays a concealed kong whose kind seat 0 cannot know."""
    return ["0 0 0", DEAL, "2 W9", "3 0 PLAY W9", "3 1 DRAW", "3 1 GANG", "3 1 DRAW",
            "3 1 PLAY B9", "3 2 DRAW", "3 2 PLAY B8", "3 3 DRAW", "3 3 PLAY B7", *more]


def test_hidden_kong_kind_is_regussed_when_the_seat_draws_it() -> None:
    first = _feed(_hidden_kong_then())
    guessed = first.round.melds[1][0].tiles[0] if first.round else -1
    st = _feed(_hidden_kong_then(f"2 {T.to_botzone(guessed)}"))
    assert st.round is not None
    kong = st.round.melds[1][0]
    assert kong.type == "ankan" and kong.tiles[0] != guessed
    assert st.public_view()["melds"][1] == [("ankan", ())]
    assert T.kind_of(guessed) in st.public_view()["hand"]


def test_hidden_kong_kind_is_reguessed_when_another_seat_shows_it() -> None:
    first = _feed(_hidden_kong_then())
    guessed = T.to_botzone(first.round.melds[1][0].tiles[0]) if first.round else "?"
    st = _feed(_hidden_kong_then("2 W9", "3 0 PLAY W9", "3 1 DRAW", f"3 1 PLAY {guessed}"))
    assert st.round is not None
    assert st.public_view()["rivers"][1][-1] == (T.from_botzone(guessed), False)
    assert st.round.melds[1][0].tiles[0] != T.from_botzone(guessed)


def test_own_concealed_kong_takes_its_tile_from_the_answer() -> None:
    deal = "1 0 0 0 0 W1 W1 W1 W5 W6 B2 B3 B4 T7 T8 T9 B4 B4"
    lines = ["0 0 0", deal, "2 W1", "3 0 GANG", "2 J1"]
    st = _feed(lines, (T.from_botzone("W1"),))
    assert st.round is not None
    assert [(m.type, m.tiles[0]) for m in st.round.melds[0]] == [("ankan", T.from_botzone("W1"))]
    assert st.wall_left() == (19, 21, 21, 21)


def test_pong_and_chow_by_others_take_their_tiles() -> None:
    lines = ["0 0 0", DEAL, "2 J2", "3 0 PLAY J2", "3 2 PENG W9", "3 3 CHI W8 B5"]
    st = _feed(lines)
    view = st.public_view()
    assert view["melds"][2] == [("pon", (32, 32, 32))]  # J2 is kind 32
    assert view["melds"][3] == [("chi", (6, 7, 8))]
    assert view["rivers"][0] == [(32, True)]
    assert view["rivers"][2] == [(8, True)]


@pytest.mark.parametrize(("lines", "says"), [
    (["0 0 0", DEAL, "2 J2", "2 J3"], "second draw"),
    (["0 0 0", DEAL, "3 1 DRAW"], "draws"),
    (["0 0 0", DEAL, "2 J2", "3 0 PLAY J1"], "not legal"),
    (["0 0 0", DEAL, "2 J2", "3 0 PLAY J2", "3 2 CHI W8 W9"], "not after seat"),
    (["0 0 0", "1 0 0 0 0 W1 W1 W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9"], "fifth"),
    (["0 0 0", DEAL, "2 W1", "3 0 PLAY W1", "3 1 DRAW", "3 1 PLAY W1", "3 2 DRAW",
      "3 2 PLAY W1", "3 3 DRAW", "3 3 PLAY W1"], "accounted for"),
    ([DEAL], "before '0 id quan'"),
    (["0 0 0", "0 0 0"], "second"),
])
def test_requests_that_cannot_follow(lines: list[str], says: str) -> None:
    with pytest.raises(StateError, match=says):
        _feed(lines)
