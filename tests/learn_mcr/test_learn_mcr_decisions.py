"""Decision points from the real Botzone records (reads ../shared/data)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from tenpai import tiles as T
from tenpai.events import Event
from tenpai.learn.dataset import BuildOptions, _Summary, iter_replayed_games
from tenpai.learn.mcr.decisions import chow_class, chow_classes, iter_mcr_decisions
from tenpai.learn.rulesets import get_rules

TEXT = "mcr/botzone_text/lawlorentz_Chinese-Standard-Mahjong-Simulate/sample.txt"
split_of = get_rules("mcr").split


def load_mcr_games(
    path: Path, skipped: dict[str, int] | None = None
) -> list[tuple[str, list[Event]]]:
    """(game id, replayed events) of every MCR game under ``path``, through the shared loader."""
    summary = _Summary()
    games = list(iter_replayed_games([path], BuildOptions.for_rules("mcr"), summary))
    if skipped is not None:
        skipped.update(summary.skipped)
    return games


def test_every_recorded_action_is_a_labelled_decision(data_dir: Path) -> None:
    games = load_mcr_games(data_dir / TEXT)
    assert len(games) == 16
    for _gid, events in games:
        decisions = list(iter_mcr_decisions(events))
        discards = [e for e in events if e.type == "dahai"]
        got = [(d.seat, d.label) for d in decisions if d.kind == "discard"]
        assert got == [(e.actor, T.kind_of(e.pai or 0)) for e in discards]
        for d in decisions:
            assert d.label in d.legal
            if d.kind == "discard":
                assert d.view.hand[d.label] > 0
        calls = Counter(e.type for e in events if e.type in ("chi", "pon", "daiminkan"))
        positive = Counter(d.kind for d in decisions if d.kind != "discard" and d.label)
        assert positive["chi"] == calls["chi"]
        assert positive["peng"] == calls["pon"]


def test_whole_corpus_counts(data_dir: Path) -> None:
    skipped: dict[str, int] = {}
    games = load_mcr_games(data_dir / "mcr", skipped=skipped)
    assert (len(games), skipped) == (132, {})  # 116 + 16 Botzone export matches
    kinds: Counter[str] = Counter()
    positive: Counter[str] = Counter()
    for _gid, events in games:
        for d in iter_mcr_decisions(events):
            kinds[d.kind] += 1
            positive[d.kind] += d.kind != "discard" and d.label != 0
    assert kinds == {"discard": 9177, "chi": 1519, "peng": 793, "gang": 80}
    assert positive == {"discard": 0, "chi": 149, "peng": 132, "gang": 29}
    assert Counter(split_of(gid) for gid, _ in games) == {"train": 107, "dev": 13, "test": 12}


def test_split_is_fixed_by_game_id() -> None:
    # Pinned: changing the rule would silently mix held-out games into training.
    assert [split_of(f"g{i}") for i in (0, 14, 18, 26, 27, 31)] == [
        "train", "test", "test", "dev", "dev", "test"]
    counts = Counter(split_of(f"game-{i}") for i in range(2000))
    assert 0.75 < counts["train"] / 2000 < 0.85 and counts["dev"] > 150 and counts["test"] > 150


def test_chow_shapes() -> None:
    hand = [0] * 34
    hand[1] = hand[2] = hand[4] = 1  # 2m 3m 5m
    assert chow_classes(hand, 0) == (1,)  # 1m: 1-2-3
    assert chow_classes(hand, 3) == (2, 3)  # 4m: 3-4-5, 2-3-4
    assert chow_classes(hand, 27) == ()
    assert chow_class(3, [2, 4]) == 2 and chow_class(0, [1, 2]) == 1 and chow_class(5, [3, 4]) == 3
