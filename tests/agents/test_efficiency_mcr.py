"""`efficiency` on MCR observations: MCR shanten, and calls only with an 8-fan plan in reach."""

from __future__ import annotations

from tenpai.agents.efficiency import (
    MCR_CHOW_PLANS,
    EfficiencyAgent,
    best_discard_mcr,
    is_mcr_observation,
    mcr_plan_in_reach,
)
from tenpai.arena.games import make_game
from tenpai.events import Event
from tenpai.hand import shanten, shanten_mcr
from tenpai.tiles import kind_of, parse, parse_counts


def _kinds(text: str) -> tuple[int, ...]:
    return tuple(k for k, c in enumerate(parse_counts(text)) for _ in range(c))


def test_chow_plans_are_the_8_fan_three_chow_patterns() -> None:
    # 3 pure straights + 6 mixed straights + 7 mixed triple chows
    assert len(MCR_CHOW_PLANS) == 16
    assert ((0, 1, 2), (3, 4, 5), (6, 7, 8)) in MCR_CHOW_PLANS
    assert ((4, 5, 6), (13, 14, 15), (22, 23, 24)) in MCR_CHOW_PLANS  # 567 in every suit


def test_plan_in_reach_by_hand() -> None:
    # chi 123m with 4m 6m 7m 8m 9m held: pure straight 3 + 2 + 3 = 8 of 9 tiles
    assert mcr_plan_in_reach([("chi", _kinds("123m"))], parse_counts("46m789m11z5p"))
    # the same chi with only 7 8 9m: 3 + 0 + 3 = 6 < 7, and no other plan fits
    assert not mcr_plan_in_reach([("chi", _kinds("123m"))], parse_counts("789m11z5p99s13p"))
    # a value pon outside the plan is allowed once ...
    assert mcr_plan_in_reach(
        [("chi", _kinds("123m")), ("pon", _kinds("555z"))], parse_counts("456m78m11p")
    )
    # ... but two sets outside any plan are not
    assert not mcr_plan_in_reach(
        [("pon", _kinds("555z")), ("pon", _kinds("111s"))], parse_counts("123m456m78m")
    )
    # full flush: pon 2p and seven more dots make ten; six more do not (and no chow plan)
    assert mcr_plan_in_reach([("pon", _kinds("222p"))], parse_counts("1345789p11z9s"))
    assert not mcr_plan_in_reach([("pon", _kinds("222p"))], parse_counts("134589p11z99s"))
    # mixed triple chow: chi 345m, 345p held, 34s held: 3 + 3 + 2 = 8
    assert mcr_plan_in_reach([("chi", _kinds("345m"))], parse_counts("345p34s11z9m"))


def test_mcr_discard_uses_every_mcr_form() -> None:
    # knitted straight 147m 258p 369s, pair 1z, 55z toward the set: 7z is the only useless tile
    text = "147m258p369s11z55z7z"
    counts = parse_counts(text)
    choice = best_discard_mcr(counts, [Event("dahai", actor=0, pai=t) for t in parse(text)],
                              [0] * 34)
    assert choice.pai == parse("7z")[0]
    counts[parse_counts("7z").index(1)] -= 1
    assert shanten_mcr(counts) == 0 and shanten(counts) > 0


def test_efficiency_recognises_mcr_observations() -> None:
    mcr = make_game("mcr", 1, ["a", "b", "c", "d"], {"preset": "botzone"})
    riichi = make_game("riichi", 1, ["a", "b", "c", "d"], {})
    assert is_mcr_observation(mcr.pending()[0].observation)
    assert not is_mcr_observation(riichi.pending()[0].observation)


def test_efficiency_in_mcr_never_calls_without_a_plan() -> None:
    """Over whole games, every chi or pon efficiency makes leaves an 8-fan plan in reach."""
    from tenpai.agents import make_agent

    calls = 0
    for seed in range(6):
        game = make_game("mcr", seed, ["e", "e", "e", "e"], {"preset": "botzone"})
        agents = [make_agent("efficiency", seed * 4 + i) for i in range(4)]
        while not game.done:
            answers: dict[int, Event] = {}
            for d in game.pending():
                a = agents[d.seat].act(d.observation, d.legal)
                if a.type in ("chi", "pon"):
                    obs = d.observation
                    after = obs.counts
                    for c in a.consumed:
                        after[kind_of(c)] -= 1
                    held = [(m.type, tuple(kind_of(x) for x in m.tiles))
                            for m in obs.melds[obs.seat]]
                    assert a.pai is not None
                    meld = (a.type, tuple(sorted(kind_of(x) for x in (*a.consumed, a.pai))))
                    assert mcr_plan_in_reach([*held, meld], after)
                    calls += 1
                answers[d.seat] = a
            game.step(answers)
    assert calls > 0
    assert isinstance(agents[0], EfficiencyAgent)
