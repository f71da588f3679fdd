"""The packed meld integer: every call shape survives encode → decode."""

from __future__ import annotations

import itertools

import pytest

from tenpai.records.mjlog_meld import decode_meld, encode_meld


@pytest.mark.parametrize("base", [0, 6, 9, 15, 18, 24])
def test_chi_round_trip(base: int) -> None:
    for copies in itertools.product(range(4), repeat=3):
        ids = tuple((base + i) * 4 + copies[i] for i in range(3))
        for called in ids:
            m = decode_meld(encode_meld("chi", 3, ids, called))
            assert (m.kind, m.from_rel, m.tiles, m.called) == ("chi", 3, ids, called)


@pytest.mark.parametrize("kind", [0, 4, 27, 33])
def test_pon_and_kakan_round_trip(kind: int) -> None:
    for unused in range(4):
        ids = tuple(kind * 4 + i for i in range(4) if i != unused)
        for rel, called in itertools.product((1, 2, 3), ids):
            m = decode_meld(encode_meld("pon", rel, ids, called))
            assert (m.kind, m.from_rel, m.tiles, m.called) == ("pon", rel, ids, called)
            added = kind * 4 + unused
            k = decode_meld(encode_meld("kakan", rel, (*ids, added), called))
            assert (k.kind, k.added, k.called, k.from_rel) == ("kakan", added, called, rel)


def test_kans_and_nukidora() -> None:
    assert decode_meld(encode_meld("ankan", 0, (16, 17, 18, 19), None)).kind == "ankan"
    m = decode_meld(encode_meld("daiminkan", 2, (0, 1, 2, 3), 2))
    assert (m.kind, m.from_rel, m.called) == ("daiminkan", 2, 2)
    n = decode_meld(encode_meld("nukidora", 0, (121,), 121))
    assert (n.kind, n.called) == ("nukidora", 121)


def test_known_value_from_a_real_log() -> None:
    # <N who="3" m="9439"/> in a Houou log: a chi of 2p-3p-4p? decode and check its shape
    m = decode_meld(9439)
    assert m.kind in ("chi", "pon")
    assert len(m.tiles) == 3 and m.called in m.tiles


def test_out_of_range_refused() -> None:
    with pytest.raises(ValueError):
        decode_meld(1 << 16)
