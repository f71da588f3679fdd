"""The valuation f of seed 003 on hands computed by hand, and the decisions built on it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import pytest

from tenpai.agents import make_agent
from tenpai.agents.expert import ExpertAgent, ExpertInputError, expert_value, hand_value
from tenpai.engine.meld import Meld
from tenpai.engine.runner import play
from tenpai.events import Event
from tenpai.tiles import parse, parse_counts


def f(text: str, groups: int = 4) -> int:
    return hand_value(parse_counts(text), groups)


# ---------------------------------------------------------------- f by hand
def test_a_complete_hand_is_worth_3k_plus_2() -> None:
    # four sets (4 x 3) and the pair (2): 14, the report's "can win <=> f = 3k+2"
    assert f("123m456m789p234s55s") == 14
    assert f("111m222p333s789s99s") == 14


def test_ready_hands_of_13_tiles() -> None:
    # three sets (9), the partial 23s (2) and the pair (2); the blank fills the partial's group
    assert f("123m456m789p23s55s") == 13
    # single wait: four sets (12) and a lone 5s in the pair slot (0)
    assert f("123m456m789p234s5s") == 12
    # double-pair wait: one pair counts (2); the other pair, or a partial 5s-7s taken instead,
    # would need a fifth group: 9 + 2.  f ranks this ready hand below the two above.
    assert f("123m456m789p55s77s") == 11


def test_tiles_that_fit_nothing_are_worth_nothing() -> None:
    assert f("159m159p159s1234z") == 0
    # only honour pairs: one pair counts, a second pair in a group of three is worth 0
    assert f("11z22z3z4z5z6z7z159m9p") == 2


def test_the_number_of_groups_caps_partials() -> None:
    # six partials and a pair are available, but k = 4 groups: 4 x 2 + 2
    assert f("12m45m78m12p45p78p11s") == 10
    # per suit 1234 is a set + 1 or two partials; best: 123m 123p, 12s 34s, pair EE
    assert f("1234m1234p1234s11z") == 12


def test_melds_fill_groups() -> None:
    # three melds: k = 1, the concealed set and pair complete the hand
    assert f("123m55p", groups=1) == 5
    assert expert_value(parse_counts("123m55p"), melds=3) == 14
    # one group left: a set (3) beats a partial (2)
    assert f("1234m9p", groups=1) == 3


def test_red_fives_count_as_fives() -> None:
    assert f("406m456m789p234s55s") == f("456m456m789p234s55s") == 14


def test_bad_sizes_are_refused_with_the_reason() -> None:
    with pytest.raises(ExpertInputError, match="cannot fill 4 groups"):
        f("123m456m789p")
    with pytest.raises(ExpertInputError, match="0-4 groups"):
        hand_value(parse_counts("12m"), 5)


# ---------------------------------------------------------------- decisions
@dataclass
class FakeObservation:
    """The few observation fields the expert reads."""

    counts: list[int]
    melds: tuple[tuple[Meld, ...], ...] = ((), (), (), ())
    seat: int = 0
    seen: list[int] = field(default_factory=lambda: [0] * 34)

    def visible_counts(self) -> list[int]:
        return list(self.seen)


def _discards(hand: Sequence[int]) -> list[Event]:
    return [Event("dahai", actor=0, pai=t) for t in hand]


def test_discards_a_tile_that_adds_nothing() -> None:
    hand = parse("123m456m789p23s55s1z")
    choice = ExpertAgent().act(FakeObservation(parse_counts("123m456m789p23s55s1z")),
                               _discards(hand))
    assert choice.pai == parse("1z")[0]


def test_only_the_tile_outside_the_best_grouping_is_a_candidate() -> None:
    # 123m 456p 789s (9) + partial 46m (2) + pair 11z (2) + stray 9p: f = 13.  Only the 9p
    # adds nothing: without it f stays 13, without 4m or 1z it falls to 11.
    text = "123m456p789s11z46m9p"
    counts = parse_counts(text)
    assert hand_value(counts, 4) == 13
    for kind_text, expected in (("9p", 13), ("4m", 11), ("1z", 11)):
        k = parse_counts(kind_text).index(1)
        counts[k] -= 1
        assert hand_value(counts, 4) == expected
        counts[k] += 1
    choice = ExpertAgent().act(FakeObservation(counts), _discards(parse(text)))
    assert choice.pai == parse("9p")[0]


def test_ties_broken_by_live_draws() -> None:
    # 123m 456p 789s 11z + 1s 9m 5z: f = 9 + 2 = 11 and the three strays add nothing.  A
    # draw raises f when it makes a partial with a stray kept: 2s/3s for 1s, 7m/8m for 9m,
    # nothing for 5z (a second pair is worth 0).  With every 2s and 3s in sight, keeping 1s
    # is pointless: the discard is 1s or 5z (8 live draws each), never 9m (0).
    text = "123m456p789s11z1s9m5z"
    counts = parse_counts(text)
    assert hand_value(counts, 4) == 11

    def choose(gone: str) -> int:
        seen = [0] * 34
        for k, c in enumerate(parse_counts(gone)):
            seen[k] = 4 * c
        pai = ExpertAgent().act(FakeObservation(list(counts), seen=seen), _discards(parse(text)))
        assert pai.pai is not None
        return pai.pai

    assert choose("23s") in parse("1s5z")
    assert choose("78m") in parse("9m5z")


def test_calls_only_when_f_rises() -> None:
    # 13 tiles: 123m 456p 11z 46s 78s 9p 5z, f = 6 + 2 + 2 + 2 + 2 (4 groups: 2 sets, 2
    # partials) = 12.  Chi 5s with 46s: set + best discard -> 3 + f(rest, 3 groups) = 13.
    text = "123m456p11z46s78s9p5z"
    counts = parse_counts(text)
    assert hand_value(counts, 4) == 12
    five_s = parse("5s")[0]
    chi = Event("chi", actor=0, target=3, pai=five_s, consumed=tuple(parse("46s")))
    none = Event("none", actor=0)
    assert ExpertAgent().act(FakeObservation(counts), [chi, none]) == chi
    # pon of 1z: the pair (2) becomes a set (3) but the pair slot empties: f stays 12 -> pass
    east = parse("1z")[0]
    pon = Event("pon", actor=0, target=2, pai=east, consumed=tuple(parse("11z")))
    assert ExpertAgent().act(FakeObservation(counts), [pon, none]) == none


def test_wins_are_always_taken() -> None:
    hora = Event("hora", actor=0, target=0, pai=parse("5s")[0])
    obs = FakeObservation(parse_counts("123m456m789p234s55s"))
    assert ExpertAgent().act(obs, [*_discards(parse("123m")), hora]) == hora


# ---------------------------------------------------------------- whole games
@pytest.mark.parametrize("rules", ["riichi", "mcr", "suits108"])
def test_expert_plays_legal_games_in_every_rule_set(rules: str) -> None:
    from tenpai.arena.games import make_game

    options = {"preset": "botzone"} if rules == "mcr" else {}
    for seed in range(3):
        game = make_game(rules, seed, ["expert", "random", "expert", "efficiency"], options)
        agents = [make_agent(n, seed * 10 + i) for i, n in
                  enumerate(["expert", "random", "expert", "efficiency"])]
        play(game, agents)  # an illegal action would raise IllegalActionError
        assert game.done and len(game.final_scores) == 4
