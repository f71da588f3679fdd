"""Agreement arithmetic on hand-checked examples (numpy only)."""

from __future__ import annotations

import numpy as np

from tenpai.learn.agreement import call_metrics, topk_agreement


def test_topk_counts_only_legal_classes() -> None:
    scores = np.array([[5.0, 4.0, 3.0, 2.0], [1.0, 9.0, 8.0, 0.0], [0.0, 1.0, 2.0, 3.0]])
    legal = np.array([[True] * 4, [True, False, True, True], [True, True, False, False]])
    labels = np.array([1, 3, 0])
    # row 0: order 0,1,2 -> label 1 is 2nd; row 1 (1 illegal): order 2,0,3 -> 3rd;
    # row 2 (only 0,1 legal): order 1,0 -> 2nd.
    r = topk_agreement(scores, labels, legal)
    assert r["n"] == 3
    assert r["top1"] == 0.0
    assert r["top2"] == 2 / 3
    assert r["top3"] == 1.0


def test_empty_input_gives_none() -> None:
    r = topk_agreement(np.zeros((0, 34)), np.zeros(0, dtype=int), np.zeros((0, 34), dtype=bool))
    assert r == {"n": 0, "top1": None, "top2": None, "top3": None}


def test_call_metrics_confusion_precision_recall() -> None:
    labels = np.array([0, 0, 0, 1, 1, 2, 3])
    pred = np.array([0, 1, 0, 1, 0, 3, 3])
    scores = np.eye(4)[pred]
    legal = np.ones((7, 4), dtype=bool)
    m = call_metrics(scores, labels, legal, 4)
    assert m["confusion"][0] == [2, 1, 0, 0]
    assert m["confusion"][2] == [0, 0, 0, 1]
    assert m["accuracy"] == 4 / 7
    # calls: tp = rows 3,5,6; fp = row 1; fn = row 4
    assert m["precision"] == 3 / 4 and m["recall"] == 3 / 4
    assert abs(m["f1"] - 0.75) < 1e-12
    assert m["shape_accuracy"] == 2 / 3
    assert m["positives"] == 4


def test_illegal_call_shape_is_never_predicted() -> None:
    scores = np.array([[0.0, 5.0, 1.0, 0.0]])
    legal = np.array([[True, False, True, False]])
    m = call_metrics(scores, np.array([2]), legal, 4)
    assert m["accuracy"] == 1.0
