"""The paper's action ids (27 tiles x 10 types, plus the ready declaration)."""

from __future__ import annotations

import pytest

from tenpai import tiles as T
from tenpai.engine import RandomAgent
from tenpai.events import Event
from tenpai.rules.suits108 import PAPER, Suits108Game
from tenpai.rules.suits108.actions import (
    NUM_ACTIONS,
    READY_ID,
    ActionIdError,
    action_id,
    decode,
    legal_ids,
)


def _t(s: str) -> int:
    return T.parse(s)[0]


def test_the_papers_worked_examples() -> None:
    """Section 4.4: actions 5, 69, 204 and 258 (counted from 0)."""
    assert action_id(Event("dahai", actor=0, pai=_t("6m"))) == 5
    assert action_id(Event("none"), pass_tile=_t("7p")) == 69
    assert action_id(Event("pon", pai=_t("7p"), consumed=(_t("7p"), _t("7p")))) == 204
    assert action_id(Event("hora", pai=_t("7p"))) == 258


def test_chow_types_say_where_the_claimed_tile_sits() -> None:
    left = Event("chi", pai=_t("3s"), consumed=(_t("4s"), _t("5s")))
    right = Event("chi", pai=_t("5s"), consumed=(_t("3s"), _t("4s")))
    middle = Event("chi", pai=_t("4s"), consumed=(_t("3s"), _t("5s")))
    assert action_id(left) == 4 * 27 + 20
    assert action_id(right) == 5 * 27 + 22
    assert action_id(middle) == 6 * 27 + 21


def test_kongs_and_the_declaration() -> None:
    assert action_id(Event("ankan", consumed=(_t("9s"),) * 4)) == 3 * 27 + 26
    assert action_id(Event("kakan", pai=_t("1m"), consumed=(_t("1m"),) * 3)) == 27
    assert action_id(Event("daiminkan", pai=_t("2p"), consumed=(_t("2p"),) * 3)) == 8 * 27 + 10
    assert action_id(Event("reach", actor=1)) == READY_ID == NUM_ACTIONS - 1


def test_bad_actions_are_refused() -> None:
    with pytest.raises(ActionIdError, match="pass_tile"):
        action_id(Event("none"))
    with pytest.raises(ActionIdError, match="suited"):
        action_id(Event("dahai", pai=_t("1z")))
    with pytest.raises(ActionIdError, match="not an action"):
        action_id(Event("tsumo", pai=_t("1m")))
    with pytest.raises(ActionIdError, match="not legal"):
        decode(0, [Event("dahai", pai=_t("2m"))])


@pytest.mark.parametrize("seed", range(4))
def test_every_legal_action_of_a_game_has_an_id_that_decodes(seed: int) -> None:
    game = Suits108Game(PAPER, seed=seed)
    agents = [RandomAgent(seed * 4 + i) for i in range(4)]
    seen: set[int] = set()
    while not game.done:
        answers = {}
        for d in game.pending():
            ids = legal_ids(d.legal)
            assert all(0 <= i < NUM_ACTIONS for i in ids)
            tile = next((e.pai for e in d.legal if e.type != "none"), None)
            for e in d.legal:
                i = action_id(e, tile)
                back = decode(i, d.legal)
                # Events sharing an id have the same effect: same type and tile kind.
                assert back.type == e.type
                assert back.pai is None or T.kind_of(back.pai) == T.kind_of(e.pai or 0)
            pick = agents[d.seat].act(d.observation, d.legal)
            answers[d.seat] = decode(action_id(pick, tile), d.legal)
            seen.update(ids)
        game.step(answers)
    assert any(i // 27 == 2 for i in seen), "claim windows offer passes"
