"""Claims: kuikae bans after a call, chankan on an added kan, four-winds abort, triple ron."""

from __future__ import annotations

from scenario import act, discard, legal, pass_all, table

from tenpai import tiles as T


def test_kuikae_bans_same_tile_and_other_end_of_chi() -> None:
    hands = ["3m1579p1359s1234z", "456m1379p1379s12z", "2468p2468s13579m", "1234z5566z777z99s"]
    rnd = table(hands, "8s")
    discard(rnd, 0, "3m")
    chi = [e for e in legal(rnd, 1) if e.type == "chi"]
    assert chi, "seat 1 may chi 3m with 4m5m"
    act(rnd, 1, type="chi", consumed=tuple(T.parse("45m")))
    after_chi = legal(rnd, 1)
    assert all(e.type == "dahai" for e in after_chi), after_chi  # a discard, nothing else
    allowed = {T.kind_of(e.pai) for e in after_chi if e.pai is not None}
    assert T.parse("6m")[0] not in allowed, "suji kuikae: the other end of the chi is banned"


def test_chi_only_from_the_left() -> None:
    hands = ["3m1579p1359s1234z", "19m1379p1379s125z", "45m2468p2468s137m", "1234z5566z777z99s"]
    rnd = table(hands, "8s")
    discard(rnd, 0, "3m")
    assert not any(e.type == "chi" for e in legal(rnd, 2))


def test_four_winds_abort() -> None:
    hands = ["1z13579m13579p13s", "1z2468m2468p2468s", "1z1379m1379p1379s", "1z2468m2468p1357s"]
    rnd = table(hands, "2z2z2z5z")
    for s in range(4):
        discard(rnd, s, "1z")
        if rnd.phase == "claim":
            pass_all(rnd)
    assert rnd.done
    assert rnd.result is not None and rnd.result.abort == "four_winds"
